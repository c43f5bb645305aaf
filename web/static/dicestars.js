// Dice Stars in the browser: the table top (reserve, bag, discard) and the
// score sheets drawn like the paper pad. On your turn you play on the board:
// tap a reserve die (its colour or its number), a cell of your sheet, or a
// choice of the compact list; the sheet previews the cells the choice fills,
// the points and the solo-grid cost; a second tap (or Confirm) plays it.
// table.js knows nothing of Dice Stars; another game adds a module with the
// same exports (renderBoard, renderActions, resultText, renderResult,
// beforeUpdate, afterUpdate; optional: highlightHint, renderReview).

import { h, reducedMotion, sleep } from '/static/dom.js';
import { t, plural, winnersText } from '/static/i18n.js';
import { pref, pace } from '/static/prefs.js';
import '/static/dicestars.messages.js';

export const id = 'dicestars';

const COLORS = ['black', 'purple', 'blue', 'orange'];
// A shape per colour, so dice and columns are told apart without colour.
const SHAPES = { black: '●', purple: '▲', blue: '■', orange: '◆' };

export function colorName(c) { return t('ds.col.' + c); }

// colorWord is a colour as it qualifies n dice ("bleu", "bleus").
function colorWord(c, n) { return t((plural(n) === 'one' ? 'ds.col.' : 'ds.colpl.') + c); }

function parseDie(s) {
  const [color, face] = String(s).split(':');
  return { color, star: face === 'star', face: face === 'star' ? 0 : Number(face) };
}

function faceWord(d) { return d.star ? t('ds.star') : String(d.face); }

function dieLabel(s) {
  const d = parseDie(s);
  return t('ds.die', { color: colorName(d.color), face: faceWord(d) });
}

function dieParts(d) {
  return [
    h('span', { class: 'die-face', 'aria-hidden': 'true' }, d.star ? '★' : String(d.face)),
    h('span', { class: 'die-mark', 'aria-hidden': 'true' }, SHAPES[d.color] || '?'),
  ];
}

// dieEl draws one die: its colour, a shape naming the colour, and the face.
export function dieEl(s, extra = '') {
  const d = parseDie(s);
  return h('span', {
    class: `die die-${d.color}${d.star ? ' star' : ''} ${extra}`.trim(), role: 'img', 'data-die': s,
    'aria-label': dieLabel(s), title: dieLabel(s),
  }, dieParts(d));
}

function colorChip(c) {
  return h('span', { class: `chip die-${c}`, 'aria-hidden': 'true' }, SHAPES[c] || '?');
}

const cols = (view) => (view.columns && view.columns.length ? view.columns : COLORS);
const rowScore = (sum, marked, mult) => (marked === 0 ? sum : marked === mult ? 2 * sum : 0);
const signed = (n) => (n > 0 ? '+' : n < 0 ? '−' : '±') + Math.abs(n);

// --- the choices and what they would do ------------------------------------------

function actKey(a) {
  if (a.draw !== undefined) return 'd' + a.draw + (a.returnReserve ? 'r' : '');
  if (a.take === 'color') return 'c' + a.color;
  if (a.take === 'value') return 'v' + a.value;
  if (a.take === 'stars') return 'stars';
  return JSON.stringify(a);
}

// takes tells whether a take action takes die d.
function takes(a, d) {
  if (a.take === 'color') return d.color === a.color;
  if (a.take === 'value') return !d.star && d.face === a.value;
  if (a.take === 'stars') return d.star;
  return false;
}

// forecast works out what a take would do to the sheet of the player to
// act, the way the rules fill it: a colour fills its column's topmost empty
// cells, a value its row's leftmost ones (white, then green), ✕ in all but
// the last, which gets the sum; stars mark multipliers in the rows named;
// a take that does not fit (only possible when nothing fits) is the penalty.
function forecast(view, a) {
  const p = view.current;
  const pl = view.players[p];
  const reserve = (view.reserve || []).map(parseDie);
  const dice = [];
  let sum = 0;
  reserve.forEach((d, i) => { if (takes(a, d)) { dice.push(i); sum += d.face; } });
  const n = dice.length;
  const fc = { seat: p, a, dice, n, sum, cells: new Map(), mult: new Map(), penalty: null, rows: {} };
  const rows = pl.rows.map((r) => ({ ...r, cells: [...r.cells] }));
  const slots = [];
  if (a.take === 'color') {
    const col = cols(view).indexOf(a.color);
    rows.forEach((r) => { if (col >= 0 && !r.cells[col]) slots.push([r, col]); });
  } else if (a.take === 'value') {
    const r = rows.find((x) => x.value === a.value);
    if (r) r.cells.forEach((c, i) => { if (!c) slots.push([r, i]); });
  }
  let whiteLeft = pl.whiteLeft;
  if (a.take === 'stars') {
    const byRow = {};
    for (const v of a.multipliers || []) byRow[v] = (byRow[v] || 0) + 1;
    for (const r of rows) {
      const k = byRow[r.value] || 0;
      for (let m = r.marked; m < r.marked + k; m++) fc.mult.set(`${r.value}:${m}`, true);
      r.marked += k;
    }
  } else if (slots.length < n) {
    fc.penalty = sum;
  } else {
    slots.slice(0, n).forEach(([r, i], j) => {
      const last = j === n - 1;
      fc.cells.set(`${r.value}:${i}`, last ? String(sum) : '✕');
      if (last) r.sum += sum;
      if (i < cols(view).length) whiteLeft--;
    });
  }
  let total = -((fc.penalty ?? 0) + (pl.penalized ? pl.penalty : 0));
  for (const r of rows) {
    const s = rowScore(r.sum, r.marked, r.multipliers);
    if (s !== r.score) fc.rows[r.value] = s;
    total += s;
  }
  fc.total = total;
  fc.gain = total - pl.total;
  fc.ends = !view.ending && (fc.penalty !== null || whiteLeft === 0);
  if (pl.solo && view.soloGroup) {
    const left = reserve.filter((_, i) => !dice.includes(i));
    let marks = 0;
    if (left.length) {
      const stars = left.filter((d) => d.star).length;
      const s = left.reduce((x, d) => x + d.face, 0) * (stars > 0 ? 2 : 1);
      marks = stars === left.length ? 1 : Math.ceil(s / view.soloGroup);
    }
    marks = Math.min(marks, pl.solo.cells - pl.solo.marked);
    fc.solo = { marks, after: pl.solo.marked + marks, cells: pl.solo.cells, lose: pl.solo.marked + marks >= pl.solo.cells };
  }
  return fc;
}

