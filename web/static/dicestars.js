// Dice Stars in the browser: the sheets drawn like the paper one, the reserve,
// bag and discard, the choices of the seat to act and the result (the log is
// the server's narration, put into words by table.js).
// table.js knows nothing of Dice Stars; another game adds a module with the
// same exports (renderBoard, renderActions, resultText,
// beforeUpdate, afterUpdate).

import { h, reducedMotion, sleep } from '/static/dom.js';
import { t } from '/static/i18n.js';
import '/static/dicestars.messages.js';

export const id = 'dicestars';

const COLORS = ['black', 'purple', 'blue', 'orange'];
// A shape per colour, so dice and columns are told apart without colour.
const SHAPES = { black: '●', purple: '▲', blue: '■', orange: '◆' };

export function colorName(c) { return t('ds.col.' + c); }

function parseDie(s) {
  const [color, face] = String(s).split(':');
  return { color, star: face === 'star', face: face === 'star' ? 0 : Number(face) };
}

function faceWord(d) { return d.star ? t('ds.star') : String(d.face); }

// dieEl draws one die: its colour, a shape naming the colour, and the face.
export function dieEl(s, extra = '') {
  const d = parseDie(s);
  return h('span', {
    class: `die die-${d.color} ${extra}`.trim(), role: 'img', 'data-die': s,
    'aria-label': t('ds.die', { color: colorName(d.color), face: faceWord(d) }),
    title: t('ds.die', { color: colorName(d.color), face: faceWord(d) }),
  },
  h('span', { class: 'die-face', 'aria-hidden': 'true' }, d.star ? '★' : String(d.face)),
  h('span', { class: 'die-mark', 'aria-hidden': 'true' }, SHAPES[d.color] || '?'));
}

function colorChip(c) {
  return h('span', { class: `chip die-${c}`, 'aria-hidden': 'true' }, SHAPES[c] || '?');
}

// --- the board -------------------------------------------------------------

// renderBoard draws everything public: reserve, bag, discard, notes and
// every player's sheet (the seat's own first).
export function renderBoard(view, opts = {}) {
  const mySeat = opts.seat ?? -3;
  const board = h('div', { class: 'ds-board' });

  const reserve = view.reserve || [];
  board.append(h('section', { class: 'ds-middle', 'aria-label': t('ds.reserve') },
    h('div', { class: 'ds-reserve' },
      h('h3', null, t('ds.reserve')),
      reserve.length
        ? h('div', { class: 'dice-row', 'data-testid': 'reserve' }, reserve.map((s) => dieEl(s)))
        : h('p', { class: 'muted', 'data-testid': 'reserve' }, t('ds.reserve.empty'))),
    h('div', { class: 'ds-counts' },
      countBox(t('ds.bag'), view.bag, view.bagColors, 'bag'),
      countBox(t('ds.discard'), view.discard, view.discardColors, 'discard')),
    view.refillDue && !view.over ? h('p', { class: 'note' }, t('ds.refill')) : null,
    view.ending && !view.over ? h('p', { class: 'note warn' }, t('ds.ending')) : null));

  const order = (view.players || []).map((_, i) => i);
  if (mySeat >= 0 && mySeat < order.length) {
    order.splice(mySeat, 1);
    order.unshift(mySeat);
  }
  const sheets = h('div', { class: 'ds-sheets' });
  for (const p of order) sheets.append(sheetEl(view, p, mySeat));
  board.append(sheets);
  return board;
}

function countBox(title, total, per, testid) {
  per = per || {};
  return h('div', { class: 'count-box', 'data-testid': testid },
    h('h3', null, title, ' ', h('span', { class: 'count-total' }, total === 1 ? t('ds.dice.one') : t('ds.dice', { n: total }))),
    h('ul', { class: 'count-list' }, COLORS.map((c) => h('li', {
      'aria-label': `${colorName(c)}: ${per[c] ?? 0}`,
    }, colorChip(c), h('span', { 'aria-hidden': 'true' }, String(per[c] ?? 0))))));
}

