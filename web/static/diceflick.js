// Diceflick in the browser: the arena drawn to scale on a canvas (box,
// trench, 5 × 5 holes, markers, dice, the four bases), flicks by dragging
// back from a base (or with the keyboard controls), every landing animated
// along the server's path, the best scoring offer highlighted, and the
// notepad. Same exports as dicestars.js (the contract table.js and replay.js
// rely on).

import { h, reducedMotion } from '/static/dom.js';
import { t } from '/static/i18n.js';
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

// The canvas shows the box with a margin around it (room to drag back from
// a base), at a fixed resolution; CSS scales it to the page.
export const EXTENT = 300; // mm shown across
const RES = 3; // canvas pixels per mm
const DRAG_FULL = 100; // mm of drag for full power
const DRAG_MIN = 6; // mm: a shorter drag is a tap (chooses the base)

const COLORS = ['white', 'blue', 'yellow', 'green', 'pink'];
const FILL = { white: '#f7f5ef', blue: '#2f6fd6', yellow: '#f2c230', green: '#3aa655', pink: '#e8559a' };
const INK = { white: '#333', blue: '#fff', yellow: '#333', green: '#fff', pink: '#fff' };
// A letter per colour, so dice are told apart without colour.
const LETTER = { white: 'W', blue: 'B', yellow: 'Y', green: 'G', pink: '✸' };
const BASE_NAMES = ['S', 'W', 'N', 'E'];

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

function parseHole(s) {
  const [r, c] = String(s).split(',').map(Number);
  return { row: r, col: c };
}

const px = (mm) => mm * RES;
const cx = (x) => (x + EXTENT / 2) * RES;
const cy = (y) => (EXTENT / 2 - y) * RES;

// flickFromDrag turns a drag (from the press to the pointer, in mm) at base b
// into angle and power: the die goes the opposite way of the drag.
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

// --- module state ------------------------------------------------------------------
// The live board (not the replay's) keeps its canvas here: the controls and
// the drag redraw the aim guide on it, and animations play on it.
const live = { canvas: null, view: null, armed: null, drag: null, options: null, optionsAsked: false };
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
      if (live.options.shiftBases && live.rerenderActions) live.rerenderActions();
    }, () => { live.options = {}; });
  }
  return live.options;
}

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

// drawDie draws a die seen from above at (x, y) mm: colour, pips (a blast
// die: a star burst) and its colour letter below it.
function drawDie(ctx, color, face, x, y, scale = 1, letter = true) {
  const s = px(ARENA.die) * scale;
  const X = cx(x); const Y = cy(y);
  ctx.save();
  ctx.shadowColor = 'rgba(0,0,0,.35)';
  ctx.shadowBlur = px(1.5) * scale;
  ctx.shadowOffsetY = px(0.8) * scale;
  roundRect(ctx, X - s / 2, Y - s / 2, s, s, s * 0.18);
  ctx.fillStyle = FILL[color] || '#999';
  ctx.fill();
  ctx.restore();
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = color === 'white' ? '#8a857a' : 'rgba(0,0,0,.45)';
  roundRect(ctx, X - s / 2, Y - s / 2, s, s, s * 0.18);
  ctx.stroke();
  ctx.fillStyle = INK[color] || '#000';
  if (color === 'pink' || face === 'blast') {
    ctx.font = `bold ${Math.round(s * 0.8)}px sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText('✸', X, Y + s * 0.04);
  } else if (PIPS[face]) {
    const r = s * 0.085;
    for (const [u, v] of PIPS[face]) {
      ctx.beginPath();
      ctx.arc(X + u * s * 0.27, Y + v * s * 0.27, r, 0, Math.PI * 2);
      ctx.fill();
    }
  }
  if (letter && color !== 'pink') {
    ctx.font = `bold ${Math.round(px(6))}px sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ctx.fillStyle = '#1d2a22';
    ctx.fillText(LETTER[color] || '?', X, Y + s / 2 + px(1.2));
  }
}

function parseDie(s) {
  if (!s) return null;
  const [color, face] = String(s).split(':');
  return { color, face: face === 'blast' ? 'blast' : Number(face) };
}

