// The replay viewer of a finished table: every step of the game from
// GET /api/tables/{id}/replay?seat=N, forward and back, from one seat's view
// or the public one. Buttons, and the arrow, Home and End keys.

import { h, replace } from '/static/dom.js';
import { t } from '/static/i18n.js';
import { api } from '/static/api.js';
import { narrationLines } from '/static/games.js';

export function replayViewer({ tableId, renderer, mySeat }) {
  const rs = { seat: mySeat >= 0 ? mySeat : -1, data: null, i: 0, error: '', loading: true, tries: 0 };
  const el = h('section', { class: 'replay card', 'aria-labelledby': 'replay-h', 'data-testid': 'replay' });
  const counter = h('p', { class: 'replay-step', 'aria-live': 'polite', 'data-testid': 'replay-step' });
  const what = h('ul', { class: 'replay-what', 'data-testid': 'replay-what' });
  const board = h('div', { class: 'replay-board' });
  const select = h('select', { id: 'replay-seat', onchange: () => { rs.seat = Number(select.value); load(); } });
  const btn = (key, label, fn, testid) => h('button', { type: 'button', 'data-testid': testid, 'aria-label': t(key), title: t(key), onclick: fn }, label);
  const buttons = {};

  function go(i) {
    if (!rs.data) return;
    rs.i = Math.max(0, Math.min(rs.data.steps.length - 1, i));
    draw();
  }

  function onKey(e) {
    if (!rs.data) return;
    const map = { ArrowLeft: () => go(rs.i - 1), ArrowRight: () => go(rs.i + 1), Home: () => go(0), End: () => go(rs.data.steps.length - 1) };
    const fn = map[e.key];
    if (!fn) return;
    e.preventDefault();
    fn();
  }
  el.addEventListener('keydown', (e) => {
    if (e.target.tagName === 'SELECT' || e.target.tagName === 'INPUT') return;
    onKey(e);
  });
  // Arrow keys work anywhere on the page unless a form field has focus.
  document.addEventListener('keydown', (e) => {
    if (el.contains(e.target) || !el.isConnected) return;
    if (['INPUT', 'SELECT', 'TEXTAREA'].includes(e.target.tagName)) return;
    onKey(e);
  });

  function frame() {
    buttons.start = btn('replay.start', '«', () => go(0), 'replay-start');
    buttons.back = btn('replay.back', '‹', () => go(rs.i - 1), 'replay-back');
    buttons.fwd = btn('replay.forward', '›', () => go(rs.i + 1), 'replay-forward');
    buttons.end = btn('replay.end', '»', () => go(rs.data ? rs.data.steps.length - 1 : 0), 'replay-end');
    for (const [k, b] of Object.entries({ start: 'replay.start', back: 'replay.back', fwd: 'replay.forward', end: 'replay.end' })) {
      buttons[k].append(h('span', { class: 'btn-word' }, ' ' + t(b)));
    }
    replace(el,
      h('h2', { id: 'replay-h' }, t('replay.title')),
      h('div', { class: 'replay-bar' },
        h('span', { class: 'field inline' }, h('label', { for: 'replay-seat' }, t('replay.view')), select),
        h('div', { class: 'replay-buttons', role: 'group', 'aria-label': t('replay.title') },
          buttons.start, buttons.back, buttons.fwd, buttons.end),
        counter),
      h('p', { class: 'muted small' }, t('replay.keys')),
      what, board);
  }

  function fillSelect() {
    const players = rs.data?.players || [];
    replace(select,
      h('option', { value: '-1' }, t('replay.public')),
      players.map((p, i) => h('option', { value: String(i) }, typeof p === 'string' ? p : (p.name ?? '#' + i))));
    select.value = String(rs.seat);
  }

  function draw() {
    fillSelect();
    if (rs.error) {
      replace(counter, rs.error);
      what.replaceChildren();
      board.replaceChildren();
      return;
    }
    if (!rs.data) { counter.textContent = t('replay.loading'); return; }
    const steps = rs.data.steps;
    const step = steps[rs.i];
    counter.textContent = t('replay.step', { i: rs.i, n: steps.length - 1 });
    buttons.start.disabled = buttons.back.disabled = rs.i === 0;
    buttons.fwd.disabled = buttons.end.disabled = rs.i === steps.length - 1;
    const lines = rs.i === 0 ? [t('replay.setup')] : narrationLines(step.narration);
    replace(what, lines.map((l) => h('li', null, l)));
    replace(board, renderer.renderBoard(step.view, { seat: rs.seat }));
  }

  async function load() {
    rs.error = '';
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
    rerender() {
      const wasFocused = el.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
      frame();
      draw();
      if (wasFocused) el.querySelector(`[data-testid="${wasFocused}"]`)?.focus();
    },
  };
}
