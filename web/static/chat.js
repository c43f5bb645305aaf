// The table's chat (docs/protocol.md, Chat): a panel of its own beside the
// log (the log says what the game did, the chat what people said), a line
// to write in, and a mute per sender that this browser keeps. Every line is
// plain text: h() makes text nodes, never markup.

import { h, replace } from '/static/dom.js';
import { t, currentLang } from '/static/i18n.js';
import { savedName, saveName, cleanName } from '/static/api.js';

export const CHAT_MAX = 300; // characters a line may have (the server's ChatMaxRunes)
const KEEP = 300; // lines the page keeps
const MUTE_KEY = 'dh.chat.muted';

// senderKey names whoever wrote a line, for the mute: the name, as the
// server compares names (width and case aside).
export function senderKey(line) {
  return String(line.name || '').normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

export function mutedSenders() {
  try {
    const v = JSON.parse(localStorage.getItem(MUTE_KEY) || '[]');
    return new Set(Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);
  } catch { return new Set(); }
}

function setMuted(key, on) {
  const m = mutedSenders();
  if (on) m.add(key); else m.delete(key);
  try { localStorage.setItem(MUTE_KEY, JSON.stringify([...m].slice(-500))); } catch { /* storage may be off */ }
  window.dispatchEvent(new CustomEvent('dh-chat-mute'));
}

function timeOf(at) {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleTimeString(currentLang(), { hour: '2-digit', minute: '2-digit' });
}

// chatLineEl draws one line: time, name (a spectator marked as one), the
// text, and (with onMute) a button to mute its sender.
// mine: the line is this page's own (no mute button).
export function chatLineEl(line, { mine = false, onMute = null } = {}) {
  const spectator = line.role !== 'player';
  const name = line.name || '?';
  return h('li', { class: `chat-line${spectator ? ' spectator' : ' player'}${mine ? ' me' : ''}`, 'data-index': line.index, 'data-sender': senderKey(line) },
    h('span', { class: 'chat-meta' },
      h('time', { class: 'chat-time', datetime: line.at }, timeOf(line.at)), ' ',
      h('span', { class: `chat-name${spectator ? '' : ' seat-' + line.seat}` }, name),
      spectator ? h('span', { class: 'chat-tag' }, t('chat.spectator')) : null,
      onMute && !mine ? h('button', {
        type: 'button', class: 'chat-mute linkish', 'data-mute': senderKey(line),
        'aria-label': t('chat.mute', { name }), title: t('chat.mute', { name }), onclick: () => onMute(line),
      }, h('span', { 'aria-hidden': 'true' }, '⊘')) : null),
    h('span', { class: 'chat-text' }, line.text));
}

// mutedNote says how many lines are hidden, with a way to hear each sender
// again.
export function mutedNote(hidden) {
  if (!hidden.size) return null;
  const n = [...hidden.values()].reduce((a, b) => a + b.count, 0);
  return h('div', { class: 'chat-muted small', 'data-testid': 'chat-muted' },
    h('span', null, t('chat.muted', { n })),
    [...hidden.entries()].map(([key, x]) => h('button', {
      type: 'button', class: 'chat-unmute', 'data-unmute': key, onclick: () => setMuted(key, false),
    }, t('chat.unmute', { name: x.name }))));
}

// hiddenOf splits lines into those shown and, by sender, those muted.
export function hiddenOf(lines) {
  const muted = mutedSenders();
  const shown = [];
  const hidden = new Map();
  for (const l of lines) {
    const k = senderKey(l);
    if (!muted.has(k)) { shown.push(l); continue; }
    const x = hidden.get(k) || { name: l.name, count: 0 };
    x.count++;
    hidden.set(k, x);
  }
  return { shown, hidden };
}

export function onMuteChange(fn) { window.addEventListener('dh-chat-mute', fn); }

// chatPanel is the table page's chat. ctx: send(msg) → id or null,
// seat() → this page's seat (negative: watching), canWrite() → false when
// only players may write and this page watches.
export function chatPanel(ctx) {
  const cs = {
    lines: [],
    open: !window.matchMedia || window.matchMedia('(min-width: 901px)').matches,
    unread: 0,
    pending: new Map(), // request id -> the text sent, given back if refused
  };
  const el = h('section', { class: 'card chat-card', 'aria-labelledby': 'chat-h', 'data-testid': 'chat' });
  const toggle = h('button', { type: 'button', class: 'chat-toggle', id: 'chat-h', 'aria-controls': 'chat-body', 'data-testid': 'chat-toggle', onclick: () => { cs.open = !cs.open; if (cs.open) cs.unread = 0; render(); if (cs.open) input.focus(); } });
  const list = h('ol', { class: 'chat-list', 'data-testid': 'chat-list' });
  // Focusable, so the keyboard can scroll it.
  const box = h('div', { class: 'chat-log', role: 'log', 'aria-live': 'polite', 'aria-labelledby': 'chat-h', tabindex: 0 }, list);
  const note = h('div', { class: 'chat-note' });
  const counter = h('span', { class: 'chat-count small', id: 'chat-count', 'data-testid': 'chat-count' });
  const input = h('input', {
    type: 'text', id: 'chat-input', maxlength: CHAT_MAX, autocomplete: 'off', enterkeyhint: 'send',
    'aria-describedby': 'chat-count', 'data-testid': 'chat-input', oninput: () => count(),
  });
  const nameInput = h('input', { type: 'text', id: 'chat-name', maxlength: 24, autocomplete: 'nickname', value: savedName(), 'data-testid': 'chat-name' });
  const nameLabel = h('label', { for: 'chat-name' });
  const inputLabel = h('label', { for: 'chat-input', class: 'sr-only' });
  const sendBtn = h('button', { type: 'submit', class: 'primary', 'data-testid': 'chat-send' });
  const nameField = h('p', { class: 'field chat-name-field' }, nameLabel, nameInput);
  const form = h('form', { class: 'chat-form', onsubmit: (e) => { e.preventDefault(); submit(); } },
    nameField, h('div', { class: 'chat-row' }, inputLabel, input, sendBtn), counter);
  const closed = h('p', { class: 'muted small chat-closed', 'data-testid': 'chat-closed' });
  const body = h('div', { class: 'chat-body', id: 'chat-body' }, box, note, form, closed);
  el.append(h('h2', { class: 'chat-head' }, toggle), body);

  function count() {
    const n = [...input.value].length;
    counter.textContent = t('chat.count', { n, max: CHAT_MAX });
    counter.classList.toggle('low', n > CHAT_MAX - 30);
  }

  function submit() {
    const text = input.value.trim();
    if (!text) { input.focus(); return; }
    const msg = { type: 'chat', text };
    if (ctx.seat() < 0) {
      const name = cleanName(nameInput.value);
      if (!name) { nameInput.focus(); ctx.alert?.({ key: 'chat.name.missing' }); return; }
      saveName(name);
      msg.name = name;
    }
    const id = ctx.send(msg);
    if (id === null || id === undefined) return;
    cs.pending.set(id, input.value);
    if (cs.pending.size > 20) cs.pending.delete(cs.pending.keys().next().value);
    input.value = '';
    count();
  }

  // mine: a seated page's lines by its seat, a spectator's by its name.
  function mine(line) {
    if (ctx.seat() >= 0) return line.role === 'player' && line.seat === ctx.seat();
    return line.role !== 'player' && senderKey(line) === senderKey({ name: cleanName(nameInput.value) });
  }

  function mute(line) {
    setMuted(senderKey(line), true);
  }

  function drawLines() {
    // Drawn afresh (a welcome, a mute, the language): nothing is new, so
    // screen readers are not read the whole chat again.
    box.setAttribute('aria-live', 'off');
    const { shown, hidden } = hiddenOf(cs.lines);
    replace(list, shown.length ? shown.map((l) => chatLineEl(l, { mine: mine(l), onMute: mute }))
      : h('li', { class: 'muted chat-empty' }, t('chat.empty')));
    replace(note, mutedNote(hidden));
    box.scrollTop = box.scrollHeight;
    setTimeout(() => box.setAttribute('aria-live', 'polite'), 0);
  }

  function render() {
    const heading = !cs.open && cs.unread ? t('chat.title.new', { n: cs.unread }) : t('chat.title');
    replace(toggle, h('span', { class: 'chat-caret', 'aria-hidden': 'true' }, cs.open ? '▾' : '▸'), ' ', heading);
    toggle.setAttribute('aria-expanded', String(cs.open));
    el.classList.toggle('closed', !cs.open);
    body.hidden = !cs.open;
    const watching = ctx.seat() < 0;
    const may = ctx.canWrite();
    form.hidden = !may;
    closed.hidden = may;
    closed.textContent = t('chat.players.only');
    nameField.hidden = !watching;
    nameLabel.textContent = t('chat.name');
    inputLabel.textContent = t('chat.input');
    input.placeholder = t('chat.placeholder');
    sendBtn.textContent = t('chat.send');
    count();
    drawLines();
  }

  onMuteChange(() => drawLines());

  return {
    el,
    render,
    // welcome: the latest lines, as a (re)connection brings them.
    welcome(lines) {
      if (!Array.isArray(lines)) return;
      cs.lines = lines.slice(-KEEP);
      render();
    },
    add(line) {
      if (!line || cs.lines.some((l) => l.index === line.index)) return;
      cs.lines.push(line);
      if (cs.lines.length > KEEP) cs.lines.splice(0, cs.lines.length - KEEP);
      const muted = mutedSenders().has(senderKey(line));
      if (!cs.open && !muted && !mine(line)) { cs.unread++; render(); return; }
      if (muted) { replace(note, mutedNote(hiddenOf(cs.lines).hidden)); return; }
      list.querySelector('.chat-empty')?.remove();
      const stick = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
      list.append(chatLineEl(line, { mine: mine(line), onMute: mute }));
      while (list.children.length > KEEP) list.firstElementChild.remove();
      if (stick) box.scrollTop = box.scrollHeight;
    },
    // refused: a request was refused; a chat line's text comes back to
    // the field (unless something new was typed meanwhile).
    refused(id) {
      const text = cs.pending.get(id);
      if (text === undefined) return;
      cs.pending.delete(id);
      if (!input.value) { input.value = text; count(); }
    },
  };
}