// bestHoles lists what the offer scores: groups, centre and blast lines.
function bestParts(view) {
  const ch = view.best && view.best.choice;
  if (!ch) return null;
  const groups = (ch.groups || []).map((g) => g.map(parseHole));
  const centre = ch.centre ? (view.markers || []).find((m) => m.kind === 'centre') : null;
  const blasts = (ch.blasts || []).map((b) => ({ at: parseHole(b.at), line: b.line }));
  return { groups, centre: centre ? parseHole(centre.hole) : null, blasts };
}

function drawArena(ctx, view, o = {}) {
  const W = px(EXTENT);
  ctx.clearRect(0, 0, W, W);
  const half = ARENA.box / 2;
  const ins = half - ARENA.trench;
  // The table around the box.
  ctx.fillStyle = '#e9e2d3';
  ctx.fillRect(0, 0, W, W);
  // The box walls and the trench.
  ctx.fillStyle = '#6b4a2b';
  ctx.fillRect(cx(-half) - px(6), cy(half) - px(6), px(ARENA.box + 12), px(ARENA.box + 12));
  ctx.fillStyle = '#2f5d4a';
  ctx.fillRect(cx(-half), cy(half), px(ARENA.box), px(ARENA.box));
  // The insert.
  ctx.fillStyle = '#3f8a67';
  ctx.fillRect(cx(-ins), cy(ins), px(2 * ins), px(2 * ins));
  ctx.strokeStyle = 'rgba(0,0,0,.35)';
  ctx.lineWidth = 2;
  ctx.strokeRect(cx(-ins), cy(ins), px(2 * ins), px(2 * ins));
  // Bases.
  const sel = o.base ?? -1;
  for (let b = 0; b < 4; b++) {
    const p = basePoint(b, b === sel ? (o.offset || 0) : 0);
    const [nx] = normalOf(b);
    const along = 34; const across = 22;
    const w = nx === 0 ? along : across; const hh = nx === 0 ? across : along;
    roundRect(ctx, cx(p.x - w / 2), cy(p.y + hh / 2), px(w), px(hh), px(3));
    ctx.fillStyle = b === sel ? '#ffd35c' : '#c9b48c';
    ctx.fill();
    ctx.strokeStyle = b === sel ? '#8a5a00' : '#6b5a3a';
    ctx.lineWidth = b === sel ? 4 : 2;
    ctx.stroke();
    ctx.fillStyle = '#3b2e17';
    ctx.font = `bold ${Math.round(px(8))}px sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(BASE_NAMES[b], cx(p.x), cy(p.y));
  }
  // Holes and markers.
  const markers = new Map((view.markers || []).map((m) => [m.hole, m]));
  const arena = view.arena || [];
  for (let r = 0; r < ARENA.rows; r++) {
    for (let c = 0; c < ARENA.cols; c++) {
      const p = holeCentre(r, c);
      ctx.beginPath();
      ctx.arc(cx(p.x), cy(p.y), px(ARENA.holeRadius), 0, Math.PI * 2);
      ctx.fillStyle = '#1e3f31';
      ctx.fill();
      const m = markers.get(`${r},${c}`);
      const die = parseDie(arena[r]?.[c]);
      if (m && !die) drawMarker(ctx, m, p);
    }
  }
  // The best offer, under the dice.
  if (o.best) drawBest(ctx, o.best);
  for (let r = 0; r < ARENA.rows; r++) {
    for (let c = 0; c < ARENA.cols; c++) {
      const die = parseDie(arena[r]?.[c]);
      if (!die) continue;
      const p = holeCentre(r, c);
      drawDie(ctx, die.color, die.face, p.x, p.y);
      const m = markers.get(`${r},${c}`);
      if (m && m.kind === 'centre') {
        ctx.fillStyle = '#ffe9a8';
        ctx.font = `bold ${Math.round(px(6))}px sans-serif`;
        ctx.textAlign = 'left';
        ctx.textBaseline = 'top';
        ctx.fillText('×2', cx(p.x + ARENA.die / 2 + 0.5), cy(p.y + ARENA.die / 2));
      }
    }
  }
}

function drawMarker(ctx, m, p) {
  const X = cx(p.x); const Y = cy(p.y);
  ctx.save();
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  if (m.kind === 'centre') {
    ctx.strokeStyle = '#ffe9a8';
    ctx.lineWidth = 3;
    ctx.beginPath();
    ctx.arc(X, Y, px(ARENA.holeRadius - 1.5), 0, Math.PI * 2);
    ctx.stroke();
    ctx.fillStyle = '#ffe9a8';
    ctx.font = `bold ${Math.round(px(7))}px sans-serif`;
    ctx.fillText('×2', X, Y);
  } else if (m.kind === 'bonus') {
    ctx.fillStyle = '#fff3c4';
    ctx.font = `bold ${Math.round(px(9))}px sans-serif`;
    ctx.fillText('+1', X, Y);
  } else {
    ctx.beginPath();
    ctx.arc(X, Y, px(ARENA.holeRadius - 2), 0, Math.PI * 2);
    ctx.fillStyle = FILL[m.kind] || '#999';
    ctx.fill();
    ctx.strokeStyle = '#fff';
    ctx.lineWidth = 2;
    ctx.stroke();
    ctx.fillStyle = INK[m.kind] || '#000';
    ctx.font = `bold ${Math.round(px(6))}px sans-serif`;
    ctx.fillText((LETTER[m.kind] || '?') + '2', X, Y);
  }
  ctx.restore();
}

function drawBest(ctx, best) {
  ctx.save();
  const R = px(ARENA.holeRadius + 4);
  // Blast lines: a band along the row or the column.
  for (const b of best.blasts) {
    ctx.fillStyle = 'rgba(232, 85, 154, .35)';
    ctx.strokeStyle = '#ff9ccb';
    ctx.setLineDash([px(3), px(2)]);
    ctx.lineWidth = 3;
    const span = (ARENA.cols - 1) * ARENA.pitch / 2 + ARENA.holeRadius + 5;
    const p = holeCentre(b.at.row, b.at.col);
    const w = ARENA.holeRadius + 5;
    if (b.line === 'row') {
      roundRect(ctx, cx(-span), cy(p.y + w), px(2 * span), px(2 * w), px(6));
    } else {
      roundRect(ctx, cx(p.x - w), cy(span), px(2 * w), px(2 * span), px(6));
    }
    ctx.fill();
    ctx.stroke();
  }
  ctx.setLineDash([]);
  // Groups: a glow on every member, joined to its neighbours.
  for (const g of best.groups) {
    ctx.strokeStyle = 'rgba(255, 196, 0, .85)';
    ctx.lineCap = 'round';
    ctx.lineWidth = px(10);
    for (const a of g) {
      for (const b of g) {
        if ((a.row === b.row && b.col === a.col + 1) || (a.col === b.col && b.row === a.row + 1)) {
          const pa = holeCentre(a.row, a.col); const pb = holeCentre(b.row, b.col);
          ctx.beginPath();
          ctx.moveTo(cx(pa.x), cy(pa.y));
          ctx.lineTo(cx(pb.x), cy(pb.y));
          ctx.stroke();
        }
      }
    }
    for (const a of g) {
      const p = holeCentre(a.row, a.col);
      ctx.beginPath();
      ctx.arc(cx(p.x), cy(p.y), R, 0, Math.PI * 2);
      ctx.fillStyle = 'rgba(255, 196, 0, .85)';
      ctx.fill();
      ctx.lineWidth = 3;
      ctx.strokeStyle = '#7a5200';
      ctx.stroke();
    }
  }
  if (best.centre) {
    const p = holeCentre(best.centre.row, best.centre.col);
    ctx.beginPath();
    ctx.arc(cx(p.x), cy(p.y), R + px(2), 0, Math.PI * 2);
    ctx.lineWidth = 5;
    ctx.strokeStyle = '#ffe9a8';
    ctx.stroke();
  }
  ctx.restore();
}

// drawGuide draws the aim: a dashed line from the base in the flick's
// direction up to the estimated stop (or the wall), and the power.
function drawGuide(ctx, g) {
  const p = basePoint(g.base, g.offset || 0);
  const d = direction(g.base, g.angle);
  let len = reach(g.power);
  const half = ARENA.box / 2 - 4;
  // Where the straight line meets a wall.
  let wall = Infinity;
  if (d.x > 1e-9) wall = Math.min(wall, (half - p.x) / d.x);
  if (d.x < -1e-9) wall = Math.min(wall, (-half - p.x) / d.x);
  if (d.y > 1e-9) wall = Math.min(wall, (half - p.y) / d.y);
  if (d.y < -1e-9) wall = Math.min(wall, (-half - p.y) / d.y);
  const hits = len > wall;
  len = Math.min(len, wall);
  const e = { x: p.x + d.x * len, y: p.y + d.y * len };
  ctx.save();
  ctx.lineCap = 'round';
  ctx.setLineDash([px(4), px(3)]);
  ctx.lineWidth = px(1.6);
  ctx.strokeStyle = 'rgba(255,255,255,.9)';
  ctx.beginPath();
  ctx.moveTo(cx(p.x), cy(p.y));
  ctx.lineTo(cx(e.x), cy(e.y));
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.beginPath();
  ctx.arc(cx(e.x), cy(e.y), px(ARENA.die / 2), 0, Math.PI * 2);
  ctx.strokeStyle = hits ? '#ffb37a' : '#fff';
  ctx.lineWidth = 3;
  ctx.stroke();
  if (hits) {
    ctx.fillStyle = '#ffb37a';
    ctx.font = `bold ${Math.round(px(8))}px sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText('!', cx(e.x), cy(e.y));
  }
  if (g.drag) {
    // The rubber band: from the press to the pointer.
    ctx.strokeStyle = 'rgba(40,20,0,.7)';
    ctx.lineWidth = px(1);
    ctx.beginPath();
    ctx.moveTo(cx(g.drag.x0), cy(g.drag.y0));
    ctx.lineTo(cx(g.drag.x1), cy(g.drag.y1));
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(cx(g.drag.x1), cy(g.drag.y1), px(3), 0, Math.PI * 2);
    ctx.fillStyle = 'rgba(40,20,0,.7)';
    ctx.fill();
  }
  // Power bar by the base.
  ctx.fillStyle = 'rgba(0,0,0,.45)';
  ctx.fillRect(px(4), px(4), px(70), px(9));
  ctx.fillStyle = '#ffd35c';
  ctx.fillRect(px(4), px(4), px(70 * g.power), px(9));
  ctx.fillStyle = '#23262b';
  ctx.font = `bold ${Math.round(px(10))}px sans-serif`;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  ctx.fillText(`${Math.round(g.power * 100)}%  ${Math.round(g.angle * 180 / Math.PI)}°`, px(78), px(3));
  ctx.restore();
}