// The selection: what the player to act is looking at before playing it.
// It lives while the decision point does (same turn, phase and reserve).
const ui = {
  stamp: '',
  key: null, // actKey of the chosen take
  stars: [], // row values of the star placement being chosen
  placed: 0, // multiplier cells tapped since the stars were chosen
  die: -1, // the reserve die last tapped (offers its other group)
  seat: -3, // the table page's seat (for beforeUpdate)
  act: null,
  redraw: null,
  view: null,
  boardArgs: null,
  boardEl: null,
  panelArgs: null,
  panelEl: null,
  busy: false, // a move was sent; wait for the server
  hintStars: null, // the coach's star placement, while its hint shows
};

function stampOf(view) {
  return [view.turns, view.phase, view.current, (view.reserve || []).join(','), (view.legal || []).length].join('|');
}

function sync(view) {
  const s = stampOf(view);
  if (s !== ui.stamp) {
    ui.stamp = s;
    ui.key = null;
    ui.stars = [];
    ui.placed = 0;
    ui.die = -1;
    ui.busy = false;
  }
  ui.view = view;
}

function legalTakes(view) { return (view.legal || []).filter((a) => a.take); }

function starLegal(view, rows) {
  const want = [...rows].sort((x, y) => x - y).join(',');
  return legalTakes(view).some((a) => a.take === 'stars' && [...a.multipliers].sort((x, y) => x - y).join(',') === want);
}

// bestStars presets a star placement: the legal one scoring most now.
function bestStars(view) {
  let best = null;
  for (const a of legalTakes(view)) {
    if (a.take !== 'stars') continue;
    const fc = forecast(view, a);
    if (!best || fc.total > best.total) best = { total: fc.total, rows: [...a.multipliers] };
  }
  return best ? best.rows : [];
}

function selected(view) {
  if (!ui.key) return null;
  if (ui.key === 'stars') return { take: 'stars', multipliers: [...ui.stars].sort((x, y) => x - y) };
  return legalTakes(view).find((a) => actKey(a) === ui.key) || null;
}

function refresh() {
  if (ui.redraw) { ui.redraw(); return; }
  // Without the table page (a test page): redraw our own two parts.
  if (ui.boardEl?.isConnected && ui.boardArgs) {
    const el = renderBoard(...ui.boardArgs);
    ui.boardEl.replaceWith(el);
  }
  if (ui.panelEl?.isConnected && ui.panelArgs) {
    const el = renderActions(...ui.panelArgs);
    if (el) ui.panelEl.replaceWith(el);
  }
}

function commit(a) {
  if (!a || ui.busy || !ui.act) return;
  // A second send of the same move before the answer is refused: wait a
  // little (a refusal leaves the board as it is, so this cannot stick).
  ui.busy = true;
  setTimeout(() => { ui.busy = false; }, 1500);
  ui.kbd = !!document.activeElement?.closest?.('.ds-actions, .ds-reserve');
  ui.key = null;
  ui.act(a);
  refresh();
}

function cancel() {
  if (!ui.key) return;
  ui.key = null;
  ui.die = -1;
  refresh();
}

// choose shows the preview of a take, or plays it when it is the one
// already shown (the second tap) or when the player turned confirmations off.
function choose(view, key, opts = {}) {
  if (ui.busy) return;
  if (ui.key === key) { commit(selected(view)); return; }
  ui.key = key;
  ui.die = opts.die ?? -1;
  if (key === 'stars') {
    ui.stars = opts.stars || ui.hintStars || bestStars(view);
    ui.placed = 0;
  } else if (pref('confirm') === false) {
    commit(selected(view));
    return;
  }
  refresh();
}

// placeStar moves one star of the placement to the row of value v (the
// oldest star leaves); with confirmations off, placing every star plays.
function placeStar(view, v) {
  const k = (view.reserve || []).filter((s) => parseDie(s).star).length;
  const row = view.players[view.current].rows.find((r) => r.value === v);
  if (!row || row.marked >= row.multipliers) return;
  let next = ui.key === 'stars' ? [...ui.stars, v] : [v];
  if (ui.key !== 'stars') { ui.key = 'stars'; ui.placed = 0; next = [...(ui.hintStars || bestStars(view)).slice(1), v].slice(-k); }
  while (next.length > k) {
    const free = row.multipliers - row.marked;
    const inRow = next.filter((x) => x === v).length;
    next.splice(inRow > free ? next.indexOf(v) : 0, 1);
  }
  if (!starLegal(view, next)) return;
  ui.stars = next;
  ui.placed++;
  if (pref('confirm') === false && ui.placed >= k) { commit(selected(view)); return; }
  refresh();
}