function sheetEl(view, p, mySeat) {
  const pl = view.players[p];
  const cols = view.columns && view.columns.length ? view.columns : COLORS;
  const rows = pl.rows || [];
  const greenMax = Math.max(0, ...rows.map((r) => r.cells.length - cols.length));
  const multMax = Math.max(0, ...rows.map((r) => r.multipliers));
  const current = !view.over && view.current === p;

  const head = h('tr', null,
    h('th', { scope: 'col', class: 'rowhead' }, t('ds.row')),
    cols.map((c) => h('th', { scope: 'col', class: `colhead die-${c}`, title: colorName(c) },
      h('span', { 'aria-hidden': 'true' }, SHAPES[c]), h('span', { class: 'sr-only' }, colorName(c)))),
    greenMax ? h('th', { scope: 'colgroup', colspan: greenMax, class: 'greenhead' }, t('ds.green')) : null,
    multMax ? h('th', { scope: 'colgroup', colspan: multMax, class: 'multhead', title: t('ds.mult') },
      h('span', { 'aria-hidden': 'true' }, '★ ×2'), h('span', { class: 'sr-only' }, t('ds.mult'))) : null,
    h('th', { scope: 'col', title: t('ds.sum') }, h('span', { class: 'long' }, t('ds.sum')), h('span', { class: 'short', 'aria-hidden': 'true' }, 'Σ')),
    h('th', { scope: 'col', title: t('ds.score') }, h('span', { class: 'long' }, t('ds.score')), h('span', { class: 'short', 'aria-hidden': 'true' }, 'Pts')));

  const body = h('tbody');
  rows.forEach((r) => {
    const tr = h('tr', { 'data-row': r.value },
      h('th', { scope: 'row', class: 'rowhead' }, h('span', { class: 'rowval' }, String(r.value))));
    for (let i = 0; i < r.cells.length + (greenMax - (r.cells.length - cols.length)); i++) {
      if (i >= r.cells.length) { tr.append(h('td', { class: 'cell none', 'aria-hidden': 'true' })); continue; }
      const green = i >= cols.length;
      const text = r.cells[i];
      const where = green ? t('ds.cell.green', { i: i - cols.length + 1 }) : colorName(cols[i]);
      tr.append(h('td', {
        class: `cell ${green ? 'green' : 'white col-' + cols[i]}${text ? ' filled' : ''}${text === 'X' ? ' x' : ''}`,
        'data-cell': `${p}:${r.value}:${i}`,
        'aria-label': t('ds.cell.label', { row: r.value, where, content: text || t('ds.cell.empty') }),
      }, text === 'X' ? '✕' : text));
    }
    for (let m = 0; m < multMax; m++) {
      if (m >= r.multipliers) { tr.append(h('td', { class: 'cell none', 'aria-hidden': 'true' })); continue; }
      const on = m < r.marked;
      tr.append(h('td', {
        class: `cell mult${on ? ' on' : ''}`, 'data-mult': `${p}:${r.value}:${m}`,
        'aria-label': t('ds.cell.mult', { i: m + 1, row: r.value, state: t(on ? 'ds.mult.marked' : 'ds.mult.free') }),
      }, on ? '★' : ''));
    }
    const partial = r.marked > 0 && r.marked < r.multipliers;
    tr.append(h('td', { class: 'sum' }, String(r.sum)));
    tr.append(h('td', { class: `score${partial ? ' zero' : ''}${r.marked === r.multipliers ? ' double' : ''}` }, String(r.score)));
    body.append(tr);
  });

  const span = 1 + cols.length + greenMax + multMax;
  const foot = h('tfoot', null, h('tr', null,
    h('td', { colspan: span, class: 'foot-label' },
      h('span', { class: 'whiteleft' }, t('ds.white', { n: pl.whiteLeft })),
      h('span', { class: `penalty${pl.penalized ? ' on' : ''}` }, t('ds.penaltycell') + ' ',
        h('span', { class: 'pen-val', 'data-testid': 'penalty' }, pl.penalized ? '−' + pl.penalty : '—'))),
    h('th', { scope: 'row', class: 'total-label' }, t('ds.total')),
    h('td', { class: 'total', 'data-testid': 'total' }, String(pl.total))));

  const you = p === mySeat ? ` (${t('seat.you')})` : '';
  const card = h('article', {
    class: `sheet${current ? ' current' : ''}${p === mySeat ? ' mine' : ''}${(view.winners || []).includes(pl.name) && view.over ? ' winner' : ''}`,
    'data-seat': p, 'aria-label': t('ds.sheet.of', { name: pl.name }) + you,
  },
  h('header', { class: 'sheet-head' },
    h('h3', null, h('span', { class: 'pname' }, pl.name), you ? h('span', { class: 'muted' }, you) : null),
    h('span', { class: 'sheet-total', 'aria-hidden': 'true' }, String(pl.total))),
  h('div', { class: 'table-scroll' },
    h('table', { class: 'ds-sheet' }, h('caption', { class: 'sr-only' }, t('ds.sheet.of', { name: pl.name })),
      h('thead', null, head), body, foot)));

  if (pl.solo) {
    const s = pl.solo;
    const grid = h('div', { class: 'solo-grid', 'aria-hidden': 'true' });
    for (let i = 0; i < s.cells; i++) grid.append(h('span', { class: 'solo-cell' + (i < s.marked ? ' on' : '') }));
    card.append(h('section', { class: 'solo', 'data-testid': 'solo' },
      h('h4', null, t('ds.solo')),
      h('p', null, t('ds.solo.count', { m: s.marked, c: s.cells, opp: s.opponent })), grid));
  }
  return card;
}