function currentGuide() {
  if (live.drag && live.drag.flick) {
    const d = live.drag;
    return { base: d.base, offset: d.offset, angle: d.flick.angle, power: d.flick.power, drag: { x0: d.x0, y0: d.y0, x1: d.x1, y1: d.y1 } };
  }
  if (live.armed) return { base: aim.base, offset: aim.offset, angle: aim.angle, power: aim.power };
  return null;
}

function redraw(canvas) {
  const view = views.get(canvas);
  if (!view) return;
  const ctx = canvas.getContext('2d');
  const guide = canvas === live.canvas ? currentGuide() : null;
  const best = view.best ? bestParts(view) : null;
  drawArena(ctx, view, { best, base: guide ? guide.base : -1, offset: guide ? guide.offset : 0 });
  if (view.inFlight && live.lastFlick && canvas === live.canvas) {
    const f = live.lastFlick;
    const p = basePoint(f.base, f.offset || 0);
    drawDie(ctx, view.inFlight, 0, p.x, p.y, 1.15, false);
  }
  if (guide) drawGuide(ctx, guide);
}

function redrawLive() { if (live.canvas) redraw(live.canvas); }

// --- pointer --------------------------------------------------------------------

function toMM(canvas, e) {
  const r = canvas.getBoundingClientRect();
  const s = EXTENT / r.width;
  return { x: (e.clientX - r.left) * s - EXTENT / 2, y: EXTENT / 2 - (e.clientY - r.top) * s };
}