// tapDie: a die stands for its colour and its number; the first tap shows
// the legal one of the two (colour first), a tap on a die of the shown
// choice plays it. A die with no legal choice asks the server, which says why.
function tapDie(view, i) {
  const d = parseDie(view.reserve[i]);
  const cur = selected(view);
  if (cur && takes(cur, d)) { commit(cur); return; }
  const keys = new Set(legalTakes(view).map(actKey));
  const mine = d.star ? ['stars', 'c' + d.color] : ['c' + d.color, 'v' + d.face];
  const key = mine.find((k) => keys.has(k));
  if (!key) { ui.act?.(d.star ? { take: 'color', color: d.color } : { take: 'value', value: d.face }); return; }
  choose(view, key, { die: i });
}

// tapCell: a cell of your own sheet chooses the take that would fill it.
function tapCell(view, target) {
  const ds = target.dataset;
  if (ds.mult) {
    if (ui.key === 'stars' && target.classList.contains('pv')) { commit(selected(view)); return; }
    placeStar(view, Number(ds.mult.split(':')[1]));
    return;
  }
  let want = null;
  if (ds.rowhead) want = 'v' + ds.rowhead;
  else if (ds.colhead) want = 'c' + ds.colhead;
  if (want) {
    if (legalTakes(view).some((a) => actKey(a) === want)) choose(view, want);
    return;
  }
  if (!ds.cell) return;
  const [, row, i] = ds.cell.split(':');
  const at = `${row}:${i}`;
  const cur = selected(view);
  if (cur && cur.take !== 'stars' && forecast(view, cur).cells.has(at)) { commit(cur); return; }
  const hit = legalTakes(view).filter((a) => a.take !== 'stars' && forecast(view, a).cells.has(at));
  if (hit.length) choose(view, actKey(hit[0]));
}

document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && ui.key) { e.preventDefault(); cancel(); }
});

// --- the board -------------------------------------------------------------------

// renderBoard draws everything public: reserve, bag, discard and every
// player's sheet, the seat's own first, large, right under the reserve.
// With canAct and act, the reserve dice and your sheet take taps.
export function renderBoard(view, opts = {}) {
  const mySeat = opts.seat ?? -3;
  const live = !!opts.act;
  if (live) {
    ui.seat = mySeat;
    ui.act = opts.act;
    ui.redraw = opts.redraw || null;
    ui.boardArgs = [view, opts];
    ui.hintStars = null; // highlightHint sets it again while the hint shows
  }
  sync(view);
  const myTake = live && opts.canAct && !view.over && view.phase === 'take' && view.current === mySeat && legalTakes(view).length > 0;
  const sel = myTake ? selected(view) : null;
  const fc = sel ? forecast(view, sel) : null;
  const seated = mySeat >= 0 && mySeat < (view.players || []).length;
  const board = h('div', { class: `ds-board${seated ? ' seated' : ''}${(view.players || []).length > 1 ? ' multi' : ''}` });

  board.append(trayEl(view, myTake, fc));
  const order = (view.players || []).map((_, i) => i);
  if (seated) {
    order.splice(mySeat, 1);
    board.append(h('div', { class: 'ds-mine' }, sheetEl(view, mySeat, mySeat, myTake ? fc : null, myTake)));
  }
  if (order.length) {
    board.append(h('div', { class: `ds-others${seated ? ' mini' : ''}` }, order.map((p) => sheetEl(view, p, mySeat, null, false))));
  }
  if (myTake) {
    board.addEventListener('click', (e) => {
      const el = e.target.closest('.sheet.mine [data-cell], .sheet.mine [data-mult], .sheet.mine [data-rowhead], .sheet.mine [data-colhead]');
      if (el) tapCell(view, el);
    });
  }
  if (live) ui.boardEl = board;
  drawn.set(board, view);
  return board;
}

// drawn: the view each board shows, for the marks drawn on it afterwards
// (highlightHint, renderReview).
const drawn = new WeakMap();

function trayEl(view, myTake, fc) {
  const reserve = view.reserve || [];
  const dice = reserve.map((s, i) => {
    if (!myTake) return dieEl(s);
    const d = parseDie(s);
    const picked = fc && fc.dice.includes(i);
    return h('button', {
      type: 'button', id: 'ds-die-' + i, 'data-die': s,
      class: `die die-${d.color}${d.star ? ' star' : ''}${picked ? ' picked' : ''}${fc && !picked ? ' dim' : ''}`,
      'aria-label': dieLabel(s), title: dieLabel(s), 'aria-pressed': String(!!picked),
      onclick: () => tapDie(view, i),
      onkeydown: (e) => arrowNav(e, '.ds-reserve .die'),
    }, dieParts(d));
  });
  return h('section', { class: 'ds-tray', 'aria-label': t('ds.reserve') },
    h('div', { class: 'ds-reserve' },
      h('h2', { class: 'tray-title' }, t('ds.reserve')),
      reserve.length
        ? h('div', { class: 'dice-row', 'data-testid': 'reserve', role: myTake ? 'group' : null, 'aria-label': myTake ? t('ds.reserve') : null }, dice)
        : h('p', { class: 'muted empty', 'data-testid': 'reserve' }, t('ds.reserve.empty'))),
    h('div', { class: 'ds-counts' },
      countBox(t('ds.bag'), view.bag, view.bagColors, 'bag'),
      countBox(t('ds.discard'), view.discard, view.discardColors, 'discard')),
    view.refillDue && !view.over ? h('p', { class: 'note tray-note' }, t('ds.refill')) : null,
    view.ending && !view.over ? h('p', { class: 'note warn tray-note' }, t('ds.ending')) : null);
}

function countBox(title, total, per, testid) {
  per = per || {};
  return h('div', { class: 'count-box', 'data-testid': testid },
    h('h3', null, title, ' ', h('span', { class: 'count-total' }, String(total), h('span', { class: 'count-word' }, ' ', t('ds.dice.word', { n: total })))),
    h('ul', { class: 'count-list' }, COLORS.map((c) => h('li', {
      'aria-label': t('ds.count', { color: colorName(c), n: per[c] ?? 0 }),
    }, colorChip(c), h('span', { 'aria-hidden': 'true' }, String(per[c] ?? 0))))));
}

