// A test-only renderer of internal/pig (served by review_test.go's server,
// never by dicehall): the banked points, the turn's total, Roll and Hold.
// It exports the optional parts of the renderer contract a review and a
// hint use: renderReview draws a decision's data, highlightHint the
// coach's choice.

import { h } from '/static/dom.js';

export const id = 'pig';

export function renderBoard(view, { seat, act, canAct } = {}) {
  const mine = !!canAct && view.current === seat && !view.over;
  return h('div', { class: 'pig', 'data-testid': 'pig' },
    h('ol', { class: 'pig-banked' }, view.banked.map((b, i) => h('li', { 'data-seat': i, class: i === view.current ? 'now' : null }, `seat ${i + 1}: ${b} of ${view.target}`))),
    h('p', { 'data-testid': 'pig-turn' }, `this turn: ${view.turn}`),
    h('div', { class: 'pig-actions' },
      h('button', { type: 'button', class: 'primary', 'data-action': 'roll', disabled: !mine, onclick: () => act({ roll: true }) }, 'Roll'),
      h('button', { type: 'button', 'data-action': 'hold', disabled: !mine || view.turn === 0, onclick: () => act({ hold: true }) }, 'Hold')));
}

export function renderActions() { return null; }

export function resultText(view) { return `The game is over: ${Math.max(...view.banked)} points win.`; }

export async function beforeUpdate() {}

export function afterUpdate() {}

export function renderReview(data, board) {
  board.querySelector('[data-testid=pig-turn]')?.setAttribute('data-reviewed', String(data.turn));
}

export function highlightHint(action, board) {
  board.querySelector(`[data-action=${action?.hold ? 'hold' : 'roll'}]`)?.classList.add('hinted');
}