// baseAt finds the base under a point (mm), and the offset along its side
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
    if (d < 28 && (!best || d < best.d)) best = { base: b, offset: off, d };
  }
  return best;
}

function attachPointer(canvas) {
  canvas.addEventListener('pointerdown', (e) => {
    if (!live.armed || canvas !== live.canvas || e.button > 0) return;
    const p = toMM(canvas, e);
    const b = baseAt(p, !!live.options?.shiftBases);
    if (!b) return;
    e.preventDefault();
    try { canvas.setPointerCapture(e.pointerId); } catch { /* synthetic events */ }
    live.drag = { id: e.pointerId, base: b.base, offset: b.offset, x0: p.x, y0: p.y, x1: p.x, y1: p.y, flick: null };
    aim.base = b.base;
    aim.offset = b.offset;
    canvas.dataset.dragging = 'true';
    redraw(canvas);
  });
  canvas.addEventListener('pointermove', (e) => {
    const d = live.drag;
    if (!d || d.id !== e.pointerId) return;
    const p = toMM(canvas, e);
    d.x1 = p.x; d.y1 = p.y;
    const f = flickFromDrag(d.base, p.x - d.x0, p.y - d.y0);
    d.flick = f.len >= DRAG_MIN ? f : null;
    redraw(canvas);
  });
  const end = (e, cancel) => {
    const d = live.drag;
    if (!d || d.id !== e.pointerId) return;
    live.drag = null;
    delete canvas.dataset.dragging;
    const p = toMM(canvas, e);
    const f = flickFromDrag(d.base, p.x - d.x0, p.y - d.y0);
    if (!cancel && f.len >= DRAG_MIN && live.armed) {
      aim.angle = f.angle;
      aim.power = f.power;
      live.armed.flick();
    } else {
      if (live.rerenderActions) live.rerenderActions();
      redraw(canvas);
    }
  };
  canvas.addEventListener('pointerup', (e) => end(e, false));
  canvas.addEventListener('pointercancel', (e) => end(e, true));
}