function sheetEl(view, p, mySeat, fc, live) {
  const pl = view.players[p];
  const cs = cols(view);
  const rows = pl.rows || [];
  const greenMax = Math.max(0, ...rows.map((r) => r.cells.length - cs.length));
  const multMax = Math.max(0, ...rows.map((r) => r.multipliers));
  const current = !view.over && view.current === p;

  const head = h('tr', null,
    h('th', { scope: 'col', class: 'rowhead' }, h('span', { class: 'sr-only' }, t('ds.row'))),
    cs.map((c) => h('th', { scope: 'col', class: `colhead die-${c}`, title: colorName(c), 'data-colhead': live ? c : null },
      h('span', { 'aria-hidden': 'true' }, SHAPES[c]), h('span', { class: 'sr-only' }, colorName(c)))),
    greenMax ? h('th', { scope: 'colgroup', colspan: greenMax, class: 'greenhead' }, t('ds.green')) : null,
    multMax ? h('th', { scope: 'colgroup', colspan: multMax, class: 'multhead', title: t('ds.mult') },
      h('span', { 'aria-hidden': 'true' }, '★ ×2'), h('span', { class: 'sr-only' }, t('ds.mult'))) : null,
    h('th', { scope: 'col', class: 'sumhead', title: t('ds.sum') }, h('span', { 'aria-hidden': 'true' }, 'Σ'), h('span', { class: 'sr-only' }, t('ds.sum'))),
    h('th', { scope: 'col', class: 'scorehead', title: t('ds.score') }, h('span', { 'aria-hidden': 'true' }, '='), h('span', { class: 'sr-only' }, t('ds.score'))));

  const body = h('tbody');
  rows.forEach((r) => {
    const tr = h('tr', { 'data-row': r.value },
      h('th', { scope: 'row', class: 'rowhead', 'data-rowhead': live ? r.value : null }, h('span', { class: 'rowval' }, String(r.value))));
    for (let i = 0; i < r.cells.length + (greenMax - (r.cells.length - cs.length)); i++) {
      if (i >= r.cells.length) { tr.append(h('td', { class: 'cell none', 'aria-hidden': 'true' })); continue; }
      const green = i >= cs.length;
      const text = r.cells[i];
      const where = green ? t('ds.cell.green', { i: i - cs.length + 1 }) : colorName(cs[i]);
      const ghost = fc?.cells.get(`${r.value}:${i}`);
      tr.append(h('td', {
        class: `cell ${green ? 'green' : 'white col-' + cs[i]}${text ? ' filled' : ''}${text === 'X' ? ' x' : ''}${ghost ? ' pv' : ''}`,
        'data-cell': `${p}:${r.value}:${i}`, 'data-ghost': ghost || null,
        'aria-label': t('ds.cell.label', { row: r.value, where, content: text || (ghost ? t('ds.cell.would', { v: ghost === '✕' ? '✕' : ghost }) : t('ds.cell.empty')) }),
      }, text === 'X' ? '✕' : text));
    }
    for (let m = 0; m < multMax; m++) {
      if (m >= r.multipliers) { tr.append(h('td', { class: 'cell none', 'aria-hidden': 'true' })); continue; }
      const on = m < r.marked;
      const ghost = fc?.mult.has(`${r.value}:${m}`);
      tr.append(h('td', {
        class: `cell mult${on ? ' on' : ''}${ghost ? ' pv' : ''}`, 'data-mult': `${p}:${r.value}:${m}`, 'data-ghost': ghost ? '★' : null,
        'aria-label': t('ds.cell.mult', { i: m + 1, row: r.value, state: t(on ? 'ds.mult.marked' : ghost ? 'ds.mult.would' : 'ds.mult.free') }),
      }, on ? '★' : ''));
    }
    const partial = r.marked > 0 && r.marked < r.multipliers;
    const next = fc?.rows[r.value];
    tr.append(h('td', { class: 'sum' }, String(r.sum)));
    tr.append(h('td', {
      class: `score${partial ? ' zero' : ''}${r.marked === r.multipliers ? ' double' : ''}${next !== undefined ? ' pv' : ''}`,
      'data-ghost': next !== undefined ? String(next) : null,
    }, String(r.score)));
    body.append(tr);
  });

  const you = p === mySeat ? ` (${t('seat.you')})` : '';
  const penGhost = fc && fc.penalty !== null ? '−' + fc.penalty : null;
  const card = h('article', {
    class: `sheet${current ? ' current' : ''}${p === mySeat ? ' mine' : ''}${(view.winners || []).includes(pl.name) && view.over ? ' winner' : ''}${fc ? ' previewing' : ''}`,
    'data-seat': p, 'aria-label': t('ds.sheet.of', { name: pl.name }) + you,
  },
  h('header', { class: 'sheet-head' },
    h('h3', null, h('span', { class: 'pname' }, pl.name), you ? h('span', { class: 'you' }, you) : null),
    h('span', { class: `sheet-total${fc ? ' pv' : ''}`, 'data-ghost': fc ? String(fc.total) : null, 'aria-hidden': 'true' }, String(pl.total))),
  h('div', { class: 'table-scroll' },
    h('table', { class: 'ds-sheet' }, h('caption', { class: 'sr-only' }, t('ds.sheet.of', { name: pl.name })),
      h('thead', null, head), body)),
  h('footer', { class: 'sheet-foot' },
    h('span', { class: 'whiteleft' }, t('ds.white', { n: pl.whiteLeft })),
    h('span', { class: `penalty${pl.penalized ? ' on' : ''}${penGhost ? ' pv' : ''}`, 'data-ghost': penGhost }, t('ds.penaltycell'), ' ',
      h('span', { class: 'pen-val', 'data-testid': 'penalty' }, pl.penalized ? '−' + pl.penalty : '—')),
    h('span', { class: 'total-box' }, h('span', { class: 'total-label' }, t('ds.total')), ' ',
      h('span', { class: `total${fc ? ' pv' : ''}`, 'data-testid': 'total', 'data-ghost': fc ? String(fc.total) : null }, String(pl.total)))));

  if (pl.solo) {
    const s = pl.solo;
    const grid = h('div', { class: 'solo-grid', 'aria-hidden': 'true' });
    const upto = fc?.solo ? fc.solo.after : s.marked;
    for (let i = 0; i < s.cells; i++) grid.append(h('span', { class: 'solo-cell' + (i < s.marked ? ' on' : i < upto ? ' pv' : '') }));
    card.append(h('section', { class: 'solo', 'data-testid': 'solo' },
      h('h4', null, t('ds.solo'), ' ', h('span', { class: 'muted' }, t('ds.solo.count', { m: s.marked, c: s.cells, opp: s.opponent }))),
      grid));
  }
  return card;
}

