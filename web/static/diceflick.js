// Diceflick in the browser. The board is the stage: the box seen from
// above on a canvas (walls, trench, the 5 × 5 insert, markers, dice with
// pips and a little depth, the four bases) next to the turn panel and the
// notepad. On your turn you flick by dragging on the arena (press near a
// base to pick it, or anywhere to use the chosen one; pull back and
// release: the die goes the other way) or with the sliders and Enter; while
// scoring you tap groups, dice and blast dice on the arena to choose what
// to score, the best choice preselected and the points shown live. Other
// players' turns are paced: their aim, the flight, the scoring held on the
// board, the scored dice going back to the bag.
//
// The same exports as the other renderers (table.js and replay.js rely on
// them). renderActions returns null: the board has the controls, so the
// panel never vanishes and the page never jumps. renderReview draws a
// reviewed flick (where it was aimed, where it landed, the best aim) on the
// replay's arena; highlightHint puts the coach's flick in the aim.

import { h, svg, reducedMotion, sleep } from '/static/dom.js';
import { t, winnersText } from '/static/i18n.js';
import { pace } from '/static/prefs.js';
import '/static/diceflick.messages.js';
import { api } from '/static/api.js';

export const id = 'diceflick';

// --- the arena's dimensions ------------------------------------------------------
// The view does not carry the arena's dimensions: these are
// physics.DefaultArena (games/diceflick/physics/arena.go), in millimetres,
// origin at the box's centre, x east, y north. Keep them in step with it.
export const ARENA = Object.freeze({
  box: 250, // BoxSize
  trench: 30, // TrenchWidth (the insert is box - 2·trench square)
  pitch: 38, // HolePitch
  holeRadius: 10, // HoleRadius
  die: 16, // DieSize
  baseInset: 12, // BaseInset: the launch point's distance from its wall
  baseTravel: 80, // BaseTravel: how far a base slides at offset ±1 (children's variant)
  minSpeed: 300, // MinSpeed, mm/s at power 0
  maxSpeed: 2600, // MaxSpeed, mm/s at power 1
  rollDecel: 3400, // RollDecel, mm/s²
  tumbleDrag: 1.5, // TumbleDrag, 1/s
  maxAngle: 75 * Math.PI / 180, // MaxAngle
  pathStepMillis: 20, // PathStepMillis
  rows: 5,
  cols: 5,
});

// The canvas shows the box and its walls with a thin margin, at a fixed
// resolution; CSS scales it to the stage.
export const EXTENT = 272; // mm shown across
const WALL = 7; // mm of wall drawn around the box
const RES = 3; // canvas pixels per mm
const DRAG_FULL = 110; // mm of pull for full power
const DRAG_MIN = 7; // mm: a shorter gesture is a tap
const MIN_DIE_PX = 30; // dice are drawn at least this big on screen (CSS px)

const COLORS = ['white', 'blue', 'yellow', 'green', 'pink'];
const GROUP_COLORS = ['blue', 'yellow', 'green', 'pink'];
// A letter per colour, so dice are told apart without colour.
const LETTER = { white: 'W', blue: 'B', yellow: 'Y', green: 'G', pink: '✸' };

// --- geometry ---------------------------------------------------------------------

function normalOf(b) { return [[0, 1], [1, 0], [0, -1], [-1, 0]][b]; }
function leftOf(b) { return [[-1, 0], [0, 1], [1, 0], [0, -1]][b]; }

// basePoint is where a die flicked from base b (slid by offset) starts.
export function basePoint(b, offset = 0) {
  const [nx, ny] = normalOf(b);
  const [lx, ly] = leftOf(b);
  const d = ARENA.box / 2 - ARENA.baseInset;
  const s = offset * ARENA.baseTravel;
  return { x: -nx * d + lx * s, y: -ny * d + ly * s };
}

export function holeCentre(row, col) {
  return { x: (col - (ARENA.cols >> 1)) * ARENA.pitch, y: ((ARENA.rows >> 1) - row) * ARENA.pitch };
}

const N = ARENA.rows * ARENA.cols;
const holeName = (i) => `${Math.floor(i / ARENA.cols)},${i % ARENA.cols}`;
function holeIndex(s) {
  const [r, c] = String(s).split(',').map(Number);
  return r * ARENA.cols + c;
}
const centreOf = (i) => holeCentre(Math.floor(i / ARENA.cols), i % ARENA.cols);

const px = (mm) => mm * RES;
const cx = (x) => (x + EXTENT / 2) * RES;
const cy = (y) => (EXTENT / 2 - y) * RES;

// flickFromDrag turns a pull (from the press to the pointer, in mm) at base
// b into angle and power: the die goes the opposite way of the pull.
export function flickFromDrag(b, dx, dy) {
  const [nx, ny] = normalOf(b);
  const fx = -dx; const fy = -dy;
  const len = Math.hypot(fx, fy);
  let angle = Math.atan2(nx * fy - ny * fx, nx * fx + ny * fy);
  angle = Math.max(-ARENA.maxAngle, Math.min(ARENA.maxAngle, angle));
  return { angle, power: Math.min(1, len / DRAG_FULL), len };
}

// reach estimates how far a die launched with power slides on the felt,
// ignoring bounces (the same deceleration as the physics: RollDecel plus
// TumbleDrag·speed).
export function reach(power) {
  const v = ARENA.minSpeed + (ARENA.maxSpeed - ARENA.minSpeed) * power;
  const a = ARENA.rollDecel; const k = ARENA.tumbleDrag;
  return v / k - (a / (k * k)) * Math.log(1 + (k * v) / a);
}

function direction(b, angle) {
  const [nx, ny] = normalOf(b);
  const c = Math.cos(angle); const s = Math.sin(angle);
  return { x: nx * c - ny * s, y: nx * s + ny * c };
}

// --- the view, read ----------------------------------------------------------------

function parseDie(s) {
  if (!s) return null;
  const [color, face] = String(s).split(':');
  return { color, face: face === 'blast' ? 'blast' : Number(face) };
}

// boardOf is the scoring picture of a view: per hole its die, its
// uncovered colour marker and its points; the centre hole.
function boardOf(view) {
  const dice = []; const marker = []; const value = [];
  for (let i = 0; i < N; i++) {
    const r = Math.floor(i / ARENA.cols); const c = i % ARENA.cols;
    dice.push(parseDie(view.arena?.[r]?.[c]));
    marker.push(null);
    value.push(Number(view.values?.[r]?.[c] || 0));
  }
  let centre = -1;
  for (const m of view.markers || []) {
    const i = holeIndex(m.hole);
    if (m.kind === 'centre') centre = i;
    else if (COLORS.includes(m.kind) && m.uncovered && !dice[i]) marker[i] = m.kind;
  }
  return { dice, marker, value, centre };
}

const isItem = (b, i) => !!(b.dice[i] || b.marker[i]);
const itemColor = (b, i) => b.dice[i]?.color || b.marker[i] || '';

function neighbours(i) {
  const r = Math.floor(i / ARENA.cols); const c = i % ARENA.cols; const out = [];
  if (r > 0) out.push(i - ARENA.cols);
  if (r < ARENA.rows - 1) out.push(i + ARENA.cols);
  if (c > 0) out.push(i - 1);
  if (c < ARENA.cols - 1) out.push(i + 1);
  return out;
}

// components splits a set of holes into its connected parts.
function components(set) {
  const seen = new Set(); const out = [];
  for (const s of [...set].sort((a, b) => a - b)) {
    if (seen.has(s)) continue;
    const comp = []; const stack = [s]; seen.add(s);
    while (stack.length) {
      const i = stack.pop();
      comp.push(i);
      for (const n of neighbours(i)) if (set.has(n) && !seen.has(n)) { seen.add(n); stack.push(n); }
    }
    out.push(comp.sort((a, b) => a - b));
  }
  return out;
}

// --- the scoring choice --------------------------------------------------------------
// What a player chooses is kept as: the colour each white die (a joker)
// joins, the holes left out of every group, and each blast die's line. The
// groups follow: every connected set of 3+ holes of one colour (jokers
// included) that is not left out. That covers every legal choice that
// matters, and the best choice is one of them.

const pick = { key: '', assign: new Map(), off: new Set(), blast: new Map(), best: 0 };

function pickKey(view) {
  return `${view.round}:${view.current}:${view.phase}:${JSON.stringify(view.arena)}`;
}

function resetPick(view) {
  const b = boardOf(view);
  pick.key = pickKey(view);
  pick.assign = new Map(); pick.off = new Set(); pick.blast = new Map();
  const ch = view.best?.choice || {};
  for (const g of ch.groups || []) {
    const hs = g.map(holeIndex);
    const color = hs.map((i) => itemColor(b, i)).find((c) => c && c !== 'white') || 'blue';
    for (const i of hs) if (b.dice[i]?.color === 'white') pick.assign.set(i, color);
  }
  for (const bl of ch.blasts || []) pick.blast.set(holeIndex(bl.at), bl.line);
  pick.best = view.best?.total ?? 0;
}

function ensurePick(view) {
  if (pick.key !== pickKey(view)) resetPick(view);
}

