// The review of a finished game (docs/protocol.md, "Reviews and hints"):
// GET /api/tables/{id}/review, polled while the server makes it, then
// - a card per seat: accuracy, points and win chance lost, inaccuracies,
//   mistakes and blunders, time per decision, the costliest decisions;
// - above the replay's board, a graph of the game's balance (every seat's
//   chance of winning over the game, the turning point, every decision
//   marked by its verdict), or the points lost at each decision when the
//   game gives no win chances; a click or the arrow keys go through the
//   decisions, and the replay shows the position each was made in, with the
//   choice made beside the best and the reasons.
// Generic: the words of a choice and of its reasons are keys of the game's
// catalogue; a renderer that exports renderReview(data, boardEl) draws a
// decision's data (an aim, a landing) on the replay's board.

import { h, svg, replace, reducedMotion } from '/static/dom.js';
import { t, currentLang } from '/static/i18n.js';
import { api } from '/static/api.js';

const VERDICTS = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'];
const MARK = { best: '✓', good: '', inaccuracy: '?!', mistake: '?', blunder: '??' };
const SEAT_COLOURS = 6; // review.css has --rv-seat-0 … -5
const POLL_FIRST = 1000;
const POLL_MAX = 8000;

// Numbers in the page's language.
function num(x, digits = 1) {
  return new Intl.NumberFormat(currentLang(), { maximumFractionDigits: digits }).format(x);
}
function pct(x) {
  const digits = x > 0 && x < 0.1 ? 1 : 0;
  return new Intl.NumberFormat(currentLang(), { style: 'percent', maximumFractionDigits: digits }).format(x);
}
function seconds(ms) { return t('review.seconds', { s: num(ms / 1000, ms < 1000 ? 2 : ms < 10000 ? 1 : 0) }); }

// saysText puts a choice (engine.Valued's says) into words.
function saysText(v) {
  const parts = (v?.says || []).map((m) => t(m.key, m.args));
  return parts.length ? parts.join(', ') : '—';
}

// notesList is a judgement's reasons as a list (null without any).
function notesList(notes, attrs = {}) {
  if (!notes?.length) return null;
  return h('ul', { class: 'rv-notes', ...attrs }, notes.map((m) => h('li', null, t(m.key, m.args))));
}

// hintLines is a coach's hint (an engine.Judgement without a choice made)
// in words: the best choice, what it is worth, and why.
export function hintLines(j) {
  const worth = [
    j.best && j.measure ? t('hint.worth', { n: num(j.best.points), measure: t(j.measure) }) : '',
    hasWin(j.best) ? t('review.win.of', { pct: pct(j.best.win) }) : '',
  ].filter(Boolean).join(' · ');
  return [
    h('p', { class: 'coach-line', 'data-testid': 'hint-best' },
      h('span', { class: 'coach-icon', 'aria-hidden': 'true' }, '✦'),
      h('span', null, h('strong', null, t('hint.best', { what: saysText(j.best) })),
        worth ? h('span', { class: 'muted small' }, ' (' + worth + ')') : null)),
    notesList(j.notes, { 'data-testid': 'hint-notes' }),
  ];
}

function seatClass(seat) { return `rv-c${((seat % SEAT_COLOURS) + SEAT_COLOURS) % SEAT_COLOURS}`; }

function verdictEl(v) {
  return h('span', { class: `rv-verdict v-${v}` },
    MARK[v] ? h('span', { class: 'rv-sym', 'aria-hidden': 'true' }, MARK[v] + ' ') : null, t('review.verdict.' + v));
}

// hasWin: the game gave win chances for this choice.
const hasWin = (v) => typeof v?.win === 'number' && v.win >= 0;