// --- marks on a board drawn: the coach's hint, a reviewed decision ---------------

const sameAction = (a, b) => !!a && !!b && JSON.stringify(a) === JSON.stringify(b);

// isLegal tells whether the wire action a is one of the view's legal ones
// (a star placement with its rows).
function isLegal(view, a) {
  const rows = (x) => [...(x.multipliers || [])].sort((m, n) => m - n).join(',');
  return (view.legal || []).some((x) => actKey(x) === actKey(a) && (a.take !== 'stars' || rows(x) === rows(a)));
}

// takeTargets are the parts of the board drawn for view that the take a
// involves: the reserve dice it takes, then what it fills on the sheet of
// the player to act (its cells, its multipliers, or the penalty).
function takeTargets(board, view, a) {
  const dice = [...board.querySelectorAll('.ds-reserve .die')];
  const out = [];
  (view.reserve || []).forEach((s, i) => { if (takes(a, parseDie(s)) && dice[i]) out.push(dice[i]); });
  const fc = forecast(view, a);
  const sheet = board.querySelector(`.sheet[data-seat="${fc.seat}"]`);
  if (!sheet) return out;
  if (fc.penalty !== null) return [...out, sheet.querySelector('.penalty')].filter(Boolean);
  for (const k of fc.cells.keys()) out.push(sheet.querySelector(`[data-cell="${fc.seat}:${k}"]`));
  for (const k of fc.mult.keys()) out.push(sheet.querySelector(`[data-mult="${fc.seat}:${k}"]`));
  return out.filter(Boolean);
}

function boardIn(root) {
  const board = root?.classList?.contains('ds-board') ? root : root?.querySelector?.('.ds-board');
  const view = board ? drawn.get(board) : null;
  return view ? { board, view } : null;
}

// highlightHint marks the coach's choice (a wire action) on the live board
// (table.js calls it after each drawing while the hint shows): a draw on
// its button (and the box to put the reserve back, when it must change);
// a take on its choice, the dice it takes and the cells it would fill.
// A star placement chosen next starts from the coach's rows.
export function highlightHint(a, root) {
  const at = boardIn(root);
  if (!a || !at || at.view.over || !isLegal(at.view, a)) return;
  const { board, view } = at;
  const panel = ui.panelEl?.isConnected ? ui.panelEl : null;
  const mark = (el) => el?.classList.add('hinted');
  if (a.draw !== undefined) {
    for (const b of panel?.querySelectorAll('button.choice.draw') || []) {
      if (JSON.parse(b.dataset.action).draw === a.draw) mark(b);
    }
    const box = panel?.querySelector('#ds-return');
    if (box && box.checked !== !!a.returnReserve) mark(box.closest('.check'));
    return;
  }
  mark(panel?.querySelector(`.choice.take[data-key="${CSS.escape(actKey(a))}"]`));
  takeTargets(board, view, a).forEach(mark);
  if (a.take === 'stars' && board === ui.boardEl) ui.hintStars = [...a.multipliers];
}

// moveName names a move shown in a review.
function moveName(view, a) {
  if (a.draw !== undefined) return a.returnReserve ? t('ds.rv.drawback', { n: a.draw }) : t('ds.draw.n', { n: a.draw });
  return choiceName(view, a);
}

// renderReview marks a reviewed decision on the replay's board (its
// position when the player chose): the move played (dashed) and the best
// move (solid), on the dice taken and the cells filled, or on the bag for a
// draw, with a key that names both.
export function renderReview(data, root) {
  const at = boardIn(root);
  if (!at || !data?.best) return;
  const { board, view } = at;
  const best = data.best;
  const played = data.played && !sameAction(data.played, best) ? data.played : null;
  const marks = (a, cls) => {
    const els = a.draw !== undefined
      ? [board.querySelector('.count-box[data-testid=bag]'), ...(a.returnReserve ? board.querySelectorAll('.ds-reserve .die') : [])]
      : takeTargets(board, view, a);
    for (const el of els) el?.classList.add(cls);
  };
  if (played) marks(played, 'ds-rv-played');
  marks(best, 'ds-rv-best');
  const key = (cls, text) => h('span', { class: `ds-rv-key ${cls}` }, h('span', { class: 'ds-rv-swatch', 'aria-hidden': 'true' }), text);
  board.querySelector('.ds-review-key')?.remove();
  board.querySelector('.ds-tray')?.append(h('p', { class: 'ds-review-key', 'data-testid': 'ds-review-key' },
    played ? key('played', t('ds.rv.played', { what: moveName(view, played) })) : null,
    key('best', t(data.played ? (played ? 'ds.rv.best' : 'ds.rv.same') : 'ds.rv.best', { what: moveName(view, best) }))));
}