// scoring works out the groups, the centre, the lines, the holes scored
// and the total of the current pick (the same counting as the rules).
function scoring(view, p = pick, ignoreOff = false) {
  const b = boardOf(view);
  const groups = [];
  const scored = new Set();
  for (const color of GROUP_COLORS) {
    const el = new Set();
    for (let i = 0; i < N; i++) {
      if (!ignoreOff && p.off.has(i)) continue;
      const c = itemColor(b, i);
      if (c === color || (c === 'white' && color !== 'pink' && p.assign.get(i) === color)) el.add(i);
    }
    for (const comp of components(el)) {
      if (comp.length < 3) continue;
      groups.push({ color, holes: comp, points: comp.reduce((s, i) => s + b.value[i], 0) });
      comp.forEach((i) => scored.add(i));
    }
  }
  const centre = b.centre >= 0 && !!b.dice[b.centre] && !scored.has(b.centre) && (ignoreOff || !p.off.has(b.centre));
  if (centre) scored.add(b.centre);
  const blasts = [];
  const lines = [];
  for (let i = 0; i < N; i++) {
    if (b.dice[i]?.color !== 'pink') continue;
    const line = p.blast.get(i) || '';
    if (!line) continue;
    blasts.push({ at: holeName(i), line });
    const r = Math.floor(i / ARENA.cols); const c = i % ARENA.cols;
    const holes = [];
    for (let k = 0; k < ARENA.cols; k++) {
      const j = line === 'row' ? r * ARENA.cols + k : k * ARENA.cols + c;
      if (isItem(b, j)) holes.push(j);
    }
    const fresh = holes.filter((j) => !scored.has(j));
    fresh.forEach((j) => scored.add(j));
    lines.push({ at: i, line, holes, points: fresh.reduce((s, j) => s + b.value[j], 0) });
  }
  const total = [...scored].reduce((s, i) => s + b.value[i], 0);
  const choice = { groups: groups.map((g) => g.holes.map(holeName)) };
  if (centre) choice.centre = true;
  if (blasts.length) choice.blasts = blasts;
  return { board: b, groups, centre, centrePoints: centre ? b.value[b.centre] : 0, lines, scored, total, choice };
}

// jokerOptions lists the colours a white die could join to some effect.
function jokerOptions(b, i) {
  const out = [];
  for (const color of ['blue', 'yellow', 'green']) {
    if (neighbours(i).some((n) => itemColor(b, n) === color || (b.dice[n]?.color === 'white' && pick.assign.get(n) === color))) out.push(color);
  }
  return out;
}

// tapHole changes the pick as a tap on hole i asks; false if nothing there
// can change.
function tapHole(view, i) {
  const b = boardOf(view);
  const die = b.dice[i];
  if (die?.color === 'pink') {
    const order = ['row', 'column', ''];
    pick.blast.set(i, order[(order.indexOf(pick.blast.get(i) || '') + 1) % order.length]);
    return true;
  }
  if (die?.color === 'white') {
    const order = [...jokerOptions(b, i), ''];
    const cur = pick.assign.get(i) || '';
    pick.assign.set(i, order[(order.indexOf(cur) + 1) % order.length]);
    pick.off.delete(i);
    return true;
  }
  if (!isItem(b, i)) return false;
  if (pick.off.has(i)) pick.off.delete(i); else pick.off.add(i);
  return true;
}

// --- module state ------------------------------------------------------------------
// The live board (not the replay's or the rules page's) keeps its canvas
// and the table's callbacks here.
const live = {
  canvas: null, view: null, seat: -3, act: null, canAct: false, sentView: null, side: null,
  options: null, optionsAsked: false, drag: null, lastFlick: null,
  show: null, // another player's move being shown: {aim} or {score}
  autoZero: { key: '', timer: 0 },
};
const aim = { key: '', die: 0, base: 0, angle: 0, power: 0.3, offset: 0 };
const views = new WeakMap(); // canvas → the view it shows

function tableOptions() {
  if (live.optionsAsked) return live.options;
  live.optionsAsked = true;
  const m = location.pathname.match(/^\/t\/([^/]+)/);
  if (m) {
    api.table(decodeURIComponent(m[1])).then((s) => {
      let o = s && s.options;
      if (typeof o === 'string') { try { o = JSON.parse(o); } catch { o = null; } }
      live.options = o || {};
      if (live.options.shiftBases) refreshSide();
    }, () => { live.options = {}; });
  }
  return live.options;
}

function legalKinds(view) {
  const legal = view.legal || [];
  return { flick: legal.some((a) => a && a.flick), score: legal.some((a) => a && a.score) };
}

// mine tells whether the live board's seat is the one on turn (and may act).
function mine(view) { return live.canAct && view.current === live.seat && !view.over; }

// --- colours -----------------------------------------------------------------------
// The canvas takes its colours from the stylesheet's custom properties, so
// dark mode and the page agree.

const FALLBACK = {
  '--df-table': '#efe8da', '--df-wood': '#7a5230', '--df-wood-dark': '#4e331c', '--df-trench': '#2c5a47',
  '--df-felt': '#3f8a67', '--df-hole': '#183628', '--df-base': '#d8c59c', '--df-base-on': '#ffd35c',
  '--df-ink-on-felt': '#fff3c4', '--df-pick': '#ffc400', '--df-blast': '#ff7ab8',
  '--df-white': '#f7f5ef', '--df-blue': '#2f6fd6', '--df-yellow': '#f2c230', '--df-green': '#3aa655', '--df-pink': '#e8559a',
};