// --- the choices -------------------------------------------------------------

function actKey(a) {
  if (a.draw !== undefined) return 'd' + a.draw + (a.returnReserve ? 'r' : '');
  if (a.take === 'color') return 'c' + a.color;
  if (a.take === 'value') return 'v' + a.value;
  if (a.take === 'stars') return 's' + [...(a.multipliers || [])].sort((x, y) => x - y).join(',');
  return JSON.stringify(a);
}

// Whether draws also return the reserve: the player's setting, kept while
// the page is open.
let returnReserve = false;

// renderActions draws the choices of the seat to act: every choice of the
// step, the legal ones prominent, the others dimmed but still clickable so
// the server can say why they are refused. send(action) plays one;
// opts.redraw shows the panel again after a setting changed.
export function renderActions(view, send, opts = {}) {
  const legal = view.legal || [];
  if (!legal.length || view.over) return null;
  const keys = new Set(legal.map(actKey));
  const noteId = 'ds-try-note';
  // btn: getAction, when given, reads the action at click time (star rows).
  const btn = (label, action, getAction) => {
    const ok = keys.has(actKey(action));
    return h('button', {
      type: 'button', class: `choice${ok ? ' legal' : ' illegal'}`,
      'data-action': JSON.stringify(action), 'data-legal': String(ok),
      'aria-describedby': ok ? null : noteId,
      onclick: () => send(getAction ? getAction() : action),
    }, label);
  };
  const panel = h('section', { class: 'ds-actions', 'aria-label': t(view.phase === 'draw' ? 'ds.draw.title' : 'ds.take.title') });

  if (view.phase === 'draw') {
    const canReturn = legal.some((a) => a.returnReserve);
    const ret = returnReserve && canReturn;
    panel.append(h('h3', null, t('ds.draw.title')));
    if (view.mustDrawThree) panel.append(h('p', { class: 'note' }, t('ds.draw.three')));
    if (canReturn) {
      const box = h('input', {
        type: 'checkbox', id: 'ds-return', checked: !!ret,
        onchange: (e) => { returnReserve = e.target.checked; opts.redraw?.(); },
      });
      panel.append(h('p', { class: 'check' }, box, h('label', { for: 'ds-return' }, t('ds.draw.return'))));
    }
    panel.append(h('div', { class: 'choices' },
      [1, 2, 3].map((n) => btn(t('ds.draw.n', { n }), ret ? { draw: n, returnReserve: true } : { draw: n }))));
  } else if (view.phase === 'take') {
    panel.append(h('h3', null, t('ds.take.title')));
    if (view.penaltyTurn) panel.append(h('p', { class: 'note warn' }, t('ds.penalty')));
    const reserve = (view.reserve || []).map(parseDie);
    const cols = view.columns && view.columns.length ? view.columns : COLORS;
    panel.append(h('div', { class: 'choices', role: 'group', 'aria-label': t('ds.take.title') },
      cols.map((c) => {
        const n = reserve.filter((d) => d.color === c).length;
        return btn([colorChip(c), ' ', t('ds.take.color', { color: t('ds.colpl.' + c) }), n ? ` ×${n}` : ''],
          { take: 'color', color: c });
      })));
    panel.append(h('div', { class: 'choices' },
      [2, 3, 4, 5, 6].map((v) => {
        const n = reserve.filter((d) => !d.star && d.face === v).length;
        return btn([t('ds.take.value', { v }), n ? ` ×${n}` : ''], { take: 'value', value: v });
      })));
    panel.append(starsPicker(view, reserve.filter((d) => d.star).length, legal, btn));
  }
  panel.append(h('p', { class: 'muted small', id: noteId }, t('ds.trynote')));
  return panel;
}