// arrowNav moves the focus along a row of buttons with the arrow keys.
function arrowNav(e, sel) {
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
  if (!step) return;
  const all = [...document.querySelectorAll(sel)];
  const i = all.indexOf(e.currentTarget);
  if (i < 0) return;
  e.preventDefault();
  all[(i + step + all.length) % all.length].focus();
}

// --- the controls ------------------------------------------------------------------

// Whether draws also return the reserve: the player's setting, kept while
// the page is open.
let returnReserve = false;

// renderActions draws the controls of the seat to act: the draw buttons,
// or the compact list of legal takes (the keyboard's way to play: Enter
// previews, Enter again plays) and the preview line with Confirm.
export function renderActions(view, send, opts = {}) {
  ui.act = send;
  if (opts.redraw) ui.redraw = opts.redraw;
  ui.panelArgs = [view, send, opts];
  sync(view);
  if (view.over) return null;
  const legal = view.legal || [];
  let panel;
  if (!legal.length) {
    const name = view.players?.[view.current]?.name || '';
    const title = view.phase === 'roll' ? t('ds.rolling') : t('ds.wait', { name });
    panel = h('section', { class: 'ds-actions waiting', 'aria-label': title },
      h('div', { class: 'ds-bar' }, h('h2', null, title)),
      h('p', { class: 'ds-preview muted' }, t('ds.wait.hint')));
  } else if (view.phase === 'draw') {
    panel = drawPanel(view, send, opts, legal);
  } else {
    panel = takePanel(view, legal);
  }
  ui.panelEl = panel;
  return panel;
}

function drawPanel(view, send, opts, legal) {
  const keys = new Set(legal.map(actKey));
  const canReturn = legal.some((a) => a.returnReserve);
  const ret = returnReserve && canReturn;
  const btn = (n) => {
    const action = ret ? { draw: n, returnReserve: true } : { draw: n };
    const ok = keys.has(actKey(action));
    return h('button', {
      type: 'button', class: `choice draw${ok ? ' legal' : ' illegal'}`,
      'data-action': JSON.stringify(action), 'data-legal': String(ok),
      'aria-describedby': ok ? null : 'ds-try-note',
      onclick: () => { ui.kbd = !!document.activeElement?.closest?.('.ds-actions'); send(action); },
      onkeydown: (e) => arrowNav(e, '.ds-actions .choice'),
    }, h('span', { class: 'pips', 'aria-hidden': 'true' }, '▣'.repeat(n)), t('ds.draw.n', { n }));
  };
  const box = canReturn ? h('input', {
    type: 'checkbox', id: 'ds-return', checked: !!ret,
    onchange: (e) => { returnReserve = e.target.checked; (opts.redraw || refresh)(); },
  }) : null;
  return h('section', { class: 'ds-actions', 'aria-label': t('ds.draw.title') },
    h('div', { class: 'ds-bar' },
      h('h2', null, t('ds.draw.title')),
      h('div', { class: 'choices', role: 'group', 'aria-label': t('ds.draw.title') }, [1, 2, 3].map(btn)),
      box ? h('p', { class: 'check' }, box, h('label', { for: 'ds-return' }, t('ds.draw.return'))) : null),
    h('p', { class: `ds-preview${view.mustDrawThree ? ' warn' : ' muted'}`, id: 'ds-try-note' },
      t(view.mustDrawThree ? 'ds.draw.three' : 'ds.draw.hint')));
}

// chipBody is a take's compact face: a small die (colour or number) and ×n.
function chipBody(view, a) {
  const reserve = (view.reserve || []).map(parseDie);
  const n = reserve.filter((d) => takes(a, d)).length;
  let face;
  if (a.take === 'color') face = colorChip(a.color);
  else if (a.take === 'value') face = h('span', { class: 'chip num', 'aria-hidden': 'true' }, String(a.value));
  else face = h('span', { class: 'chip starchip', 'aria-hidden': 'true' }, '★');
  return [face, h('span', { class: 'times', 'aria-hidden': 'true' }, '×' + n)];
}

// chipContent is chipBody with the choice in words for screen readers.
function chipContent(view, a) {
  return [h('span', { class: 'sr-only' }, choiceName(view, a)), chipBody(view, a)];
}

function choiceName(view, a) {
  const n = (view.reserve || []).map(parseDie).filter((d) => takes(a, d)).length;
  if (a.take === 'color') return t('ds.take.color', { color: colorWord(a.color, n), n });
  if (a.take === 'value') return t('ds.take.value', { v: a.value, n });
  return t('ds.take.stars', { n });
}

function takePanel(view, legal) {
  const takesList = [];
  const seen = new Set();
  for (const a of legal) {
    const k = actKey(a);
    if (seen.has(k)) continue;
    seen.add(k);
    takesList.push(a);
  }
  const chips = takesList.map((a) => {
    const k = actKey(a);
    const on = ui.key === k;
    return h('button', {
      type: 'button', id: 'ds-ch-' + k, class: `choice take${on ? ' on' : ''} legal`,
      'data-action': k === 'stars' ? '{"take":"stars"}' : JSON.stringify(a), 'data-legal': 'true', 'data-key': k,
      'aria-pressed': String(on), title: choiceName(view, a),
      onclick: () => choose(view, k),
      onkeydown: (e) => arrowNav(e, '.ds-actions .choice'),
    }, chipContent(view, a));
  });
  return h('section', { class: 'ds-actions', 'aria-label': t('ds.take.title') },
    h('div', { class: 'ds-bar' },
      h('h2', null, t(view.penaltyTurn ? 'ds.take.penalty' : 'ds.take.title')),
      h('div', { class: 'choices', role: 'group', 'aria-label': t('ds.take.title') }, chips)),
    previewEl(view));
}