// --- the board ------------------------------------------------------------------------

function chip(color, extra = '') {
  return h('span', { class: `df-chip df-${color} ${extra}`.trim(), 'aria-hidden': 'true' }, LETTER[color] || '?');
}

function colorName(c) { return t('df.col.' + c); }

function arenaText(view) {
  const items = [];
  (view.arena || []).forEach((row, r) => row.forEach((s, c) => {
    const d = parseDie(s);
    if (d) items.push(t(d.face === 'blast' ? 'df.hole.blast' : 'df.hole.die', { hole: `${r},${c}`, color: colorName(d.color), face: d.face }));
  }));
  return items.length ? items.join('; ') : t('df.arena.empty');
}

function phaseLine(view) {
  if (view.over) return t('table.over');
  switch (view.phase) {
    case 'draw': return t('df.phase.draw');
    case 'flick': return view.mayStop ? t('df.phase.bonus') : t('df.phase.flick', { n: view.flicksLeft });
    case 'land': return t('df.phase.land', { color: colorName(view.inFlight) });
    case 'score': return t('df.phase.score');
  }
  return view.phase;
}

function notepad(view, mySeat) {
  const ps = view.players || [];
  const rounds = view.rounds || 10;
  const rows = [];
  for (let r = 0; r < rounds; r++) {
    rows.push(h('tr', { class: r + 1 === view.round && !view.over ? 'current' : '' },
      h('th', { scope: 'row' }, String(r + 1)),
      ps.map((p) => h('td', null, r < (p.scores || []).length ? String(p.scores[r]) : ''))));
  }
  return h('section', { class: 'df-notepad', 'aria-labelledby': 'df-notepad-h' },
    h('h3', { id: 'df-notepad-h' }, t('df.notepad')),
    h('div', { class: 'table-scroll' }, h('table', { class: 'df-pad', 'data-testid': 'df-notepad' },
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, t('df.col.round')),
        ps.map((p, i) => h('th', { scope: 'col', class: i === mySeat ? 'mine' : '' }, p.name)))),
      h('tbody', null, rows),
      h('tfoot', null, h('tr', null, h('th', { scope: 'row' }, t('df.total')),
        ps.map((p) => h('td', { class: 'strong', 'data-testid': 'df-total' }, String(p.total))))))));
}

function playersEl(view, mySeat) {
  return h('ul', { class: 'df-players', 'aria-label': t('table.players') }, (view.players || []).map((p, i) => {
    const current = !view.over && p.name === view.next;
    return h('li', { class: `df-player${current ? ' current' : ''}${i === mySeat ? ' mine' : ''}`, 'data-seat': i },
      h('span', { class: 'pname' }, current ? '▶ ' : '', p.name, i === mySeat ? ` (${t('seat.you')})` : ''),
      h('span', { class: 'df-hand', 'aria-label': t('df.hand.of', { dice: (p.hand || []).map(colorName).join(', ') || '—' }) },
        (p.hand || []).map((c) => chip(c))),
      h('strong', { class: 'df-ptotal' }, String(p.total)));
  }));
}

