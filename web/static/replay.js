// The replay viewer of a finished table: every step of the game from
// GET /api/tables/{id}/replay?seat=N, from one seat's view or the public
// one. Step by step, a slider to jump to any move, and autoplay at a chosen
// speed. Keys: ← → step, space plays or pauses, Home and End jump.
// A review (review.js) hangs its strip above the board (setStrip), jumps
// the replay to a decision (jump) and hears of every step drawn (onStep).

import { h, replace } from '/static/dom.js';
import { t } from '/static/i18n.js';
import { api } from '/static/api.js';
import { narrationLines } from '/static/games.js';
import { chatLineEl, hiddenOf, mutedNote, onMuteChange } from '/static/chat.js';

const SPEEDS = [0.5, 1, 2, 4];
const STEP_MS = 1200; // a step's time on screen at 1×

// replayViewer: names(i) names a seat for people and localize(v) puts the
// server's names of a view or a narration into the page's (both optional).
export function replayViewer({ tableId, renderer, mySeat, names, localize = (v) => v }) {
  const rs = { seat: mySeat >= 0 ? mySeat : -1, data: null, i: 0, error: '', tries: 0, playing: false, speed: 1, timer: 0 };
  const el = h('section', { class: 'replay card', 'aria-labelledby': 'replay-h', 'data-testid': 'replay' });
  const counter = h('p', { class: 'replay-step', 'aria-live': 'polite', 'data-testid': 'replay-step' });
  const what = h('ul', { class: 'replay-what', 'data-testid': 'replay-what' });
  const board = h('div', { class: 'replay-board' });
  const strip = h('div', { class: 'replay-strip', hidden: true });
  const stepHeard = [];
  // What was said by the step shown: the chat, apart from what happened.
  const talk = h('section', { class: 'replay-talk', 'aria-labelledby': 'replay-talk-h', 'data-testid': 'replay-chat', hidden: true });
  const select = h('select', { id: 'replay-seat', onchange: () => { rs.seat = Number(select.value); load(); } });
  const slider = h('input', {
    type: 'range', id: 'replay-jump', min: 0, max: 0, step: 1, value: 0, 'data-testid': 'replay-jump',
    oninput: () => { pause(); go(Number(slider.value)); },
  });
  const speed = h('select', {
    id: 'replay-speed', 'data-testid': 'replay-speed',
    onchange: () => { rs.speed = Number(speed.value); if (rs.playing) schedule(); },
  });
  const btn = (key, label, fn, testid) => h('button', { type: 'button', class: 'icon-btn', 'data-testid': testid, 'aria-label': t(key), title: t(key), onclick: fn }, label);
  const buttons = {};

  const last = () => (rs.data ? rs.data.steps.length - 1 : 0);

  function go(i) {
    if (!rs.data) return;
    rs.i = Math.max(0, Math.min(last(), i));
    draw();
  }

  function schedule() {
    clearTimeout(rs.timer);
    rs.timer = setTimeout(() => {
      if (!rs.playing || !el.isConnected) return;
      if (rs.i >= last()) { pause(); return; }
      go(rs.i + 1);
      if (rs.i >= last()) pause(); else schedule();
    }, STEP_MS / rs.speed);
  }

  function play() {
    if (!rs.data) return;
    if (rs.i >= last()) rs.i = 0; // from the start again
    rs.playing = true;
    draw();
    schedule();
  }

  function pause() {
    if (!rs.playing) return;
    rs.playing = false;
    clearTimeout(rs.timer);
    drawPlay();
  }

  const toggle = () => (rs.playing ? pause() : play());

  function onKey(e) {
    if (!rs.data || e.altKey || e.ctrlKey || e.metaKey) return;
    const map = {
      ArrowLeft: () => { pause(); go(rs.i - 1); },
      ArrowRight: () => { pause(); go(rs.i + 1); },
      Home: () => { pause(); go(0); },
      End: () => { pause(); go(last()); },
      ' ': toggle,
    };
    const fn = map[e.key];
    if (!fn) return;
    e.preventDefault();
    fn();
  }
  el.addEventListener('keydown', (e) => {
    if (['SELECT', 'INPUT', 'TEXTAREA'].includes(e.target.tagName)) return;
    // Space on a button presses it; the keys are for the rest.
    if (e.key === ' ' && e.target.tagName === 'BUTTON') return;
    onKey(e);
  });
  // The keys work anywhere on the page unless a field or a button has focus.
  document.addEventListener('keydown', (e) => {
    if (el.contains(e.target) || !el.isConnected) return;
    if (['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON', 'A'].includes(e.target.tagName) || e.target.isContentEditable) return;
    onKey(e);
  });

  function frame() {
    buttons.start = btn('replay.start', '«', () => { pause(); go(0); }, 'replay-start');
    buttons.back = btn('replay.back', '‹', () => { pause(); go(rs.i - 1); }, 'replay-back');
    buttons.play = h('button', { type: 'button', class: 'primary play', 'data-testid': 'replay-play', onclick: toggle });
    buttons.fwd = btn('replay.forward', '›', () => { pause(); go(rs.i + 1); }, 'replay-forward');
    buttons.end = btn('replay.end', '»', () => { pause(); go(last()); }, 'replay-end');
    replace(speed, SPEEDS.map((s) => h('option', { value: String(s) }, t('replay.speed.x', { x: String(s).replace('.', t('replay.decimal')) }))));
    speed.value = String(rs.speed);
    replace(el,
      h('div', { class: 'replay-head' },
        h('h2', { id: 'replay-h' }, t('replay.title')),
        h('span', { class: 'field inline' }, h('label', { for: 'replay-seat' }, t('replay.view')), select)),
      h('div', { class: 'replay-bar' },
        h('div', { class: 'replay-buttons', role: 'group', 'aria-label': t('replay.title') },
          buttons.start, buttons.back, buttons.play, buttons.fwd, buttons.end),
        h('span', { class: 'field inline' }, h('label', { for: 'replay-speed' }, t('replay.speed')), speed),
        counter),
      h('div', { class: 'replay-jump' }, h('label', { for: 'replay-jump', class: 'sr-only' }, t('replay.jump')), slider),
      h('p', { class: 'muted small' }, t('replay.keys')),
      strip, what, talk, board);
  }

  function drawTalk() {
    const said = (rs.data?.chat || []).filter((c) => (c.step ?? 0) <= rs.i);
    talk.hidden = !rs.data?.chat?.length;
    if (talk.hidden) { talk.replaceChildren(); return; }
    const { shown, hidden } = hiddenOf(said);
    const box = h('div', { class: 'chat-log', role: 'region', tabindex: 0, 'aria-labelledby': 'replay-talk-h' },
      h('ol', { class: 'chat-list' }, shown.length ? shown.map((l) => chatLineEl(l)) : h('li', { class: 'muted' }, t('chat.empty'))));
    replace(talk, h('h3', { id: 'replay-talk-h' }, t('chat.title')), box, mutedNote(hidden));
    box.scrollTop = box.scrollHeight;
  }
  onMuteChange(() => { if (el.isConnected) drawTalk(); });

  function drawPlay() {
    const key = rs.playing ? 'replay.pause' : 'replay.play';
    replace(buttons.play, h('span', { 'aria-hidden': 'true' }, rs.playing ? '❚❚ ' : '▶ '), t(key));
    buttons.play.setAttribute('aria-pressed', String(rs.playing));
    buttons.play.disabled = !rs.data;
  }

  function fillSelect() {
    const players = rs.data?.players || [];
    replace(select,
      h('option', { value: '-1' }, t('replay.public')),
      players.map((p, i) => h('option', { value: String(i) }, names ? names(i) : typeof p === 'string' ? p : (p.name ?? '#' + i))));
    select.value = String(rs.seat);
  }

  function draw() {
    fillSelect();
    drawPlay();
    if (rs.error) {
      replace(counter, rs.error);
      what.replaceChildren();
      board.replaceChildren();
      talk.hidden = true;
      return;
    }
    if (!rs.data) { counter.textContent = t('replay.loading'); return; }
    const steps = rs.data.steps;
    const step = steps[rs.i];
    counter.textContent = t('replay.step', { i: rs.i, n: last() });
    slider.max = String(last());
    slider.value = String(rs.i);
    slider.setAttribute('aria-valuetext', t('replay.step', { i: rs.i, n: last() }));
    buttons.start.disabled = buttons.back.disabled = rs.i === 0;
    buttons.fwd.disabled = buttons.end.disabled = rs.i === last();
    const lines = rs.i === 0 ? [t('replay.setup')] : narrationLines(localize(step.narration));
    replace(what, lines.map((l) => h('li', null, l)));
    drawTalk();
    replace(board, renderer.renderBoard(localize(step.view), { seat: rs.seat }));
    for (const fn of stepHeard) fn(rs.i, board);
  }

  async function load() {
    rs.error = '';
    pause();
    draw();
    try {
      const keep = rs.data ? rs.i : null;
      rs.data = await api.replay(tableId, rs.seat);
      rs.i = keep ?? 0;
      if (rs.i >= rs.data.steps.length) rs.i = rs.data.steps.length - 1;
    } catch (e) {
      // The table may be marked over a moment after the last update.
      if (e.status === 409 && rs.tries++ < 5) { setTimeout(load, 400); return; }
      // Busy (several replays from one address at once, a full server):
      // wait as the server asks and try again.
      if ((e.status === 429 || e.status === 503) && rs.tries++ < 8) {
        setTimeout(load, 1000 * Math.min(Math.max(e.retryAfter, 1), 10));
        return;
      }
      rs.error = t('replay.failed', { msg: e.message });
    }
    draw();
  }

  frame();
  load();
  return {
    el,
    // jump shows step i (paused), as the slider does.
    jump(i) { pause(); go(i); },
    // step is the step shown (null before the replay is loaded).
    step: () => (rs.data ? rs.i : null),
    // setStrip puts node (or nothing) above the board.
    setStrip(node) { replace(strip, node); strip.hidden = !node; },
    // onStep(fn): fn(i, boardEl) after each step is drawn.
    onStep(fn) { stepHeard.push(fn); },
    rerender() {
      const wasFocused = el.contains(document.activeElement) ? document.activeElement.dataset.testid || document.activeElement.id : null;
      frame();
      draw();
      if (wasFocused) (el.querySelector(`[data-testid="${wasFocused}"]`) || el.querySelector('#' + CSS.escape(wasFocused)))?.focus();
    },
  };
}