// previewEl is the line under the choices: a hint, or what the chosen take
// does (dice, where they go, points, solo cost) with Cancel and Confirm.
function previewEl(view) {
  const a = selected(view);
  if (!a) {
    return h('div', { class: 'ds-preview', 'aria-live': 'polite' },
      h('p', { class: view.penaltyTurn ? 'warn' : 'muted' }, t(view.penaltyTurn ? 'ds.penalty' : 'ds.pv.hint')));
  }
  const fc = forecast(view, a);
  const bits = [];
  if (a.take === 'color') bits.push(t('ds.pv.color', { n: fc.n, sum: fc.sum, color: t('ds.colpl.' + a.color) }));
  else if (a.take === 'value') bits.push(t('ds.pv.value', { n: fc.n, sum: fc.sum, v: a.value }));
  else bits.push(t('ds.pv.stars', { n: fc.n, rows: [...new Set(a.multipliers)].join(', '), r: new Set(a.multipliers).size }));
  const what = h('p', { class: 'pv-what' },
    fc.penalty !== null ? h('strong', { class: 'warn' }, t('ds.pv.penalty', { sum: fc.penalty })) : bits[0], ' ',
    h('strong', { class: `pv-pts${fc.gain < 0 ? ' neg' : ''}`, 'data-testid': 'pv-points' },
      t('ds.pv.points', { d: signed(fc.gain), n: Math.abs(fc.gain) })),
    ' ', h('span', { class: 'muted' }, t('ds.pv.total', { total: fc.total })),
    fc.solo ? h('span', { class: `pv-solo${fc.solo.lose ? ' warn' : ''}`, 'data-testid': 'pv-solo' },
      ' · ', t(fc.solo.lose ? 'ds.pv.solo.lose' : 'ds.pv.solo', { m: fc.solo.marks, after: fc.solo.after, c: fc.solo.cells })) : null,
    fc.ends ? h('span', { class: 'warn' }, ' · ', t('ds.pv.ends')) : null);
  const extra = [];
  if (a.take === 'stars' && fc.n) {
    const me = view.players[view.current];
    ui.stars.forEach((v, i) => {
      const sel = h('select', {
        id: 'ds-star-' + i, 'aria-label': t('ds.stars.row', { i: i + 1 }),
        onchange: (e) => {
          const next = [...ui.stars];
          next[i] = Number(e.target.value);
          if (starLegal(view, next)) ui.stars = next;
          refresh();
        },
      }, me.rows.map((r) => h('option', { value: String(r.value), selected: r.value === v },
        t('ds.stars.rowopt', { v: r.value, free: r.multipliers - r.marked }))));
      extra.push(h('label', { class: 'star-pick', for: 'ds-star-' + i }, '★', sel));
    });
  } else if (ui.die >= 0 && view.reserve[ui.die]) {
    const d = parseDie(view.reserve[ui.die]);
    const keys = new Set(legalTakes(view).map(actKey));
    const other = d.star ? null : a.take === 'color' ? 'v' + d.face : 'c' + d.color;
    if (other && keys.has(other)) {
      const alt = legalTakes(view).find((x) => actKey(x) === other);
      extra.push(h('button', {
        type: 'button', class: 'alt', id: 'ds-alt', title: t('ds.pv.instead', { what: choiceName(view, alt) }),
        onclick: () => choose(view, other, { die: ui.die }),
      }, t('ds.pv.or'), ' ', chipContent(view, alt)));
    }
  }
  return h('div', { class: 'ds-preview on', 'aria-live': 'polite', 'data-testid': 'preview' },
    what,
    h('div', { class: 'pv-buttons' }, extra,
      h('button', { type: 'button', id: 'ds-cancel', class: 'cancel', onclick: cancel }, t('ds.cancel')),
      h('button', { type: 'button', id: 'ds-confirm', class: 'primary confirm', 'data-testid': 'confirm', onclick: () => commit(selected(view)) }, '✓ ', t('ds.confirm'))));
}

// --- words ---------------------------------------------------------------------------

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
  return winnersText(w, best);
}

// renderResult is the end screen's breakdown: each row's score, what the
// green bonus cells and the stars brought, the penalty and the total, a
// column per player (the solo opponent too).
export function renderResult(view, seat) {
  const ps = view.players || [];
  if (!ps.length) return null;
  const cs = cols(view).length;
  const head = h('tr', null, h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, t('ds.res.what'))),
    ps.map((p, i) => h('th', { scope: 'col', class: i === seat ? 'me' : null }, p.name)),
    ps[0].solo ? h('th', { scope: 'col' }, t('ds.solo')) : null);
  const line = (label, cells, cls = '', opp = '') => h('tr', { class: cls }, h('th', { scope: 'row' }, label),
    cells.map((c) => h('td', null, c)), ps[0].solo ? h('td', null, opp) : null);
  const body = h('tbody');
  (ps[0].rows || []).forEach((r0, ri) => {
    body.append(line(t('ds.res.row', { v: r0.value }), ps.map((p) => {
      const r = p.rows[ri];
      const note = r.marked === r.multipliers ? ' (×2)' : r.marked > 0 ? ' (★ 0)' : '';
      return String(r.score) + note;
    })));
  });
  const bonus = (p) => p.rows.reduce((x, r) => x + r.cells.slice(cs).reduce((y, c) => y + (Number(c) || 0), 0), 0);
  const stars = (p) => p.rows.reduce((x, r) => x + (r.score - r.sum), 0);
  body.append(line(t('ds.res.bonus'), ps.map((p) => String(bonus(p))), 'sub'));
  body.append(line(t('ds.res.stars'), ps.map((p) => signed(stars(p))), 'sub'));
  body.append(line(t('ds.penaltycell'), ps.map((p) => (p.penalized ? '−' + p.penalty : '—'))));
  const solo = ps[0].solo;
  body.append(line(t('ds.total'), ps.map((p) => String(p.total)), 'total',
    solo ? t('ds.res.opp', { m: solo.marked, pts: view.soloPoints || 5, opp: solo.opponent }) : ''));
  return h('section', { class: 'ds-result', 'aria-label': t('ds.res.title'), 'data-testid': 'ds-result' },
    h('h3', null, t('ds.res.title')),
    h('div', { class: 'table-scroll', tabindex: 0 }, h('table', null, h('thead', null, head), body)),
    h('p', { class: 'muted small' }, t('ds.res.note')));
}