function bagEl(view) {
  const bag = view.bag || {};
  return h('p', { class: 'df-bag small', 'aria-label': t('df.bag') + ': ' + COLORS.map((c) => `${colorName(c)} ${bag[c] ?? 0}`).join(', ') },
    h('span', { 'aria-hidden': 'true' }, t('df.bag') + ' '),
    COLORS.map((c) => h('span', { class: 'df-bagitem', 'aria-hidden': 'true' }, chip(c, 'small'), String(bag[c] ?? 0))));
}

// renderBoard draws the arena and the notepad. The live page passes
// {seat, deadlineAt}; the replay passes {seat} only and gets no controls.
export function renderBoard(view, opts = {}) {
  const mySeat = opts.seat ?? -3;
  const isLive = 'deadlineAt' in opts;
  const canvas = h('canvas', {
    class: 'df-arena', width: px(EXTENT), height: px(EXTENT), 'data-extent': EXTENT, 'data-testid': 'df-arena',
    role: 'img', 'aria-label': t('df.arena') + '. ' + arenaText(view),
  });
  views.set(canvas, view);
  if (isLive) {
    live.canvas = canvas;
    live.view = view;
    live.armed = null; // renderActions arms it when the seat may flick
    live.drag = null;
    attachPointer(canvas);
    tableOptions();
  }
  redraw(canvas);
  const best = view.best;
  return h('div', { class: 'df-board', 'data-phase': view.phase },
    h('div', { class: 'df-arena-wrap' }, canvas,
      h('p', { class: 'df-legend small muted' }, t('df.legend'))),
    h('div', { class: 'df-side' },
      h('p', { class: 'df-round' }, view.over ? t('table.over') : t('df.round', { n: view.round, of: view.rounds })),
      view.over ? null : h('p', { class: 'df-phase', 'data-testid': 'df-phase' }, phaseLine(view)),
      view.bonus && !view.over ? h('p', { class: 'df-bonus small' }, '+1 ', t('df.bonus.granted')) : null,
      best ? h('p', { class: 'df-offer', 'data-testid': 'df-offer' }, t('df.offer', { n: best.total })) : null,
      playersEl(view, mySeat),
      bagEl(view),
      notepad(view, mySeat)));
}

// --- the choices ----------------------------------------------------------------------

function legalKinds(view) {
  const legal = view.legal || [];
  return { flick: legal.some((a) => a && a.flick), score: legal.some((a) => a && a.score) };
}