// palette resolves the custom properties (some are color-mix()es of the
// page's colours) through a hidden probe next to the canvas: the canvas
// gets plain rgb() colours.
// toRGB turns any colour the browser computes (rgb(), oklab(), color())
// into rgb(), by painting it: the drawing code shades rgb() colours.
let pixel = null;
function toRGB(color) {
  if (!color) return '';
  if (/^rgb\(/.test(color)) return color;
  pixel ??= document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  if (!pixel) return color;
  pixel.clearRect(0, 0, 1, 1);
  pixel.fillStyle = '#000';
  pixel.fillStyle = color;
  pixel.fillRect(0, 0, 1, 1);
  const [r, g, b] = pixel.getImageData(0, 0, 1, 1).data;
  return `rgb(${r}, ${g}, ${b})`;
}

const palettes = new WeakMap(); // canvas → {gen, colours}
let paletteGen = 0;
if (window.matchMedia) window.matchMedia('(prefers-color-scheme: dark)').addEventListener?.('change', () => { paletteGen++; });

function palette(canvas) {
  const cached = palettes.get(canvas);
  if (cached && cached.gen === paletteGen) return cached.colours;
  const out = {};
  const host = canvas.isConnected ? canvas.parentNode : null;
  let probe = host && host.querySelector(':scope > .df-probe');
  if (host && !probe) { probe = h('span', { class: 'df-probe', 'aria-hidden': 'true' }); host.append(probe); }
  for (const [k, v] of Object.entries(FALLBACK)) {
    let c = '';
    if (probe) {
      probe.style.setProperty('color', `var(${k}, ${v})`);
      c = toRGB(getComputedStyle(probe).color);
    }
    out[k.slice(5)] = c || v;
  }
  if (host) palettes.set(canvas, { gen: paletteGen, colours: out });
  return out;
}

const INK = { white: '#2b2b2b', blue: '#fff', yellow: '#2b2b2b', green: '#fff', pink: '#fff' };

// --- drawing -----------------------------------------------------------------------------

function roundRect(ctx, x, y, w, hh, r) {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + hh, r);
  ctx.arcTo(x + w, y + hh, x, y + hh, r);
  ctx.arcTo(x, y + hh, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

const PIPS = {
  1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

// dieMM is the size dice are drawn at on this canvas: to scale when the
// arena is big, bigger on a small screen so they stay readable.
function dieMM(canvas) {
  const w = canvas.getBoundingClientRect().width || 600;
  return Math.min(ARENA.pitch - 8, Math.max(ARENA.die + 2, MIN_DIE_PX * EXTENT / w));
}

// shade darkens (f < 1) or lightens a colour given as #rrggbb or rgb().
function shade(color, f) {
  let rgb = null;
  const hex = /^#([0-9a-f]{6})$/i.exec(color);
  if (hex) { const n = parseInt(hex[1], 16); rgb = [(n >> 16) & 255, (n >> 8) & 255, n & 255]; }
  const fn = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)/.exec(color);
  if (fn) rgb = [Number(fn[1]), Number(fn[2]), Number(fn[3])];
  if (!rgb) return color;
  const [r, g, b] = rgb.map((v) => Math.max(0, Math.min(255, Math.round(v * f))));
  return `rgb(${r},${g},${b})`;
}

// drawDie draws a die seen from above at (x, y) mm: its side below for
// depth, the top face with a soft light, pips (a blast die: a star burst),
// and its colour letter below it.
function drawDie(ctx, pal, color, face, x, y, s, o = {}) {
  const S = px(s) * (o.scale || 1);
  const X = cx(x); const Y = cy(y);
  const fill = pal[color] || '#999';
  const r = S * 0.2;
  ctx.save();
  if (o.alpha !== undefined) ctx.globalAlpha = o.alpha;
  ctx.shadowColor = 'rgba(0,0,0,.45)';
  ctx.shadowBlur = S * 0.12;
  ctx.shadowOffsetY = S * 0.06;
  roundRect(ctx, X - S / 2, Y - S / 2 + S * 0.07, S, S, r);
  ctx.fillStyle = shade(fill, 0.62);
  ctx.fill();
  ctx.restore();
  ctx.save();
  if (o.alpha !== undefined) ctx.globalAlpha = o.alpha;
  const g = ctx.createLinearGradient(X - S / 2, Y - S / 2, X + S / 2, Y + S / 2);
  g.addColorStop(0, shade(fill, 1.12));
  g.addColorStop(1, shade(fill, 0.9));
  roundRect(ctx, X - S / 2, Y - S / 2, S, S, r);
  ctx.fillStyle = g;
  ctx.fill();
  ctx.lineWidth = Math.max(1.5, S * 0.03);
  ctx.strokeStyle = color === 'white' ? '#8a857a' : 'rgba(0,0,0,.35)';
  ctx.stroke();
  ctx.fillStyle = INK[color] || '#000';
  if (color === 'pink' || face === 'blast') {
    ctx.font = `bold ${Math.round(S * 0.78)}px sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText('✸', X, Y + S * 0.04);
  } else if (PIPS[face]) {
    const pr = S * 0.09;
    for (const [u, v] of PIPS[face]) {
      ctx.beginPath();
      ctx.arc(X + u * S * 0.26, Y + v * S * 0.26, pr, 0, Math.PI * 2);
      ctx.fill();
    }
  } else {
    ctx.font = `bold ${Math.round(S * 0.5)}px sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(LETTER[color] || '?', X, Y + S * 0.03);
  }
  if (o.letter && color !== 'pink' && PIPS[face]) {
    // The colour's letter in a corner tab, for people who do not tell
    // the colours apart.
    const ts = S * 0.34;
    roundRect(ctx, X + S / 2 - ts * 0.75, Y + S / 2 - ts * 0.75, ts, ts, ts * 0.25);
    ctx.fillStyle = 'rgba(20,20,20,.78)';
    ctx.fill();
    ctx.fillStyle = '#fff';
    ctx.font = `bold ${Math.round(ts * 0.78)}px sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(LETTER[color], X + S / 2 - ts * 0.25, Y + S / 2 - ts * 0.22);
  }
  ctx.restore();
}

function drawArena(ctx, canvas, view, o = {}) {
  const pal = palette(canvas);
  const W = px(EXTENT);
  const half = ARENA.box / 2;
  const ins = half - ARENA.trench;
  ctx.clearRect(0, 0, W, W);
  ctx.fillStyle = pal.table;
  ctx.fillRect(0, 0, W, W);
  // The box: wooden walls with a bevel, the trench, the insert.
  roundRect(ctx, cx(-half - WALL), cy(half + WALL), px(ARENA.box + 2 * WALL), px(ARENA.box + 2 * WALL), px(4));
  ctx.fillStyle = pal.wood;
  ctx.fill();
  ctx.lineWidth = px(1.2);
  ctx.strokeStyle = pal['wood-dark'];
  ctx.stroke();
  ctx.fillStyle = pal.trench;
  ctx.fillRect(cx(-half), cy(half), px(ARENA.box), px(ARENA.box));
  ctx.save();
  ctx.shadowColor = 'rgba(0,0,0,.5)';
  ctx.shadowBlur = px(3);
  ctx.shadowOffsetY = px(1);
  ctx.fillStyle = pal.felt;
  ctx.fillRect(cx(-ins), cy(ins), px(2 * ins), px(2 * ins));
  ctx.restore();
  ctx.strokeStyle = 'rgba(0,0,0,.35)';
  ctx.lineWidth = px(0.6);
  ctx.strokeRect(cx(-ins), cy(ins), px(2 * ins), px(2 * ins));
  // Bases.
  const sel = o.base ?? -1;
  for (let b = 0; b < 4; b++) {
    const p = basePoint(b, b === sel ? (o.offset || 0) : 0);
    const [nx] = normalOf(b);
    const along = 40; const across = 20;
    const w = nx === 0 ? along : across; const hh = nx === 0 ? across : along;
    roundRect(ctx, cx(p.x - w / 2), cy(p.y + hh / 2), px(w), px(hh), px(4));
    ctx.fillStyle = b === sel ? pal['base-on'] : pal.base;
    ctx.fill();
    ctx.strokeStyle = b === sel ? '#7a4e00' : 'rgba(60,40,10,.6)';
    ctx.lineWidth = b === sel ? px(1.2) : px(0.6);
    ctx.stroke();
    if (!o.launch || o.launch.base !== b) {
      ctx.fillStyle = '#3b2e17';
      ctx.font = `bold ${Math.round(px(9))}px sans-serif`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(t('df.base.short.' + b), cx(p.x), cy(p.y));
    }
  }
  // Holes and the markers printed in them.
  const markers = new Map((view.markers || []).map((m) => [m.hole, m]));
  const arena = view.arena || [];
  for (let r = 0; r < ARENA.rows; r++) {
    for (let c = 0; c < ARENA.cols; c++) {
      const p = holeCentre(r, c);
      ctx.beginPath();
      ctx.arc(cx(p.x), cy(p.y), px(ARENA.holeRadius), 0, Math.PI * 2);
      const g = ctx.createRadialGradient(cx(p.x), cy(p.y - 3), px(2), cx(p.x), cy(p.y), px(ARENA.holeRadius));
      g.addColorStop(0, '#0b1d15');
      g.addColorStop(1, pal.hole);
      ctx.fillStyle = g;
      ctx.fill();
      const m = markers.get(`${r},${c}`);
      if (m && !parseDie(arena[r]?.[c])) drawMarker(ctx, pal, m, p);
    }
  }
  return pal;
}

function drawMarker(ctx, pal, m, p) {
  const X = cx(p.x); const Y = cy(p.y);
  ctx.save();
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  if (m.kind === 'centre') {
    ctx.strokeStyle = pal['ink-on-felt'];
    ctx.lineWidth = px(1);
    ctx.beginPath();
    ctx.arc(X, Y, px(ARENA.holeRadius - 1.5), 0, Math.PI * 2);
    ctx.stroke();
    ctx.fillStyle = pal['ink-on-felt'];
    ctx.font = `bold ${Math.round(px(8))}px sans-serif`;
    ctx.fillText('×2', X, Y);
  } else if (m.kind === 'bonus') {
    ctx.fillStyle = pal['ink-on-felt'];
    ctx.font = `bold ${Math.round(px(9))}px sans-serif`;
    ctx.fillText('+1', X, Y);
  } else {
    ctx.beginPath();
    ctx.arc(X, Y, px(ARENA.holeRadius - 1.5), 0, Math.PI * 2);
    ctx.fillStyle = pal[m.kind] || '#999';
    ctx.fill();
    ctx.strokeStyle = '#fff';
    ctx.lineWidth = px(0.8);
    ctx.stroke();
    ctx.fillStyle = INK[m.kind] || '#000';
    ctx.font = `bold ${Math.round(px(7.5))}px sans-serif`;
    ctx.fillText((LETTER[m.kind] || '?') + '2', X, Y);
  }
  ctx.restore();
}

function drawDice(ctx, pal, canvas, view) {
  const s = dieMM(canvas);
  const arena = view.arena || [];
  const centre = (view.markers || []).find((m) => m.kind === 'centre')?.hole;
  for (let r = 0; r < ARENA.rows; r++) {
    for (let c = 0; c < ARENA.cols; c++) {
      const die = parseDie(arena[r]?.[c]);
      if (!die) continue;
      const p = holeCentre(r, c);
      drawDie(ctx, pal, die.color, die.face, p.x, p.y, s, { letter: true });
      if (`${r},${c}` === centre) {
        ctx.save();
        ctx.fillStyle = pal['ink-on-felt'];
        ctx.strokeStyle = 'rgba(0,0,0,.6)';
        ctx.lineWidth = px(0.8);
        ctx.font = `bold ${Math.round(px(7))}px sans-serif`;
        ctx.textAlign = 'left';
        ctx.textBaseline = 'bottom';
        ctx.strokeText('×2', cx(p.x - s / 2 - 1), cy(p.y + s / 2 + 0.5));
        ctx.fillText('×2', cx(p.x - s / 2 - 1), cy(p.y + s / 2 + 0.5));
        ctx.restore();
      }
    }
  }
}

// drawPick draws a scoring choice under the dice: blast lines as bands,
// groups as glowing chains, the centre die ringed; items that could score
// but are left out get a dashed ring.
function drawPick(ctx, pal, sc, o = {}) {
  ctx.save();
  const R = px(ARENA.holeRadius + 4);
  for (const l of sc.lines) {
    const r = Math.floor(l.at / ARENA.cols); const c = l.at % ARENA.cols;
    const span = (ARENA.cols - 1) * ARENA.pitch / 2 + ARENA.holeRadius + 5;
    const p = holeCentre(r, c);
    const w = ARENA.holeRadius + 6;
    ctx.globalAlpha = 0.5;
    ctx.fillStyle = pal.blast;
    if (l.line === 'row') roundRect(ctx, cx(-span), cy(p.y + w), px(2 * span), px(2 * w), px(6));
    else roundRect(ctx, cx(p.x - w), cy(span), px(2 * w), px(2 * span), px(6));
    ctx.fill();
    ctx.globalAlpha = 1;
    ctx.setLineDash([px(3), px(2)]);
    ctx.lineWidth = px(0.8);
    ctx.strokeStyle = pal.blast;
    ctx.stroke();
    ctx.setLineDash([]);
  }
  for (const g of sc.groups) {
    ctx.strokeStyle = pal.pick;
    ctx.globalAlpha = 0.85;
    ctx.lineCap = 'round';
    ctx.lineWidth = px(10);
    for (const a of g.holes) {
      for (const b of neighbours(a)) {
        if (b > a && g.holes.includes(b)) {
          const pa = centreOf(a); const pb = centreOf(b);
          ctx.beginPath();
          ctx.moveTo(cx(pa.x), cy(pa.y));
          ctx.lineTo(cx(pb.x), cy(pb.y));
          ctx.stroke();
        }
      }
    }
    for (const a of g.holes) {
      const p = centreOf(a);
      ctx.beginPath();
      ctx.arc(cx(p.x), cy(p.y), R, 0, Math.PI * 2);
      ctx.fillStyle = pal.pick;
      ctx.fill();
    }
    ctx.globalAlpha = 1;
  }
  if (sc.centre) {
    const p = centreOf(sc.board.centre);
    ctx.beginPath();
    ctx.arc(cx(p.x), cy(p.y), R + px(1), 0, Math.PI * 2);
    ctx.lineWidth = px(2.2);
    ctx.strokeStyle = pal.pick;
    ctx.stroke();
  }
  if (o.offs) {
    ctx.setLineDash([px(2.5), px(2)]);
    ctx.lineWidth = px(1.5);
    ctx.strokeStyle = 'rgba(255,255,255,.85)';
    for (const i of o.offs) {
      const p = centreOf(i);
      ctx.beginPath();
      ctx.arc(cx(p.x), cy(p.y), R, 0, Math.PI * 2);
      ctx.stroke();
    }
    ctx.setLineDash([]);
  }
  ctx.restore();
}

// drawPoints writes each scored hole's points over it, and the total.
function drawPoints(ctx, canvas, sc, label) {
  const s = dieMM(canvas);
  ctx.save();
  ctx.font = `bold ${Math.round(px(6.5))}px sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (const i of sc.scored) {
    const p = centreOf(i);
    const X = cx(p.x + s / 2); const Y = cy(p.y + s / 2);
    ctx.beginPath();
    ctx.arc(X, Y, px(4.6), 0, Math.PI * 2);
    ctx.fillStyle = '#1d1d1d';
    ctx.fill();
    ctx.fillStyle = '#ffe27a';
    ctx.fillText(String(sc.board.value[i]), X, Y + px(0.3));
  }
  if (label) {
    ctx.font = `bold ${Math.round(px(11))}px sans-serif`;
    // In the trench's top-left corner, clear of the bases and the holes.
    const w = ctx.measureText(label).width + px(10);
    const X = cx(-ARENA.box / 2 + 3) + w / 2; const Y = cy(ARENA.box / 2 - 12);
    roundRect(ctx, X - w / 2, Y - px(8), w, px(16), px(8));
    ctx.fillStyle = 'rgba(20,20,20,.82)';
    ctx.fill();
    ctx.fillStyle = '#ffe27a';
    ctx.fillText(label, X, Y + px(0.5));
  }
  ctx.restore();
}

// guideOf is the aim to draw: the drag under way, or the chosen settings.
function guideOf(view) {
  if (live.show?.aim) return live.show.aim;
  if (!isArmed(view)) return null;
  const d = live.drag;
  const g = { base: aim.base, offset: aim.offset, angle: aim.angle, power: aim.power, color: handOf(view)[aim.die] };
  if (d && d.flick) Object.assign(g, { angle: d.flick.angle, power: d.flick.power, pull: { x0: d.x0, y0: d.y0, x1: d.x1, y1: d.y1 } });
  return g;
}

function guideEnd(g) {
  const p = basePoint(g.base, g.offset || 0);
  const d = direction(g.base, g.angle);
  let len = reach(g.power);
  const half = ARENA.box / 2 - 4;
  let wall = Infinity;
  if (d.x > 1e-9) wall = Math.min(wall, (half - p.x) / d.x);
  if (d.x < -1e-9) wall = Math.min(wall, (-half - p.x) / d.x);
  if (d.y > 1e-9) wall = Math.min(wall, (half - p.y) / d.y);
  if (d.y < -1e-9) wall = Math.min(wall, (-half - p.y) / d.y);
  const hits = len > wall;
  len = Math.min(len, wall);
  return { p, d, e: { x: p.x + d.x * len, y: p.y + d.y * len }, hits };
}

// drawGuideUnder draws the aim under the dice, so it never hides them: a
// translucent dashed line from the launch point to the estimated stop.
function drawGuideUnder(ctx, g) {
  const { p, e, hits } = guideEnd(g);
  ctx.save();
  ctx.lineCap = 'round';
  ctx.setLineDash([px(4), px(3)]);
  ctx.lineWidth = px(1.4);
  ctx.strokeStyle = 'rgba(255,255,255,.55)';
  ctx.beginPath();
  ctx.moveTo(cx(p.x), cy(p.y));
  ctx.lineTo(cx(e.x), cy(e.y));
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.beginPath();
  ctx.arc(cx(e.x), cy(e.y), px(ARENA.die / 2 + 1), 0, Math.PI * 2);
  ctx.strokeStyle = hits ? 'rgba(255,170,110,.9)' : 'rgba(255,255,255,.8)';
  ctx.lineWidth = px(1);
  ctx.stroke();
  ctx.restore();
}

// drawLaunch draws the die waiting on its base, the pull (from the die
// backwards, where the finger is) and the power as an arc around it.
function drawLaunch(ctx, pal, canvas, g) {
  const p = basePoint(g.base, g.offset || 0);
  const s = dieMM(canvas) * 0.9;
  ctx.save();
  if (g.pull) {
    const dx = g.pull.x1 - g.pull.x0; const dy = g.pull.y1 - g.pull.y0;
    const len = Math.min(Math.hypot(dx, dy), DRAG_FULL);
    const k = len / (Math.hypot(dx, dy) || 1);
    ctx.strokeStyle = 'rgba(40,20,0,.45)';
    ctx.lineWidth = px(2);
    ctx.lineCap = 'round';
    ctx.beginPath();
    ctx.moveTo(cx(p.x), cy(p.y));
    ctx.lineTo(cx(p.x + dx * k * 0.35), cy(p.y + dy * k * 0.35));
    ctx.stroke();
  }
  if (g.color) drawDie(ctx, pal, g.color, 0, p.x, p.y, s);
  // Power: an arc around the die, full circle at full power.
  ctx.beginPath();
  ctx.arc(cx(p.x), cy(p.y), px(s * 0.8), -Math.PI / 2, -Math.PI / 2 + Math.PI * 2 * Math.max(0.02, g.power));
  ctx.strokeStyle = '#ffd35c';
  ctx.lineWidth = px(2);
  ctx.stroke();
  // The numbers in a pill beside the die, along the wall.
  const [lx, ly] = leftOf(g.base);
  const tx = p.x - lx * (s + 14); const ty = p.y - ly * (s + 14);
  const text = `${Math.round(g.power * 100)} % · ${angleText(Math.round(g.angle * 180 / Math.PI))}`;
  ctx.font = `bold ${Math.round(px(7))}px sans-serif`;
  const w = ctx.measureText(text).width + px(6);
  roundRect(ctx, cx(tx) - w / 2, cy(ty) - px(5.5), w, px(11), px(5));
  ctx.fillStyle = 'rgba(20,20,20,.8)';
  ctx.fill();
  ctx.fillStyle = '#fff';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, cx(tx), cy(ty) + px(0.4));
  ctx.restore();
}

// redraw paints a canvas from its view and the live state.
function redraw(canvas, extra) {
  const view = views.get(canvas);
  if (!view) return;
  const ctx = canvas.getContext('2d');
  const isLive = canvas === live.canvas;
  const guide = isLive ? guideOf(view) : null;
  const pal = drawArena(ctx, canvas, view, { base: guide ? guide.base : -1, offset: guide ? guide.offset : 0, launch: guide });
  let sc = null;
  if (isLive && live.show?.score) sc = live.show.score;
  else if (isLive && scoringNow(view)) { ensurePick(view); sc = scoring(view); }
  if (sc) {
    const offs = isLive && !live.show && scoringNow(view)
      ? [...scoring(view, pick, true).scored, ...[...sc.board.dice.keys()].filter((i) => sc.board.dice[i]?.color === 'pink')].filter((i) => !sc.scored.has(i))
      : null;
    drawPick(ctx, pal, sc, { offs });
  }
  if (guide) drawGuideUnder(ctx, guide);
  drawDice(ctx, pal, canvas, view);
  if (sc) drawPoints(ctx, canvas, sc, sc.total > 0 || (view.best?.total ?? 0) > 0 ? t('df.points', { n: sc.total }) : '');
  if (isLive) {
    // What is scored, for people debugging and for the browser tests.
    canvas.dataset.scored = sc ? [...sc.scored].sort((a, b) => a - b).map((i) => `${holeName(i)}:${sc.board.dice[i]?.color || 'marker'}`).join(' ') : '';
  }
  if (guide) drawLaunch(ctx, pal, canvas, guide);
  if (isLive && view.inFlight && live.lastFlick && !extra) {
    const f = live.lastFlick;
    const p = basePoint(f.base, f.offset || 0);
    drawDie(ctx, pal, view.inFlight, 0, p.x, p.y, dieMM(canvas));
  }
  if (extra) extra(ctx, pal);
}

function redrawLive() { if (live.canvas) redraw(live.canvas); }

// --- input on the arena ------------------------------------------------------------

function handOf(view) {
  const p = (view.players || [])[view.current];
  return (p && p.hand) || [];
}

// sentView: a move was sent from this view; until the update comes, no
// second one (a redraw for presence keeps the same view).
function isArmed(view) { return mine(view) && live.sentView !== view && legalKinds(view).flick && handOf(view).length > 0; }
function scoringNow(view) { return mine(view) && live.sentView !== view && legalKinds(view).score && !!view.best; }

function toMM(canvas, e) {
  const r = canvas.getBoundingClientRect();
  const s = EXTENT / r.width;
  return { x: (e.clientX - r.left) * s - EXTENT / 2, y: EXTENT / 2 - (e.clientY - r.top) * s };
}

// baseAt finds the base near a point (mm), and the offset along its side
// the point asks for when bases may slide.
function baseAt(p, shift) {
  let best = null;
  for (let b = 0; b < 4; b++) {
    const [lx, ly] = leftOf(b);
    const c = basePoint(b, 0);
    const along = (p.x - c.x) * lx + (p.y - c.y) * ly;
    const off = shift ? Math.max(-1, Math.min(1, along / ARENA.baseTravel)) : 0;
    const q = basePoint(b, off);
    const d = Math.hypot(p.x - q.x, p.y - q.y);
    if (d < 26 && (!best || d < best.d)) best = { base: b, offset: off, d };
  }
  return best;
}

function holeAt(p) {
  let best = -1; let bd = ARENA.pitch / 2;
  for (let i = 0; i < N; i++) {
    const c = centreOf(i);
    const d = Math.hypot(p.x - c.x, p.y - c.y);
    if (d < bd) { bd = d; best = i; }
  }
  return best;
}

function attachPointer(canvas) {
  canvas.addEventListener('pointerdown', (e) => {
    const view = live.view;
    if (canvas !== live.canvas || e.button > 0 || !view || live.show) return;
    if (!isArmed(view) && !scoringNow(view)) return;
    const p = toMM(canvas, e);
    e.preventDefault();
    try { canvas.setPointerCapture(e.pointerId); } catch { /* synthetic events */ }
    const b = isArmed(view) ? baseAt(p, !!live.options?.shiftBases) : null;
    live.drag = { id: e.pointerId, base: b, x0: p.x, y0: p.y, x1: p.x, y1: p.y, flick: null };
    if (b && (aim.base !== b.base || aim.offset !== b.offset)) { aim.base = b.base; aim.offset = b.offset; refreshSide(); }
    if (isArmed(view)) canvas.dataset.dragging = 'true';
    redraw(canvas);
  });
  canvas.addEventListener('pointermove', (e) => {
    const d = live.drag;
    if (!d || d.id !== e.pointerId) return;
    const p = toMM(canvas, e);
    d.x1 = p.x; d.y1 = p.y;
    if (!isArmed(live.view)) return;
    const f = flickFromDrag(aim.base, p.x - d.x0, p.y - d.y0);
    d.flick = f.len >= DRAG_MIN ? f : null;
    if (d.flick) syncSliders(f.angle, f.power);
    redraw(canvas);
  });
  const end = (e, cancel) => {
    const d = live.drag;
    if (!d || d.id !== e.pointerId) return;
    live.drag = null;
    delete canvas.dataset.dragging;
    const view = live.view;
    const p = toMM(canvas, e);
    const moved = Math.hypot(p.x - d.x0, p.y - d.y0);
    if (cancel) { redraw(canvas); return; }
    if (isArmed(view) && moved >= DRAG_MIN) {
      const f = flickFromDrag(aim.base, p.x - d.x0, p.y - d.y0);
      aim.angle = f.angle;
      aim.power = f.power;
      flickNow();
      return;
    }
    if (moved < DRAG_MIN) {
      if (d.base) { refreshSide(); redraw(canvas); return; }
      if (scoringNow(view)) {
        const i = holeAt(p);
        if (i >= 0 && tapHole(view, i)) { refreshSide(); redraw(canvas); return; }
      }
    }
    redraw(canvas);
  };
  canvas.addEventListener('pointerup', (e) => end(e, false));
  canvas.addEventListener('pointercancel', (e) => end(e, true));
}

function flickNow() {
  const view = live.view;
  if (!isArmed(view) || !live.act) return;
  const a = {
    die: aim.die, base: aim.base, offset: live.options?.shiftBases ? Math.round(aim.offset * 1000) / 1000 : 0,
    angle: Math.round(aim.angle * 10000) / 10000, power: Math.round(aim.power * 1000) / 1000,
  };
  live.lastFlick = a;
  // Until the update comes, the board shows the die leaving: no second flick.
  live.sentView = live.view;
  if (live.canvas) live.canvas.dataset.armed = 'false';
  refreshSide();
  live.act({ flick: a });
}

function sendScore(choice) {
  if (!live.act) return;
  live.sentView = live.view;
  refreshSide();
  live.act({ score: choice });
}

// --- the board ------------------------------------------------------------------------

function colorName(c) { return t('df.col.' + c); }

// dieEl is a die as a page element (the hand, the bag, flying dice).
function dieEl(color, attrs = {}) {
  return h('span', { class: `df-die df-${color}`, 'aria-hidden': 'true', ...attrs }, LETTER[color] || '?');
}

function arenaText(view) {
  const items = [];
  (view.arena || []).forEach((row, r) => row.forEach((s, c) => {
    const d = parseDie(s);
    if (d) items.push(t(d.face === 'blast' ? 'df.hole.blast' : 'df.hole.die', { hole: `${r},${c}`, color: colorName(d.color), face: d.face }));
  }));
  return items.length ? items.join('; ') : t('df.arena.empty');
}

function playerName(view, i) { return (view.players || [])[i]?.name ?? '?'; }

// statusLine says what is going on, in the turn panel.
function statusLine(view) {
  if (view.over) return t('table.over');
  const me = mine(view);
  const name = playerName(view, view.current);
  switch (view.phase) {
    case 'draw': return me ? t('df.you.draw') : t('df.other.draw', { name });
    case 'flick':
      if (me) return view.mayStop ? t('df.you.bonus') : t('df.you.flick', { n: view.flicksLeft });
      return t('df.other.flick', { name, n: view.flicksLeft });
    case 'land': return t('df.rolling', { color: colorName(view.inFlight) });
    case 'score': return me ? t('df.you.score') : t('df.other.score', { name });
  }
  return view.phase;
}

function notepad(view, mySeat, o = {}) {
  const ps = view.players || [];
  const rounds = view.rounds || 10;
  const rows = [];
  const winners = new Set(view.winners || []);
  for (let r = 0; r < rounds; r++) {
    const current = r + 1 === view.round && !view.over;
    rows.push(h('tr', { class: current ? 'current' : '', 'aria-current': current ? 'true' : null },
      h('th', { scope: 'row' }, String(r + 1)),
      ps.map((p, i) => h('td', { class: i === view.current && current ? 'now' : '' }, r < (p.scores || []).length ? String(p.scores[r]) : ''))));
  }
  const foot = [h('tr', { class: 'total' }, h('th', { scope: 'row' }, t('df.total')),
    ps.map((p) => h('td', { class: 'strong', 'data-testid': 'df-total' }, String(p.total))))];
  if (o.result) {
    foot.push(h('tr', null, h('th', { scope: 'row' }, t('df.best.round')),
      ps.map((p) => h('td', null, (p.scores || []).length ? String(Math.max(...p.scores)) : '—'))));
  }
  return h('table', { class: 'df-pad', 'data-testid': o.result ? 'df-result' : 'df-notepad' },
    h('caption', { class: o.result ? '' : 'sr-only' }, t(o.result ? 'df.breakdown' : 'df.notepad')),
    h('thead', null, h('tr', null, h('th', { scope: 'col' }, t('df.col.round')),
      ps.map((p, i) => h('th', { scope: 'col', class: `${i === mySeat ? 'mine' : ''}${i === view.current && !view.over ? ' turn' : ''}` },
        winners.has(p.name) && view.over ? '★ ' : '', p.name, i === mySeat ? h('span', { class: 'sr-only' }, ` (${t('seat.you')})`) : null)))),
    h('tbody', null, rows),
    h('tfoot', null, foot));
}

function bagEl(view) {
  const bag = view.bag || {};
  return h('div', { class: 'df-bag', 'data-testid': 'df-bag', role: 'img', 'aria-label': t('df.bag.label', { dice: COLORS.map((c) => `${colorName(c)} ${bag[c] ?? 0}`).join(', ') }) },
    h('span', { class: 'df-bag-icon', 'aria-hidden': 'true' }, t('df.bag')),
    COLORS.map((c) => h('span', { class: 'df-bagitem', 'data-color': c, 'aria-hidden': 'true' }, dieEl(c, { class: `df-die small df-${c}` }), String(bag[c] ?? 0))));
}

// renderBoard draws the arena, the turn panel and the notepad. The live
// table passes {seat, deadlineAt, act, canAct}; the replay and the rules
// pages pass {seat} only and get the picture without controls.
export function renderBoard(view, opts = {}) {
  const mySeat = opts.seat ?? -3;
  const isLive = 'deadlineAt' in opts || 'act' in opts;
  const canvas = h('canvas', {
    class: 'df-arena', width: px(EXTENT), height: px(EXTENT), 'data-extent': EXTENT, 'data-testid': 'df-arena',
    role: 'img', 'aria-label': t('df.arena') + '. ' + arenaText(view),
  });
  views.set(canvas, view);
  const fx = h('div', { class: 'df-fx', 'aria-hidden': 'true' });
  let side = null;
  if (isLive) {
    live.canvas = canvas;
    live.view = view;
    live.seat = mySeat;
    live.act = opts.act || null;
    live.canAct = !!opts.canAct && typeof opts.act === 'function';
    live.drag = null;
    live.show = null;
    attachPointer(canvas);
    tableOptions();
    canvas.dataset.armed = String(isArmed(view));
    canvas.dataset.scoring = String(scoringNow(view));
    side = h('section', { class: 'df-turn', 'data-testid': 'df-turn', 'aria-labelledby': 'df-turn-h' });
    live.side = side;
    fillSide(side, view);
  }
  redraw(canvas);
  // Drawn again once on the page and whenever its size changes: the dice
  // are drawn bigger on a small arena, and the colours come from the page.
  if (typeof ResizeObserver === 'function') new ResizeObserver(() => redraw(canvas)).observe(canvas);
  return h('div', { class: `df-board${isLive ? ' live' : ''}`, 'data-phase': view.phase, 'data-mine': String(isLive && mine(view)) },
    h('div', { class: 'df-stage' },
      h('div', { class: 'df-arena-wrap' }, canvas, fx),
      bagEl(view)),
    h('div', { class: 'df-side' },
      side,
      h('div', { class: 'df-notepad' },
        h('p', { class: 'df-round' }, view.over ? t('df.notepad') : t('df.round', { n: view.round, of: view.rounds }),
          view.bonus && !view.over ? h('span', { class: 'df-bonus' }, ' · +1 ', t('df.bonus.granted')) : null),
        h('div', { class: 'df-pad-wrap' }, notepad(view, mySeat))),
      h('details', { class: 'df-key small' }, h('summary', null, t('df.key')), h('p', null, t('df.legend')))));
}

// refreshSide redraws the turn panel in place (a tap on the board changed
// the aim or the pick).
function refreshSide() {
  if (live.side && live.side.isConnected && live.view) {
    const focus = document.activeElement && live.side.contains(document.activeElement) ? document.activeElement.id : '';
    fillSide(live.side, live.view);
    // "Back to the best" goes away once used: the focus moves to Score.
    if (focus) (document.getElementById(focus) || document.getElementById('df-score'))?.focus();
  }
  if (live.canvas) {
    live.canvas.dataset.armed = String(!!live.view && isArmed(live.view));
    live.canvas.dataset.scoring = String(!!live.view && scoringNow(live.view));
  }
}

// angleText says an angle in degrees the way people aim: left or right of
// straight ahead.
function angleText(deg) {
  if (deg === 0) return t('df.angle.straight');
  return t(deg > 0 ? 'df.angle.left' : 'df.angle.right', { n: Math.abs(deg) });
}

function syncSliders(angle, power) {
  const a = document.getElementById('df-angle'); const p = document.getElementById('df-power');
  const deg = Math.round(angle * 180 / Math.PI);
  if (a) { a.value = String(-deg); document.getElementById('df-angle-out').textContent = angleText(deg); }
  if (p) { p.value = String(Math.round(power * 100)); document.getElementById('df-power-out').textContent = `${Math.round(power * 100)} %`; }
}

function fillSide(side, view) {
  const me = mine(view);
  const k = legalKinds(view);
  const parts = [h('h2', { id: 'df-turn-h', class: `df-status${me ? ' mine' : ''}`, 'data-testid': 'df-phase' }, statusLine(view))];
  const hand = handOf(view);
  const handKey = `${view.round}:${view.current}:${view.flicksLeft}:${hand.join(',')}`;
  if (aim.key !== handKey) { aim.key = handKey; aim.die = 0; }
  if (aim.die >= hand.length) aim.die = 0;
  if (view.over) { side.hidden = true; side.replaceChildren(); return; }
  side.hidden = false;
  const flicking = me && (view.phase === 'flick' || view.phase === 'land' || view.phase === 'draw');
  if (flicking) parts.push(flickControls(view, hand, isArmed(view)));
  else if (!view.over && view.current >= 0 && !(me && view.phase === 'score')) {
    parts.push(h('div', { class: 'df-hand-row' }, h('span', { class: 'small muted' }, t('df.hand.of', { name: playerName(view, view.current) })),
      h('span', { class: 'df-hand', role: 'img', 'aria-label': hand.map(colorName).join(', ') || '—' }, hand.map((c) => dieEl(c)))));
  }
  if (me && k.score && view.best) parts.push(scoreControls(view));
  else if (live.show?.score) {
    parts.push(h('p', { class: 'df-shown', 'data-testid': 'df-shown' }, live.show.label),
      live.show.parts.length ? h('ul', { class: 'df-said small' }, live.show.parts.map((x) => h('li', null, x))) : null);
  }
  side.replaceChildren(...parts.filter(Boolean));
}

function flickControls(view, hand, armed) {
  const dis = armed ? null : 'true';
  const dieButtons = hand.map((c, i) => h('button', {
    type: 'button', id: `df-die-${i}`, class: `df-die-btn${i === aim.die ? ' chosen' : ''}`, 'aria-pressed': String(i === aim.die),
    'aria-label': t('df.die.pick', { color: colorName(c) }), 'aria-disabled': dis, 'data-die': i, 'data-color': c,
    onclick: () => { if (!armed) return; aim.die = i; refreshSide(); redrawLive(); },
  }, dieEl(c)));
  const baseButtons = [0, 1, 2, 3].map((b) => h('button', {
    type: 'button', id: `df-base-${b}`, class: `df-base-btn${b === aim.base ? ' chosen' : ''}`, 'aria-pressed': String(b === aim.base),
    'aria-label': t('df.base.pick', { base: t('df.base.' + b) }), 'aria-disabled': dis, 'data-base': b,
    onclick: () => { if (!armed) return; aim.base = b; aim.offset = 0; refreshSide(); redrawLive(); },
  }, t('df.base.short.' + b)));
  const deg = Math.round(aim.angle * 180 / Math.PI);
  const maxDeg = Math.round(ARENA.maxAngle * 180 / Math.PI);
  const enter = (e) => { if (e.key === 'Enter') { e.preventDefault(); if (armed) flickNow(); } };
  const angle = h('input', {
    // Rightwards on the slider aims to the right (the angle is positive to the left).
    id: 'df-angle', type: 'range', min: -maxDeg, max: maxDeg, step: 1, value: String(-deg), 'aria-describedby': 'df-angle-out df-keys',
    'aria-disabled': dis, onkeydown: enter,
    oninput: (e) => { aim.angle = -Number(e.target.value) * Math.PI / 180; syncSliders(aim.angle, aim.power); redrawLive(); },
  });
  const power = h('input', {
    id: 'df-power', type: 'range', min: 0, max: 100, step: 1, value: String(Math.round(aim.power * 100)), 'aria-describedby': 'df-power-out df-keys',
    'aria-disabled': dis, onkeydown: enter,
    oninput: (e) => { aim.power = Number(e.target.value) / 100; syncSliders(aim.angle, aim.power); redrawLive(); },
  });
  const shift = live.options?.shiftBases ? h('div', { class: 'df-slider' },
    h('label', { for: 'df-offset' }, t('df.offset')),
    h('input', {
      id: 'df-offset', type: 'range', min: -100, max: 100, step: 1, value: String(Math.round(aim.offset * 100)), onkeydown: enter,
      oninput: (e) => { aim.offset = Number(e.target.value) / 100; redrawLive(); },
    }), h('output', { for: 'df-offset' }, '')) : null;
  return h('div', { class: `df-flick${armed ? '' : ' waiting'}`, 'data-testid': 'df-flick-panel' },
    h('div', { class: 'df-pickrow' },
      h('div', { class: 'df-hand-btns', role: 'group', 'aria-label': t('df.act.die') }, dieButtons),
      h('div', { class: 'df-bases', role: 'group', 'aria-label': t('df.act.base') }, baseButtons)),
    h('div', { class: 'df-slider' }, h('label', { for: 'df-angle' }, t('df.angle')), angle,
      h('output', { for: 'df-angle', id: 'df-angle-out' }, angleText(deg))),
    h('div', { class: 'df-slider' }, h('label', { for: 'df-power' }, t('df.power')), power,
      h('output', { for: 'df-power', id: 'df-power-out' }, `${Math.round(aim.power * 100)} %`)),
    shift,
    h('div', { class: 'df-go' },
      h('button', {
        type: 'button', id: 'df-flick', class: 'primary', 'data-testid': 'df-flick', 'aria-disabled': dis,
        onclick: () => { if (armed) flickNow(); },
      }, '➶ ', t('df.btn.flick.none'), hand.length ? h('span', { class: 'df-long' }, ' ', t('df.btn.flick.what', { color: colorName(hand[aim.die]), base: t('df.base.' + aim.base) })) : null),
      h('span', { class: 'small muted', id: 'df-keys' }, t('df.hint.keys'))));
}

function scoreControls(view) {
  ensurePick(view);
  const sc = scoring(view);
  const all = scoring(view, pick, true);
  const b = sc.board;
  const zero = view.best.total === 0;
  const wrap = h('div', { class: `df-score${view.mayStop ? ' compact' : ''}`, 'data-testid': 'df-score-panel', 'data-total': sc.total, 'data-best': view.best.total });
  if (zero && view.phase === 'score') {
    wrap.append(h('p', { class: 'df-nothing', 'data-testid': 'df-auto-zero' }, t('df.nothing.auto')),
      h('div', { class: 'df-countdown', 'aria-hidden': 'true' }, h('span')));
    scheduleAutoZero(view);
    return wrap;
  }
  const rows = [];
  // A group in the pick or left out: one switch each, for the keyboard.
  for (const g of all.groups) {
    const on = sc.groups.some((x) => x.holes.some((i) => g.holes.includes(i)));
    rows.push(h('li', null, h('button', {
      type: 'button', id: `df-g-${g.holes[0]}`, class: `df-part${on ? ' on' : ''}`, 'aria-pressed': String(on), 'data-part': 'group',
      onclick: () => { g.holes.forEach((i) => (on ? pick.off.add(i) : pick.off.delete(i))); refreshSide(); redrawLive(); },
    }, t('df.part.group', { color: colorName(g.color), n: g.holes.length, holes: g.holes.map(holeName).join(' ') }),
    h('span', { class: 'pts' }, t('df.points', { n: on ? (sc.groups.find((x) => x.holes.some((i) => g.holes.includes(i)))?.points ?? 0) : g.points })))));
  }
  if (sc.centre || (b.centre >= 0 && b.dice[b.centre] && !all.groups.some((g) => g.holes.includes(b.centre)))) {
    const on = sc.centre;
    rows.push(h('li', null, h('button', {
      type: 'button', id: 'df-centre', class: `df-part${on ? ' on' : ''}`, 'aria-pressed': String(on), 'data-part': 'centre',
      onclick: () => { if (on) pick.off.add(b.centre); else pick.off.delete(b.centre); refreshSide(); redrawLive(); },
    }, t('df.part.centre'), h('span', { class: 'pts' }, t('df.points', { n: b.value[b.centre] })))));
  }
  for (let i = 0; i < N; i++) {
    if (b.dice[i]?.color !== 'pink') continue;
    const line = pick.blast.get(i) || '';
    const l = sc.lines.find((x) => x.at === i);
    rows.push(h('li', null, h('button', {
      type: 'button', id: `df-blast-${i}`, class: `df-part${line ? ' on' : ''}`, 'aria-pressed': String(!!line), 'data-part': 'blast',
      onclick: () => { tapHole(view, i); refreshSide(); redrawLive(); },
    }, t(line === 'row' ? 'df.part.row' : line === 'column' ? 'df.part.column' : 'df.part.noline', { hole: holeName(i) }),
    h('span', { class: 'pts' }, line ? t('df.points', { n: l?.points ?? 0 }) : ''))));
  }
  for (let i = 0; i < N; i++) {
    if (b.dice[i]?.color !== 'white' || jokerOptions(b, i).length === 0) continue;
    const c = pick.assign.get(i) || '';
    rows.push(h('li', null, h('button', {
      type: 'button', id: `df-joker-${i}`, class: 'df-part joker', 'data-part': 'joker',
      onclick: () => { tapHole(view, i); refreshSide(); redrawLive(); },
    }, t(c ? 'df.part.joker' : 'df.part.joker.none', { hole: holeName(i), color: c ? colorName(c) : '' }))));
  }
  wrap.append(
    h('p', { class: 'small muted df-tap' }, h('span', { class: 'df-long' }, t('df.score.hint')), h('span', { class: 'df-short' }, t('df.score.hint.short'))),
    rows.length ? h('ul', { class: 'df-parts' }, rows) : null,
    h('div', { class: 'df-go' },
      h('button', {
        type: 'button', id: 'df-score', class: 'primary', 'data-testid': 'df-score',
        onclick: () => sendScore(scoring(view).choice),
      }, '✓ ', sc.total > 0 ? t('df.btn.score', { n: sc.total }) : t('df.btn.nothing')),
      sc.total !== view.best.total ? h('button', {
        type: 'button', id: 'df-best', class: 'df-reset', 'data-testid': 'df-best',
        onclick: () => { resetPick(view); refreshSide(); redrawLive(); },
      }, t('df.btn.best', { n: view.best.total })) : h('span', { class: 'small df-isbest' }, t('df.is.best'))));
  return wrap;
}

// partsText puts a score event's parts into words, with their points.
function partsText(parts) {
  return parts.map((p) => {
    let what;
    if (p.kind === 'group') what = t('df.part.group', { color: colorName(p.color), n: p.holes.length, holes: p.holes.join(' ') });
    else if (p.kind === 'centre') what = t('df.part.centre');
    else what = t(p.line === 'column' ? 'df.part.column' : 'df.part.row', { hole: p.at });
    return `${what}: ${t('df.points', { n: p.points })}`;
  });
}

// scheduleAutoZero sends the zero score by itself when nothing can score,
// after a pause long enough to read why.
function scheduleAutoZero(view) {
  const key = pickKey(view);
  if (live.autoZero.key === key) return;
  clearTimeout(live.autoZero.timer);
  live.autoZero.key = key;
  live.autoZero.timer = setTimeout(() => {
    const v = live.view;
    if (!v || pickKey(v) !== key || !scoringNow(v) || v.best.total !== 0) return;
    sendScore({ groups: [] });
  }, 1800);
}

// renderActions: the board has every control (see renderBoard).
export function renderActions() { return null; }

// --- words ------------------------------------------------------------------------------

export function resultText(view) {
  if (!view.over) return '';
  const ps = view.players || [];
  const w = view.winners || [];
  const best = Math.max(...ps.map((p) => p.total));
  if (ps.length === 1) return t('df.practice.result', { score: best });
  return winnersText(w, best);
}

// renderResult is the end screen's breakdown: every round of every player,
// the totals and each player's best round.
export function renderResult(view, seat) {
  if (!view.over) return null;
  return h('div', { class: 'df-result' }, notepad(view, seat ?? -3, { result: true }));
}

// --- animation ---------------------------------------------------------------------------

const quick = (fast) => fast || document.hidden;

// animatePath moves a die along path (mm points PathStepMillis apart) on the
// canvas. Long paths are played faster so that no landing takes more than
// 2.5 s.
function animatePath(canvas, color, path) {
  return new Promise((resolve) => {
    const step = ARENA.pathStepMillis;
    const total = (path.length - 1) * step;
    const speedup = Math.max(1, total / 2500);
    const start = performance.now();
    let done = false;
    const finish = () => { if (!done) { done = true; delete canvas.dataset.animating; resolve(); } };
    canvas.dataset.animating = 'true';
    document.body.dataset.dfAnimations = String(Number(document.body.dataset.dfAnimations || 0) + 1);
    // A hidden page gets no frames: do not hold the updates up.
    setTimeout(finish, total / speedup + 800);
    const s = dieMM(canvas);
    const frame = (now) => {
      if (done) return;
      const tt = Math.max(0, Math.min(total, (now - start) * speedup));
      const i = Math.min(path.length - 2, Math.floor(tt / step));
      const f = Math.min(1, (tt - i * step) / step);
      const a = path[i]; const b = path[i + 1];
      const x = a.x + (b.x - a.x) * f; const y = a.y + (b.y - a.y) * f;
      const speed = Math.hypot(b.x - a.x, b.y - a.y) / (step / 1000);
      redraw(canvas, (ctx, pal) => {
        ctx.save();
        ctx.strokeStyle = 'rgba(255,255,255,.3)';
        ctx.lineWidth = px(1.2);
        ctx.beginPath();
        ctx.moveTo(cx(path[0].x), cy(path[0].y));
        for (let j = 1; j <= i; j++) ctx.lineTo(cx(path[j].x), cy(path[j].y));
        ctx.lineTo(cx(x), cy(y));
        ctx.stroke();
        ctx.restore();
        // A fast die hops: a little bigger while it flies.
        drawDie(ctx, pal, color, 0, x, y, s, { scale: 1 + Math.min(0.35, speed / 4000) });
      });
      if (tt >= total) { setTimeout(finish, 60); return; }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

// flyToBag moves dice ({color, x, y} in arena mm) from the arena into the
// bag below it.
async function flyToBag(root, dice) {
  const canvas = root.querySelector('canvas.df-arena');
  const fx = root.querySelector('.df-fx');
  const bag = root.querySelector('.df-bag');
  if (!canvas || !fx || !bag || !dice.length || typeof Element.prototype.animate !== 'function') return;
  const cr = canvas.getBoundingClientRect();
  const wr = fx.getBoundingClientRect();
  const k = cr.width / EXTENT;
  const size = dieMM(canvas) * k;
  const anims = [];
  for (const d of dice) {
    const target = bag.querySelector(`[data-color=${d.color}]`) || bag;
    const tr = target.getBoundingClientRect();
    const x = cr.left - wr.left + (d.x + EXTENT / 2) * k - size / 2;
    const y = cr.top - wr.top + (EXTENT / 2 - d.y) * k - size / 2;
    const el = dieEl(d.color, { class: `df-die df-${d.color} df-flying` });
    el.style.setProperty('left', `${x}px`);
    el.style.setProperty('top', `${y}px`);
    el.style.setProperty('width', `${size}px`);
    el.style.setProperty('height', `${size}px`);
    fx.append(el);
    const dx = tr.left + tr.width / 2 - (wr.left + x + size / 2);
    const dy = tr.top + tr.height / 2 - (wr.top + y + size / 2);
    anims.push(el.animate([
      { transform: 'translate(0,0) scale(1)', opacity: 1 },
      { transform: `translate(${dx * 0.5}px, ${dy * 0.5 - 40}px) scale(.9)`, opacity: 1, offset: 0.45 },
      { transform: `translate(${dx}px, ${dy}px) scale(.45)`, opacity: 0.2 },
    ], { duration: 650, easing: 'ease-in', fill: 'forwards' }).finished.catch(() => {}));
  }
  document.body.dataset.dfToBag = String(Number(document.body.dataset.dfToBag || 0) + 1);
  await Promise.all(anims);
  fx.replaceChildren();
}

// fromBag shows dice just drawn coming out of the bag into the hand.
function fromBag(root, n) {
  const bag = root.querySelector('.df-bag-icon');
  const dice = [...root.querySelectorAll('.df-hand-btns .df-die, .df-hand .df-die')].slice(-n);
  if (!bag || !dice.length || typeof Element.prototype.animate !== 'function') return;
  const br = bag.getBoundingClientRect();
  for (const [i, el] of dice.entries()) {
    const r = el.getBoundingClientRect();
    const dx = br.left + br.width / 2 - (r.left + r.width / 2);
    const dy = br.top + br.height / 2 - (r.top + r.height / 2);
    el.animate([
      { transform: `translate(${dx}px, ${dy}px) scale(.5)`, opacity: 0.3 },
      { transform: 'translate(0,0) scale(1)', opacity: 1 },
    ], { duration: 450, delay: i * 90, easing: 'ease-out', fill: 'backwards' });
  }
}

// beforeUpdate runs on the board as it was, before the move is shown:
// another player's aim is held up for a moment, every landing flies along
// its path, and a scoring stays on the board long enough to be read before
// its dice go back to the bag. fast (catching up) skips all of that; with
// reduced motion nothing flies, but the pauses and the results stay.
export async function beforeUpdate(root, events, fast) {
  const canvas = root.querySelector('canvas.df-arena');
  const view = canvas ? views.get(canvas) : null;
  if (!canvas || !view || canvas !== live.canvas) return;
  const other = view.current !== live.seat;
  const still = reducedMotion();
  for (const ev of events || []) {
    if (ev.kind === 'flick') {
      const f = ev.data?.flick || {};
      live.lastFlick = { base: f.base ?? 0, offset: f.offset ?? 0 };
      if (other && !quick(fast)) {
        live.show = { aim: { base: live.lastFlick.base, offset: live.lastFlick.offset, angle: f.angle ?? 0, power: f.power ?? 0, color: ev.data.color } };
        document.body.dataset.dfShowing = 'aim';
        redraw(canvas);
        await sleep(pace(800));
        live.show = null;
        delete document.body.dataset.dfShowing;
      }
    } else if (ev.kind === 'land') {
      const path = ev.data?.path || [];
      if (quick(fast)) continue;
      if (!still && path.length >= 2) {
        await animatePath(canvas, ev.data.color, path);
        // In the trench or out of the box: back into the bag.
        const end = path[path.length - 1];
        if (ev.data.where !== 'hole') await flyToBag(root, [{ color: ev.data.color, x: end.x, y: end.y }]);
      }
      if (other) await sleep(pace(still ? 800 : 500));
    } else if (ev.kind === 'score') {
      const d = ev.data || {};
      const holes = new Set();
      for (const part of d.parts || []) for (const hn of part.holes || []) holes.add(holeIndex(hn));
      if (other && !quick(fast)) {
        const sc = { board: boardOf(view), groups: [], centre: false, lines: [], scored: holes, total: d.total };
        for (const part of d.parts || []) {
          if (part.kind === 'group') sc.groups.push({ color: part.color, holes: part.holes.map(holeIndex) });
          if (part.kind === 'centre') sc.centre = true;
          if (part.kind === 'blast') sc.lines.push({ at: holeIndex(part.at), line: part.line, holes: [] });
        }
        const label = t('df.scored', { name: d.player, n: d.total });
        live.show = { score: sc, label, parts: partsText(d.parts || []) };
        document.body.dataset.dfShowing = 'score';
        if (live.side) fillSide(live.side, view);
        redraw(canvas);
        await sleep(pace(d.total > 0 ? 1200 : 700));
      }
      if (!quick(fast) && !still && holes.size) {
        const b = boardOf(view);
        await flyToBag(root, [...holes].filter((i) => b.dice[i]).map((i) => ({ color: b.dice[i].color, ...centreOf(i) })));
      }
      live.show = null;
      delete document.body.dataset.dfShowing;
    }
  }
}

// afterUpdate runs on the new board: dice just drawn come out of the bag.
export function afterUpdate(root, events, fast) {
  for (const ev of events || []) {
    if (ev.kind === 'draw' && !quick(fast) && !reducedMotion()) fromBag(root, (ev.data?.dice || []).length);
  }
}

// --- reviews and hints -------------------------------------------------------------

// renderReview draws a judged flick's data (the game's FlickReview: points
// in arena mm) over the replay's arena: the steady hand's path from its base
// to where it was aimed (○), where the die came to rest (✕), and the best
// aim when it was another (◎, its own path).
export function renderReview(data, root) {
  const fx = root?.querySelector('.df-fx');
  if (!fx || !data || (!data.played && !data.best)) return;
  fx.querySelector('.df-review')?.remove();
  const P = (pt) => ({ x: cx(pt.x), y: cy(pt.y) });
  const path = (f, to, cls) => {
    const a = P(basePoint(f.base, f.offset || 0));
    const b = P(to);
    return svg('line', { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: cls });
  };
  const kids = [];
  const r = px(ARENA.holeRadius + 3);
  const { played, landed, best } = data;
  const sameAim = played?.aim && best && played.aim.hole && played.aim.hole === best.hole;
  if (best && !sameAim) {
    kids.push(path(best.flick, best.at, 'df-rv-path best'),
      svg('circle', { cx: P(best.at).x, cy: P(best.at).y, r, class: 'df-rv-ring best' }),
      svg('circle', { cx: P(best.at).x, cy: P(best.at).y, r: r + px(4), class: 'df-rv-ring best' }));
  }
  if (played?.aim) {
    kids.push(path(played.flick, played.aim.at, 'df-rv-path played'),
      svg('circle', { cx: P(played.aim.at).x, cy: P(played.aim.at).y, r, class: 'df-rv-ring played' }));
  }
  if (landed) {
    const c = P(landed.at);
    const k = px(6);
    kids.push(svg('path', { d: `M${c.x - k} ${c.y - k}L${c.x + k} ${c.y + k}M${c.x + k} ${c.y - k}L${c.x - k} ${c.y + k}`, class: 'df-rv-cross' }));
  }
  fx.append(svg('svg', { class: 'df-review', viewBox: `0 0 ${px(EXTENT)} ${px(EXTENT)}`, 'aria-hidden': 'true', 'data-testid': 'df-review' }, kids));
  const stage = root.querySelector('.df-stage');
  stage?.querySelector('.df-review-key')?.remove();
  stage?.append(h('p', { class: 'df-review-key small' },
    h('span', { class: 'df-key-played' }, '○ ', t('df.review.aimed')), ' ',
    landed ? h('span', { class: 'df-key-landed' }, '✕ ', t('df.review.landed')) : null, ' ',
    best && !sameAim ? h('span', { class: 'df-key-best' }, '◎ ', t('df.review.best')) : null));
}

// highlightHint puts the coach's flick (a wire action) in the aim of the
// live board, as if the player had set it: the guide shows where it goes
// and Flick plays it. Once per hint: the player may change it after.
let hinted = null;
export function highlightHint(a, root) {
  const f = a?.flick;
  if (!f || hinted === a || !live.canvas || !root?.contains(live.canvas) || !live.view || !isArmed(live.view)) return;
  hinted = a;
  Object.assign(aim, { die: f.die, base: f.base, offset: f.offset || 0, angle: f.angle, power: f.power });
  refreshSide();
  syncSliders(aim.angle, aim.power);
  redrawLive();
  root.querySelector(`#df-die-${Number(f.die)}`)?.classList.add('hinted');
}