// --- motion ----------------------------------------------------------------------------

// targetsOf finds, on the board about to be replaced, the cells a take event
// fills: written cells, multipliers about to be marked, or the penalty.
function targetsOf(root, ev) {
  const seat = ev.seat;
  const out = [];
  for (const c of ev.data.cells || []) {
    const el = root.querySelector(`[data-cell="${seat}:${c.row}:${c.cell}"]`);
    if (el) out.push([el, c.text === 'X' ? '✕' : c.text]);
  }
  const counts = {};
  for (const r of ev.data.multipliers || []) counts[r] = (counts[r] || 0) + 1;
  for (const [r, n] of Object.entries(counts)) {
    for (const el of [...root.querySelectorAll(`[data-mult^="${seat}:${r}:"]:not(.on)`)].slice(0, n)) out.push([el, '★']);
  }
  if (ev.data.penalty) {
    const el = root.querySelector(`[data-seat="${seat}"] .penalty`);
    if (el) out.push([el, '−' + ev.data.sum]);
  }
  return out;
}

// fly sends copies of the taken dice from the reserve to their cells.
async function fly(dice, targets) {
  if (!dice.length || !targets.length || reducedMotion()) return;
  const runs = dice.map((el, i) => {
    const from = el.getBoundingClientRect();
    const to = targets[Math.min(i, targets.length - 1)][0].getBoundingClientRect();
    const ghost = el.cloneNode(true);
    ghost.removeAttribute('id');
    ghost.setAttribute('aria-hidden', 'true');
    ghost.classList.add('flying');
    ghost.classList.remove('picked', 'dim', 'lift');
    ghost.style.setProperty('left', from.left + 'px');
    ghost.style.setProperty('top', from.top + 'px');
    document.body.append(ghost);
    el.classList.add('gone');
    const dx = to.left + to.width / 2 - (from.left + from.width / 2);
    const dy = to.top + to.height / 2 - (from.top + from.height / 2);
    const anim = ghost.animate([
      { transform: 'translate(0, 0) rotate(0) scale(1)', opacity: 1 },
      { transform: `translate(${dx * 0.5}px, ${dy * 0.5 - 40}px) rotate(90deg) scale(.9)`, opacity: 1, offset: 0.5 },
      { transform: `translate(${dx}px, ${dy}px) rotate(180deg) scale(.45)`, opacity: 0.2 },
    ], { duration: 520, delay: i * 70, easing: 'cubic-bezier(.45,0,.35,1)', fill: 'forwards' });
    return anim.finished.catch(() => {}).finally(() => ghost.remove());
  });
  await Promise.all(runs);
}

// beforeUpdate runs on the old board. Another player's take (a bot's
// above all) is shown before it lands: their dice lift, the cells they will
// fill light up with what gets written, a pause to follow it; then the
// dice fly to the sheet. Catching up (fast) shows nothing.
export async function beforeUpdate(root, events, fast) {
  const take = (events || []).find((e) => e.kind === 'take');
  if (!take || fast || !root) return;
  const left = [...root.querySelectorAll('.ds-reserve .die')];
  const dice = [];
  for (const s of take.data.dice || []) {
    const el = left.find((x) => x.dataset.die === s && !dice.includes(x));
    if (el) dice.push(el);
  }
  const targets = targetsOf(root, take);
  const other = take.seat !== ui.seat;
  if (other) {
    for (const el of dice) el.classList.add('lift');
    for (const [el, text] of targets) { el.classList.add('pv', 'theirs'); el.dataset.ghost = text; }
    root.querySelector(`[data-seat="${take.seat}"]`)?.classList.add('acting');
    await sleep(pace(900));
  }
  await fly(dice, targets);
}

// afterUpdate runs on the new board: rolled dice tumble in, cells light up.
export function afterUpdate(root, events, fast) {
  // Keyboard play: the focus left with the choices it was on; give it to
  // the first choice of the new step.
  if (ui.kbd && (!document.activeElement || document.activeElement === document.body)) {
    const first = document.querySelector('.ds-actions .choice.legal');
    if (first) first.focus();
  }
  if (fast || reducedMotion()) return;
  for (const ev of events || []) {
    if (ev.kind === 'roll') {
      const dice = [...root.querySelectorAll('.ds-reserve .die')].reverse();
      (ev.data.dice || []).forEach((s, i) => {
        const el = dice.find((x) => x.dataset.die === s && !x.classList.contains('rolling'));
        if (el) { el.classList.add('rolling'); el.style.setProperty('--roll-delay', i * 90 + 'ms'); }
      });
    }
    if (ev.kind === 'take') {
      for (const c of ev.data.cells || []) {
        const el = root.querySelector(`[data-cell="${ev.seat}:${c.row}:${c.cell}"]`);
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