// renderActions draws the hand, the keyboard controls of a flick and the
// scoring buttons. send(action) plays it.
export function renderActions(view, send) {
  if (view.over) return null;
  const k = legalKinds(view);
  if (!k.flick && !k.score) return null;
  const me = (view.players || []).find((p) => p.name === view.next) || { hand: [] };
  const hand = me.hand || [];
  const key = `${view.round}:${view.next}:${view.flicksLeft}:${hand.join(',')}`;
  if (aim.key !== key) { aim.key = key; aim.die = 0; }
  if (aim.die >= hand.length) aim.die = 0;
  const panel = h('section', { class: 'df-actions', 'aria-label': t('df.act.title'), 'data-testid': 'df-actions' });
  const rerender = () => {
    const fresh = renderActions(view, send);
    if (fresh && panel.isConnected) panel.replaceWith(fresh);
  };
  live.rerenderActions = rerender;

  if (k.flick && hand.length) {
    const flick = () => {
      const a = { die: aim.die, base: aim.base, offset: live.options?.shiftBases ? Math.round(aim.offset * 1000) / 1000 : 0, angle: Math.round(aim.angle * 10000) / 10000, power: Math.round(aim.power * 1000) / 1000 };
      live.lastFlick = a;
      live.armed = null;
      if (live.canvas) live.canvas.dataset.armed = 'false';
      send({ flick: a });
    };
    live.armed = { flick };
    if (live.canvas) { live.canvas.dataset.armed = 'true'; redrawLive(); }
    const dieButtons = hand.map((c, i) => h('button', {
      type: 'button', class: `choice df-die-btn${i === aim.die ? ' chosen' : ''}`, 'aria-pressed': String(i === aim.die),
      'data-action': `die:${i}`, 'data-die': i, 'data-color': c,
      onclick: () => { aim.die = i; rerender(); },
    }, chip(c), ' ', colorName(c)));
    const baseButtons = [0, 1, 2, 3].map((b) => h('button', {
      type: 'button', class: `choice df-base-btn${b === aim.base ? ' chosen' : ''}`, 'aria-pressed': String(b === aim.base),
      'data-action': `base:${b}`, 'data-base': b,
      onclick: () => { aim.base = b; aim.offset = 0; rerender(); redrawLive(); },
    }, t('df.base.' + b)));
    const deg = Math.round(aim.angle * 180 / Math.PI);
    const maxDeg = Math.round(ARENA.maxAngle * 180 / Math.PI);
    const angleOut = h('output', { for: 'df-angle', id: 'df-angle-out' }, t('df.angle.value', { n: deg }));
    const powerOut = h('output', { for: 'df-power', id: 'df-power-out' }, `${Math.round(aim.power * 100)}%`);
    const angle = h('input', {
      id: 'df-angle', type: 'range', min: -maxDeg, max: maxDeg, step: 1, value: String(deg), 'aria-describedby': 'df-angle-out',
      oninput: (e) => { aim.angle = Number(e.target.value) * Math.PI / 180; angleOut.textContent = t('df.angle.value', { n: Number(e.target.value) }); redrawLive(); },
    });
    const power = h('input', {
      id: 'df-power', type: 'range', min: 0, max: 100, step: 1, value: String(Math.round(aim.power * 100)), 'aria-describedby': 'df-power-out',
      oninput: (e) => { aim.power = Number(e.target.value) / 100; powerOut.textContent = `${e.target.value}%`; redrawLive(); },
    });
    const shift = live.options?.shiftBases ? h('p', { class: 'df-slider' },
      h('label', { for: 'df-offset' }, t('df.offset')),
      h('input', {
        id: 'df-offset', type: 'range', min: -100, max: 100, step: 1, value: String(Math.round(aim.offset * 100)),
        oninput: (e) => { aim.offset = Number(e.target.value) / 100; redrawLive(); },
      })) : null;
    panel.append(...[
      h('h3', null, view.mayStop ? t('df.act.bonus') : t('df.act.flick', { n: view.flicksLeft })),
      h('p', { class: 'df-hint small', id: 'df-hint' }, t('df.hint.drag')),
      h('div', { class: 'choices df-hand-btns', role: 'group', 'aria-label': t('df.act.die') }, dieButtons),
      h('div', { class: 'choices df-bases', role: 'group', 'aria-label': t('df.act.base') }, baseButtons),
      h('p', { class: 'df-slider' }, h('label', { for: 'df-angle' }, t('df.angle')), angle, angleOut),
      h('p', { class: 'df-slider' }, h('label', { for: 'df-power' }, t('df.power')), power, powerOut),
      shift,
      h('div', { class: 'choices' }, h('button', {
        type: 'button', class: 'primary big', 'data-testid': 'df-flick', 'data-action': 'flick', onclick: flick,
      }, '➶ ', t('df.btn.flick', { color: colorName(hand[aim.die]), base: t('df.base.' + aim.base) })))].filter(Boolean));
  }
  if (k.score && view.best) {
    const parts = describeChoice(view);
    panel.append(
      h('h3', null, view.mayStop ? t('df.act.orscore') : t('df.act.score')),
      parts.length ? h('ul', { class: 'df-parts small' }, parts.map((s) => h('li', null, s))) : h('p', { class: 'small muted' }, t('df.nothing.to.score')),
      h('div', { class: 'choices' },
        h('button', {
          type: 'button', class: 'choice legal primary', 'data-testid': 'df-score', 'data-action': 'score-best',
          onclick: () => send({ score: view.best.choice }),
        }, '✓ ', t('df.btn.score', { n: view.best.total })),
        view.best.total > 0 ? h('button', {
          type: 'button', class: 'choice legal', 'data-testid': 'df-nothing', 'data-action': 'score-nothing',
          onclick: () => send({ score: { groups: [] } }),
        }, t('df.btn.nothing')) : null));
  }
  return panel.childNodes.length ? panel : null;
}