// starsPicker: one row picker per star, preset to a legal placement; the
// button's legality follows the rows picked.
function starsPicker(view, stars, legal, btn) {
  const wrap = h('div', { class: 'stars-picker' });
  if (stars === 0) {
    wrap.append(btn(['★ ', t('ds.take.stars')], { take: 'stars', multipliers: [] }));
    return wrap;
  }
  const me = view.players[view.current] || view.players[0];
  const firstLegal = legal.find((a) => a.take === 'stars');
  const preset = firstLegal ? [...firstLegal.multipliers].sort((x, y) => x - y) : [];
  const selects = [];
  const pickers = h('div', { class: 'star-rows' });
  for (let i = 0; i < stars; i++) {
    const sel = h('select', { id: 'ds-star-' + i, 'data-star': i });
    for (const r of me.rows) {
      sel.append(h('option', { value: String(r.value) },
        t('ds.stars.rowopt', { v: r.value, free: r.multipliers - r.marked })));
    }
    sel.value = String(preset[i] ?? me.rows[0].value);
    selects.push(sel);
    pickers.append(h('span', { class: 'star-row' }, h('label', { for: 'ds-star-' + i }, t('ds.stars.row', { i: i + 1 })), sel));
  }
  const action = () => ({ take: 'stars', multipliers: selects.map((s) => Number(s.value)).sort((x, y) => x - y) });
  const go = btn(['★ ', t('ds.take.stars'), ` ×${stars}`], action(), action);
  const keys = new Set(legal.map(actKey));
  for (const s of selects) {
    s.addEventListener('change', () => {
      const a = action();
      const ok = keys.has(actKey(a));
      go.dataset.action = JSON.stringify(a);
      go.dataset.legal = String(ok);
      go.className = `choice${ok ? ' legal' : ' illegal'}`;
      if (ok) go.removeAttribute('aria-describedby'); else go.setAttribute('aria-describedby', 'ds-try-note');
    });
  }
  wrap.append(pickers, go);
  return wrap;
}

// --- words -------------------------------------------------------------------

// resultText says who won a finished game.
export function resultText(view, mySeat) {
  if (!view.over) return '';
  const ps = view.players || [];
  if (ps.length === 1 && ps[0].solo) {
    const s = ps[0].solo;
    const won = (view.winners || []).length > 0;
    if (s.lost) return t('table.solo.lostgrid');
    if (won && mySeat !== 0) return t('table.solo.won.other', { name: ps[0].name, score: ps[0].total, opp: s.opponent });
    return t(won ? 'table.solo.won' : 'table.solo.lost', { score: ps[0].total, opp: s.opponent });
  }
  const w = view.winners || [];
  const best = Math.max(...ps.map((p) => p.total));
  return t(w.length > 1 ? 'table.winners' : 'table.winner', { names: w.join(' & '), score: best });
}

// --- animation -----------------------------------------------------------------

// beforeUpdate runs on the old board: the dice being taken leave.
export async function beforeUpdate(root, events, fast) {
  const take = (events || []).find((e) => e.kind === 'take');
  if (!take || fast || reducedMotion()) return;
  const left = [...root.querySelectorAll('.ds-reserve .die')];
  let any = false;
  for (const s of take.data.dice || []) {
    const el = left.find((x) => x.dataset.die === s && !x.classList.contains('leaving'));
    if (el) { el.classList.add('leaving'); any = true; }
  }
  if (any) await sleep(220);
}

// afterUpdate runs on the new board: rolled dice tumble in, cells light up.
export function afterUpdate(root, events, fast) {
  if (fast || reducedMotion()) return;
  for (const ev of events || []) {
    if (ev.kind === 'roll') {
      const dice = [...root.querySelectorAll('.ds-reserve .die')].reverse();
      for (const s of ev.data.dice || []) {
        const el = dice.find((x) => x.dataset.die === s && !x.classList.contains('rolling'));
        if (el) el.classList.add('rolling');
      }
    }
    if (ev.kind === 'take') {
      for (const c of ev.data.cells || []) {
        const rowIdx = c.row;
        const el = root.querySelector(`[data-cell="${ev.seat}:${rowIdx}:${c.cell}"]`);
        if (el) el.classList.add('fresh');
      }
      const counts = {};
      for (const r of ev.data.multipliers || []) counts[r] = (counts[r] || 0) + 1;
      for (const [r, n] of Object.entries(counts)) {
        const on = [...root.querySelectorAll(`[data-mult^="${ev.seat}:${r}:"].on`)];
        for (const el of on.slice(-n)) el.classList.add('fresh');
      }
    }
  }
}