// reviewPanel builds the review of table tableId for the table page: el is
// the per-seat card; the graph goes into the replay viewer's strip.
// names(i) names seat i as the page does.
export function reviewPanel({ tableId, renderer, names, replay }) {
  const rs = { status: 'loading', done: 0, total: 0, review: null, error: '', tries: 0, delay: POLL_FIRST, timer: 0, sel: -1 };
  const el = h('section', { class: 'review card', 'aria-labelledby': 'review-h', 'data-testid': 'review' });
  const strip = h('div', { class: 'rv-strip', 'data-testid': 'review-strip' });
  const graph = h('div', {
    class: 'rv-graph', role: 'slider', tabindex: 0, 'data-testid': 'review-graph',
    onkeydown: onGraphKey, onclick: onGraphClick,
  });
  const detail = h('div', { class: 'rv-detail', 'data-testid': 'review-detail' });
  let width = 0;
  const watch = new ResizeObserver(() => {
    const w = Math.round(graph.clientWidth);
    if (w && w !== width) { width = w; drawGraph(); }
  });
  watch.observe(graph);

  const decisions = () => rs.review?.decisions || [];
  const name = (seat) => (names ? names(seat) : rs.review?.players?.[seat]) ?? '#' + (seat + 1);
  const balanced = () => (rs.review?.balance?.length || 0) > 0;

  // --- the server ---------------------------------------------------------------

  async function load() {
    clearTimeout(rs.timer);
    if (!el.isConnected && rs.status !== 'loading') return;
    try {
      const r = await api.review(tableId);
      if (r?.status === 'ready' && r.review) {
        rs.status = 'ready';
        rs.review = r.review;
        rs.error = '';
        draw();
        if (drawn && drawn.i === replay.step()) onStep(drawn.i, drawn.board);
        return;
      }
      rs.status = 'pending';
      rs.done = r?.done || 0;
      rs.total = r?.total || 0;
      draw();
      again(rs.delay);
      rs.delay = Math.min(POLL_MAX, rs.delay * 1.5);
    } catch (e) {
      if (e.status === 404) { rs.status = 'none'; draw(); return; }
      // The table may be marked over a moment after its last update.
      if (e.status === 409 && rs.tries++ < 5) { again(500); return; }
      if ((e.status === 429 || e.status === 503) && rs.tries++ < 8) {
        again(1000 * Math.min(Math.max(e.retryAfter, 1), 10));
        return;
      }
      rs.status = 'error';
      rs.error = e.message;
      draw();
    }
  }

  function again(ms) {
    clearTimeout(rs.timer);
    rs.timer = setTimeout(load, ms);
  }

  // --- choosing a decision --------------------------------------------------------

  // select shows decision k, and its position in the replay (jump).
  function select(k, { jump = true, scroll = false } = {}) {
    const ds = decisions();
    if (!ds.length) return;
    rs.sel = Math.max(0, Math.min(ds.length - 1, k));
    if (jump && replay.step() !== ds[rs.sel].move) replay.jump(ds[rs.sel].move);
    else drawSelected();
    if (scroll) strip.scrollIntoView({ block: 'start', behavior: reducedMotion() ? 'auto' : 'smooth' });
  }

  // follow: the replay shows step i (by its own buttons, or a jump).
  function follow(i) {
    const ds = decisions();
    if (rs.status !== 'ready' || i === null) return;
    const k = ds.findIndex((d) => d.move === i);
    if (k >= 0) rs.sel = k;
    drawSelected();
  }

  // The replay drew step i on board: the decision made there, if any, is
  // the one shown, and its renderer may draw the decision's data on it.
  let drawn = null;
  function onStep(i, board) {
    drawn = { i, board };
    if (rs.status !== 'ready') return;
    follow(i);
    const d = decisions()[rs.sel];
    if (d && d.move === i && d.data !== undefined && renderer.renderReview) {
      try { renderer.renderReview(d.data, board); } catch (e) { console.error(e); }
    }
  }
  replay.onStep(onStep);

  function onGraphKey(e) {
    const ds = decisions();
    if (!ds.length || e.altKey || e.ctrlKey || e.metaKey) return;
    const at = rs.sel < 0 ? -1 : rs.sel;
    const to = {
      ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1,
      PageDown: at + 10, PageUp: at - 10, Home: 0, End: ds.length - 1,
    }[e.key];
    if (to === undefined) return;
    // The replay's own keys step moves; these go through decisions.
    e.preventDefault();
    e.stopPropagation();
    select(at < 0 && e.key.startsWith('Arrow') ? 0 : to);
  }

  // onGraphClick picks the decision nearest the pointer.
  function onGraphClick(e) {
    const ds = decisions();
    const box = graph.querySelector('svg')?.getBoundingClientRect();
    if (!ds.length || !box || !box.width) return;
    const x = e.clientX - box.left;
    let best = 0;
    ds.forEach((d, k) => { if (Math.abs(xOf(d.move) - x) < Math.abs(xOf(ds[best].move) - x)) best = k; });
    select(best);
  }

  // --- drawing ----------------------------------------------------------------------

  function draw() {
    el.hidden = rs.status === 'none';
    const head = h('h2', { id: 'review-h' }, t('review.title'));
    if (rs.status !== 'ready') {
      replay.setStrip(null);
      if (rs.status === 'none') { el.replaceChildren(); return; }
      if (rs.status === 'error') {
        replace(el, head, h('p', { class: 'error', role: 'alert' }, t('review.failed', { msg: rs.error })),
          h('button', { type: 'button', onclick: () => { rs.status = 'loading'; rs.tries = 0; rs.delay = POLL_FIRST; draw(); load(); } }, t('review.retry')));
        return;
      }
      const line = rs.status === 'loading' ? t('review.loading')
        : rs.total ? t('review.progress', { done: rs.done, total: rs.total }) : t('review.queued');
      replace(el, head,
        h('p', { class: 'rv-pending', role: 'status', 'data-testid': 'review-pending' }, line),
        rs.total ? h('progress', { max: rs.total, value: rs.done, 'aria-label': t('review.title') }) : null);
      return;
    }
    const rv = rs.review;
    const ds = decisions();
    replace(el, head,
      h('p', { class: 'muted small' }, ds.length ? t('review.count', { n: ds.length }) : t('review.empty'),
        ds.length ? ' ' + t(balanced() ? 'review.about.win' : 'review.about.points') : null),
      h('ul', { class: 'rv-seats', 'data-testid': 'review-seats' }, (rv.seats || []).map(seatCard)),
      ds.length ? h('details', { class: 'rv-all', 'data-testid': 'review-all' },
        h('summary', null, t('review.all', { n: ds.length })),
        h('ol', { class: 'rv-list' }, ds.map((d, k) => h('li', null, decisionButton(d, k, 'review.item'))))) : null);
    if (!ds.length) { replay.setStrip(null); return; }
    replay.setStrip(strip);
    replace(strip,
      h('div', { class: 'rv-strip-head' },
        h('h3', { id: 'rv-graph-h' }, t(balanced() ? 'review.balance' : 'review.losses')),
        legend()),
      graph,
      h('p', { class: 'muted small rv-keys' }, t('review.keys')),
      detail);
    graph.setAttribute('aria-labelledby', 'rv-graph-h');
    width = Math.round(graph.clientWidth) || width;
    drawGraph();
    drawSelected();
  }

  function legend() {
    const n = rs.review.players?.length || 0;
    return h('ul', { class: 'rv-legend', 'aria-hidden': 'true' },
      Array.from({ length: n }, (_, i) => h('li', { class: seatClass(i) },
        svg('svg', { class: 'rv-swatch', viewBox: '0 0 24 10', width: 24, height: 10, 'aria-hidden': 'true' },
          balanced() ? svg('line', { x1: 1, y1: 5, x2: 23, y2: 5, class: `rv-line ${seatClass(i)} rv-dash${i % 4}` })
            : svg('rect', { x: 7, y: 0, width: 10, height: 10, class: `rv-bar ${seatClass(i)}` })),
        name(i))));
  }

  function seatCard(s) {
    const rv = rs.review;
    const worst = (s.worst || []).map((k) => [k, rv.decisions[k]]).filter(([, d]) => d);
    const stat = (label, value, testid) => h('div', { class: 'rv-stat', 'data-testid': testid }, h('dt', null, label), h('dd', null, value));
    const anyWin = rv.decisions.some((d) => d.seat === s.seat && hasWin(d.chosen));
    return h('li', { class: `rv-seat ${seatClass(s.seat)}`, 'data-seat': s.seat },
      h('h3', null, h('span', { class: 'rv-dot', 'aria-hidden': 'true' }), name(s.seat)),
      h('p', { class: 'rv-acc' }, h('strong', { 'data-testid': 'review-accuracy' }, pct(s.accuracy)), ' ', t('review.accuracy')),
      h('dl', { class: 'rv-stats' },
        stat(t('review.points'), num(s.pointsLost), 'review-points'),
        anyWin ? stat(t('review.win'), pct(s.winLost), 'review-win') : null,
        stat(t('review.errors'), h('span', { class: 'rv-counts' },
          ['inaccuracy', 'mistake', 'blunder'].map((v) => {
            const n = s[{ inaccuracy: 'inaccuracies', mistake: 'mistakes', blunder: 'blunders' }[v]] || 0;
            return h('abbr', { class: `v-${v}${n ? '' : ' zero'}`, title: t('review.verdict.' + v) }, t('review.n.' + v, { n }));
          })), 'review-counts'),
        stat(t('review.thought'), s.decisions ? seconds(s.thought) : '—', 'review-thought')),
      worst.length ? h('div', { class: 'rv-worst' },
        h('h4', null, t('review.worst')),
        h('ol', null, worst.map(([k, d]) => h('li', null, decisionButton(d, k, 'review.worst.item'))))) : null);
  }

  // decisionButton: a button that shows decision k in the replay.
  function decisionButton(d, k, key) {
    return h('button', {
      type: 'button', class: `rv-pick v-${d.verdict}`, 'data-decision': k,
      onclick: () => select(k, { scroll: true }),
    }, h('span', { class: `rv-dot ${seatClass(d.seat)}`, 'aria-hidden': 'true' }),
    t(key, { i: k + 1, move: d.move + 1, name: name(d.seat), verdict: t('review.verdict.' + d.verdict), lost: lostText(d) }));
  }

  // lostText says what a decision cost: win chance when the game gives it,
  // else points.
  function lostText(d) {
    if (d.verdict === 'best') return t('review.lost.none');
    if (hasWin(d.chosen) && hasWin(d.best)) return t('review.lost.win', { pct: pct(d.winLost) });
    return t('review.lost.points', { n: num(d.pointsLost), pts: d.pointsLost });
  }

  // --- the graph ------------------------------------------------------------------------

  const H = () => (width < 600 ? 150 : 190);
  const PAD = { l: 38, r: 12, t: 16, b: 18 };
  function xOf(move) {
    const n = Math.max(1, rs.review?.moves || 1);
    return PAD.l + (Math.max(0, width) - PAD.l - PAD.r) * (move / n);
  }

  function drawGraph() {
    if (rs.status !== 'ready' || !width) return;
    const ds = decisions();
    const hgt = H();
    const bottom = hgt - PAD.b;
    const plot = bottom - PAD.t;
    const kids = [];
    let yOf;
    if (balanced()) {
      yOf = (w) => bottom - plot * Math.max(0, Math.min(1, w));
      for (const v of [0, 0.5, 1]) {
        kids.push(svg('line', { x1: PAD.l, x2: width - PAD.r, y1: yOf(v), y2: yOf(v), class: v === 0.5 ? 'rv-grid mid' : 'rv-grid' }),
          svg('text', { x: PAD.l - 5, y: yOf(v) + 4, class: 'rv-axis', 'text-anchor': 'end' }, pct(v)));
      }
      const pts = rs.review.balance;
      const n = rs.review.players.length;
      for (let s = 0; s < n; s++) {
        // Every seat starts even, before the first decision.
        const line = [[xOf(0), yOf(1 / n)], ...pts.map((p) => [xOf(p.move), yOf(p.win[s])])];
        kids.push(svg('polyline', { points: line.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' '), class: `rv-line ${seatClass(s)} rv-dash${s % 4}` }));
      }
    } else {
      const most = Math.max(1e-9, ...ds.map((d) => d.pointsLost));
      yOf = (p) => bottom - plot * (p / most);
      kids.push(svg('line', { x1: PAD.l, x2: width - PAD.r, y1: bottom, y2: bottom, class: 'rv-grid' }),
        svg('line', { x1: PAD.l, x2: width - PAD.r, y1: PAD.t, y2: PAD.t, class: 'rv-grid' }),
        svg('text', { x: PAD.l - 5, y: PAD.t + 4, class: 'rv-axis', 'text-anchor': 'end' }, num(most)),
        svg('text', { x: PAD.l - 5, y: bottom + 4, class: 'rv-axis', 'text-anchor': 'end' }, '0'));
      const bw = Math.max(2, Math.min(10, ((width - PAD.l - PAD.r) / Math.max(1, rs.review.moves)) * 0.8));
      ds.forEach((d) => {
        const y = Math.min(yOf(d.pointsLost), bottom - 2);
        kids.push(svg('rect', { x: xOf(d.move) - bw / 2, y, width: bw, height: bottom - y, class: `rv-bar ${seatClass(d.seat)}` }));
      });
    }
    // The turning point.
    const turn = ds[rs.review.turning];
    if (turn) {
      const x = xOf(turn.move);
      kids.push(svg('line', { x1: x, x2: x, y1: PAD.t - 4, y2: bottom, class: 'rv-turning' }),
        svg('text', { x: Math.min(width - PAD.r, Math.max(PAD.l, x)), y: PAD.t - 5, class: 'rv-turning-label', 'text-anchor': x > width * 0.75 ? 'end' : x < width * 0.25 ? 'start' : 'middle' }, t('review.turning')));
    }
    // The replay's position, then every decision's mark.
    kids.push(svg('line', { class: 'rv-cursor off', y1: PAD.t, y2: bottom, x1: 0, x2: 0 }));
    // A decision without win chances sits on its seat's line as it was.
    let last = null;
    ds.forEach((d, k) => {
      if (d.balance?.length) last = d.balance;
      const y = !balanced() ? Math.min(yOf(d.pointsLost), bottom - 2)
        : yOf(last ? last[d.seat] : 1 / rs.review.players.length);
      kids.push(markEl(d, xOf(d.move), y, k));
    });
    kids.push(svg('circle', { class: 'rv-ring off', r: 9, cx: 0, cy: 0 }));
    replace(graph, svg('svg', { viewBox: `0 0 ${width} ${hgt}`, width, height: hgt, 'aria-hidden': 'true', focusable: 'false' }, kids));
    placeCursor();
  }

  function markEl(d, x, y, k) {
    const cls = `rv-mark v-${d.verdict}`;
    const at = { 'data-decision': k };
    switch (d.verdict) {
      case 'blunder':
        return svg('path', { ...at, class: cls, d: `M${x} ${y - 7}L${x + 6.5} ${y + 5}L${x - 6.5} ${y + 5}Z` });
      case 'mistake':
        return svg('path', { ...at, class: cls, d: `M${x} ${y - 6}L${x + 6} ${y}L${x} ${y + 6}L${x - 6} ${y}Z` });
      case 'inaccuracy':
        return svg('circle', { ...at, class: cls, cx: x, cy: y, r: 4.5 });
      default:
        return svg('circle', { ...at, class: cls, cx: x, cy: y, r: 3.2 });
    }
  }

  // placeCursor moves the replay's line and the ring of the chosen decision.
  function placeCursor() {
    const s = graph.querySelector('svg');
    if (!s) return;
    const step = replay.step();
    const cur = s.querySelector('.rv-cursor');
    cur.classList.toggle('off', step === null);
    cur.setAttribute('x1', xOf(step ?? 0));
    cur.setAttribute('x2', xOf(step ?? 0));
    const ring = s.querySelector('.rv-ring');
    const mark = s.querySelector(`.rv-mark[data-decision="${rs.sel}"]`);
    const shown = mark && decisions()[rs.sel]?.move === step;
    for (const m of s.querySelectorAll('.rv-mark.sel')) m.classList.remove('sel');
    if (shown) {
      const b = mark.getBBox();
      ring.setAttribute('cx', b.x + b.width / 2);
      ring.setAttribute('cy', b.y + b.height / 2);
      mark.classList.add('sel');
    }
    ring.classList.toggle('off', !shown);
  }

  // drawSelected: the graph's value and the chosen decision in words.
  function drawSelected() {
    if (rs.status !== 'ready') return;
    const ds = decisions();
    const d = ds[rs.sel];
    const here = d && d.move === replay.step();
    graph.setAttribute('aria-valuemin', '1');
    graph.setAttribute('aria-valuemax', String(ds.length));
    graph.setAttribute('aria-valuenow', String(d ? rs.sel + 1 : 1));
    graph.setAttribute('aria-valuetext', d
      ? t('review.valuetext', { i: rs.sel + 1, n: ds.length, name: name(d.seat), verdict: t('review.verdict.' + d.verdict), lost: lostText(d) })
      : t('review.pick'));
    graph.dataset.selected = d ? String(rs.sel) : '';
    placeCursor();
    if (!here) {
      replace(detail, h('p', { class: 'muted' }, t('review.here.none')));
      detail.dataset.decision = '';
      return;
    }
    detail.dataset.decision = String(rs.sel);
    replace(detail, decisionEl(d, rs.sel, ds.length));
  }

  function decisionEl(d, k, n) {
    const value = (v) => [num(v.points), hasWin(v) ? ' · ' + t('review.win.of', { pct: pct(v.win) }) : ''].join('');
    const same = d.verdict === 'best' || JSON.stringify(d.best?.action) === JSON.stringify(d.chosen?.action);
    return h('div', { class: `rv-decision ${seatClass(d.seat)}` },
      h('p', { class: 'rv-dhead' }, verdictEl(d.verdict), ' ',
        h('span', null, t('review.decision', { i: k + 1, n, name: name(d.seat), move: d.move + 1 })),
        d.thought ? h('span', { class: 'muted' }, ' · ' + t('review.took', { time: seconds(d.thought) })) : null),
      h('dl', { class: 'rv-choice' },
        h('div', { class: 'rv-row played' }, h('dt', null, t('review.played')),
          h('dd', { 'data-testid': 'review-played' }, h('span', { class: 'rv-says' }, saysText(d.chosen)), h('span', { class: 'rv-val' }, value(d.chosen)))),
        same ? null : h('div', { class: 'rv-row best' }, h('dt', null, t('review.best')),
          h('dd', { 'data-testid': 'review-best' }, h('span', { class: 'rv-says' }, saysText(d.best)), h('span', { class: 'rv-val' }, value(d.best)))),
        h('div', { class: 'rv-row cost' }, h('dt', null, t('review.cost')),
          h('dd', null, same ? t('review.cost.best') : [
            d.measure ? t('review.cost.points', { n: num(d.pointsLost), pts: d.pointsLost, measure: t(d.measure) })
              : t('review.points.n', { n: num(d.pointsLost), pts: d.pointsLost }),
            hasWin(d.chosen) && hasWin(d.best) ? ' · ' + t('review.cost.win', { pct: pct(d.winLost) }) : '',
          ].join('')))),
      notesList(d.notes));
  }

  draw();
  load();
  return {
    el,
    rerender() { draw(); follow(replay.step()); },
  };
}