// describeChoice puts the offer into words, part by part.
function describeChoice(view) {
  const ch = view.best?.choice;
  if (!ch) return [];
  const arena = view.arena || [];
  const at = (s) => { const p = parseHole(s); return parseDie(arena[p.row]?.[p.col]); };
  const out = [];
  for (const g of ch.groups || []) {
    const colors = g.map(at).filter((d) => d && d.color !== 'white').map((d) => d.color);
    const marker = (view.markers || []).find((m) => g.includes(m.hole) && m.uncovered && COLORS.includes(m.kind));
    const color = colors[0] || marker?.kind || 'white';
    out.push(t('df.part.group', { color: colorName(color), n: g.length, holes: g.join(' ') }));
  }
  if (ch.centre) out.push(t('df.part.centre'));
  for (const b of ch.blasts || []) out.push(t(b.line === 'row' ? 'df.part.row' : 'df.part.column', { hole: b.at }));
  return out;
}

// --- words ------------------------------------------------------------------------------

export function resultText(view) {
  if (!view.over) return '';
  const ps = view.players || [];
  const w = view.winners || [];
  const best = Math.max(...ps.map((p) => p.total));
  if (ps.length === 1) return t('df.practice.result', { score: best });
  return t(w.length > 1 ? 'table.winners' : 'table.winner', { names: w.join(' & '), score: best });
}

// --- animation ---------------------------------------------------------------------------

// animatePath moves a die of color along path (mm points PathStepMillis
// apart) on the canvas, over the board it shows. Long paths are played
// faster so that no landing takes more than 2.5 s.
function animatePath(canvas, color, path) {
  return new Promise((resolve) => {
    const step = ARENA.pathStepMillis;
    const total = (path.length - 1) * step;
    const speedup = Math.max(1, total / 2500);
    const ctx = canvas.getContext('2d');
    const start = performance.now();
    let done = false;
    const finish = () => { if (!done) { done = true; delete canvas.dataset.animating; resolve(); } };
    canvas.dataset.animating = 'true';
    document.body.dataset.dfAnimations = String(Number(document.body.dataset.dfAnimations || 0) + 1);
    // A hidden page gets no frames: do not hold the updates up.
    setTimeout(finish, total / speedup + 800);
    const frame = (now) => {
      if (done) return;
      const tt = Math.max(0, Math.min(total, (now - start) * speedup));
      const i = Math.min(path.length - 2, Math.floor(tt / step));
      const f = Math.min(1, (tt - i * step) / step);
      const a = path[i]; const b = path[i + 1];
      const x = a.x + (b.x - a.x) * f; const y = a.y + (b.y - a.y) * f;
      const speed = Math.hypot(b.x - a.x, b.y - a.y) / (step / 1000);
      redraw(canvas);
      // The trail.
      ctx.save();
      ctx.strokeStyle = 'rgba(255,255,255,.35)';
      ctx.lineWidth = px(1.2);
      ctx.beginPath();
      ctx.moveTo(cx(path[0].x), cy(path[0].y));
      for (let j = 1; j <= i; j++) ctx.lineTo(cx(path[j].x), cy(path[j].y));
      ctx.lineTo(cx(x), cy(y));
      ctx.stroke();
      ctx.restore();
      // A fast die hops: draw it a little bigger.
      drawDie(ctx, color, 0, x, y, 1 + Math.min(0.35, speed / 4000), false);
      if (tt >= total) { setTimeout(finish, 60); return; }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

// beforeUpdate runs on the old board: a landing's path plays on its canvas.
export async function beforeUpdate(root, events, fast) {
  for (const ev of events || []) {
    if (ev.kind === 'flick') live.lastFlick = ev.data?.flick || live.lastFlick;
    if (ev.kind !== 'land') continue;
    const path = ev.data?.path || [];
    const canvas = root.querySelector('canvas.df-arena');
    if (!canvas || fast || reducedMotion() || document.hidden || path.length < 2) continue;
    await animatePath(canvas, ev.data.color, path);
  }
}

export function afterUpdate(root, events) {
  for (const ev of events || []) {
    if (ev.kind === 'land' && ev.data?.where === 'hole') {
      root.querySelector('.df-arena-wrap')?.classList.add('landed');
    }
  }
}
