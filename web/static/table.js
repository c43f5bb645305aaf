// The table page: one WebSocket to /ws/{id} (docs/protocol.md), the game
// drawn by the game's own module, presence and seat controls, the action
// log, the result and the replay once the game is over.

import { h, replace, $ } from '/static/dom.js';
import { t, onLangChange, langSwitch, refusal } from '/static/i18n.js';
import { api, savedName, saveName, cleanName } from '/static/api.js';
import { replayViewer } from '/static/replay.js';
import { renderer, loadGames, gameInfo, botLabel, narrationLines } from '/static/games.js';

const SPECTATOR = -3;

const tableId = decodeURIComponent(location.pathname.replace(/\/+$/, '').split('/').pop());

const st = {
  ws: null,
  seat: SPECTATOR,
  summary: null,
  version: 0,
  view: null,
  turn: null,
  deadlineAt: 0, // performance.now() time the running clock ends, 0 = none
  connected: false,
  retry: 0, // reconnect attempts since the last welcome
  retryAt: 0,
  log: [], // {narration: [{key, args}]} (a move's events in words) or {key, vars}
  alert: null, // {rule, message}, {text} or {key}; conn: true = about the connection
  note: '', // polite status (copied link, ...)
  nextId: 1,
  queue: Promise.resolve(),
  backlog: 0,
  renderer: null,
  replay: null, // the replay viewer element once the game is over
  joinError: '',
};

// --- the page skeleton ---------------------------------------------------------

const app = $('#app');
const els = {
  title: h('h1', { class: 'table-title' }),
  conn: h('p', { class: 'conn', role: 'status', 'aria-live': 'polite', 'data-testid': 'conn' }),
  turn: h('p', { class: 'turn-line', 'aria-live': 'polite', 'data-testid': 'turn' }),
  clock: h('span', { class: 'clock', 'data-testid': 'clock' }),
  alert: h('div', { class: 'alert', role: 'alert', 'data-testid': 'alert' }),
  result: h('section', { class: 'result', 'aria-live': 'polite', 'data-testid': 'result' }),
  join: h('section', { class: 'join-panel card' }),
  actions: h('div', { class: 'actions-slot', 'data-testid': 'actions' }),
  board: h('div', { class: 'board-slot', 'data-testid': 'board' }),
  replay: h('div', { class: 'replay-slot' }),
  players: h('section', { class: 'players card', 'aria-labelledby': 'players-h' }),
  share: h('section', { class: 'share card' }),
  log: h('ol', { class: 'log', role: 'log', 'aria-live': 'polite', 'data-testid': 'log' }),
  logHead: h('h2', { id: 'log-h' }),
  polite: h('p', { class: 'sr-only', 'aria-live': 'polite' }),
};
const back = h('a', { href: '/', class: 'back' });

replace(app,
  h('header', { class: 'topbar' },
    h('a', { href: '/', class: 'brand' }, 'dicehall'), back, h('span', { class: 'spacer' }), langSwitch()),
  h('div', { class: 'table-layout' },
    h('div', { class: 'main-col' },
      h('div', { class: 'statusbar card' }, els.title, h('div', { class: 'status-row' }, els.turn, els.clock), els.conn),
      els.alert, els.result, els.join, els.actions, els.board, els.replay),
    h('aside', { class: 'side-col' }, els.players, els.share,
      h('section', { class: 'card log-card', 'aria-labelledby': 'log-h' }, els.logHead, els.log))),
  els.polite);

// --- rendering -------------------------------------------------------------------

function names() {
  if (st.view && st.view.players) return st.view.players.map((p) => p.name);
  return (st.summary?.seats || []).map((s) => s.name);
}

function status() {
  const s = st.summary;
  if (!s) return 'open';
  if (st.view && st.view.over) return 'over';
  if (s.status === 'open' && s.seats.every((x) => x.kind === 'bot' || x.taken)) return 'live';
  return s.status;
}

// mark exposes the page's position in the game on <body> (data-version,
// data-seat): handy for people debugging, and for the browser tests.
function mark() {
  document.body.dataset.version = String(st.version);
  document.body.dataset.seat = String(st.seat);
  document.body.dataset.status = status();
}

function renderAll() {
  mark();
  document.title = `${st.summary?.title || 'dicehall'} · dicehall`;
  back.textContent = '← ' + t('table.back');
  els.title.textContent = st.summary ? `${st.summary.title}` : t('table.loading');
  renderConn();
  renderTurn();
  renderAlert();
  renderJoin();
  renderPlayers();
  renderShare();
  renderBoard();
  renderLog();
  renderResult();
}

function renderConn() {
  if (st.connected) els.conn.textContent = st.seat === SPECTATOR ? t('table.spectating') : t('table.connected');
  else if (st.retryAt) els.conn.textContent = t('table.reconnecting', { n: Math.max(1, Math.ceil((st.retryAt - Date.now()) / 1000)) });
  else els.conn.textContent = t('table.loading');
  els.conn.classList.toggle('bad', !st.connected && !!st.retryAt);
}

function renderTurn() {
  const tr = st.turn;
  let text = '';
  let mine = false;
  if (!st.view) text = '';
  else if (status() === 'open') text = t('table.waiting');
  else if (st.view.over || tr?.over) text = t('table.over');
  else if (tr?.chance) text = t('table.turn.dice');
  else if (tr && tr.actors && tr.actors.length) {
    mine = tr.actors.includes(st.seat);
    const botMine = mine && st.summary?.seats?.[st.seat]?.takenOver;
    text = botMine ? t('table.turn.bot') : mine ? t('table.turn.you') : t('table.turn.other', { name: names()[tr.actors[0]] ?? '?' });
  }
  els.turn.textContent = text;
  els.turn.classList.toggle('mine', mine);
  renderClock();
}

function renderClock() {
  if (!st.deadlineAt || (st.view && st.view.over)) {
    els.clock.textContent = '';
    return;
  }
  const s = Math.max(0, Math.ceil((st.deadlineAt - performance.now()) / 1000));
  // ◷ rather than an emoji clock: plain fonts (DejaVu) have it.
  replace(els.clock, h('span', { 'aria-hidden': 'true' }, '◷ '), t('table.clock', { s }));
  els.clock.classList.toggle('low', s <= 10);
}

function renderAlert() {
  const a = st.alert;
  if (!a) { els.alert.replaceChildren(); els.alert.hidden = true; return; }
  els.alert.hidden = false;
  const text = a.rule !== undefined ? t('refused', { msg: refusal(a.rule, a.message, st.summary?.game) }) : a.key ? t(a.key, a.vars) : a.text;
  replace(els.alert, h('span', { class: 'alert-text' }, text),
    h('button', { type: 'button', class: 'linkish', 'aria-label': '×', onclick: () => { st.alert = null; renderAlert(); } }, '×'));
}

function renderJoin() {
  const s = st.summary;
  const free = s && st.seat === SPECTATOR && status() === 'open'
    ? s.seats.map((x, i) => ({ ...x, i })).filter((x) => x.kind === 'human' && !x.taken) : [];
  if (!free.length) { els.join.hidden = true; els.join.replaceChildren(); return; }
  els.join.hidden = false;
  // The name field stays in place across redraws (a late answer, a language
  // switch): what was typed, the caret and the focus are the person's.
  let field = els.join.querySelector('p.field');
  let input = field?.querySelector('#join-name');
  if (input) {
    field.querySelector('label').textContent = t('table.join.name');
  } else {
    input = h('input', { id: 'join-name', type: 'text', maxlength: 24, autocomplete: 'nickname', value: savedName(), required: true });
    field = h('p', { class: 'field' }, h('label', { for: 'join-name' }, t('table.join.name')), input);
  }
  for (const c of [...els.join.children]) if (c !== field) c.remove();
  if (!field.isConnected) els.join.append(field);
  field.before(h('h2', null, t('table.join')));
  field.after(...[
    h('div', { class: 'choices' }, free.map((x) => h('button', {
      type: 'button', class: 'primary', 'data-join': x.i,
      onclick: () => join(x.i, input),
    }, t('table.join.as', { n: x.i + 1 })))),
    st.joinError ? h('p', { class: 'error', role: 'alert' }, st.joinError) : null,
  ].filter(Boolean));
}

async function join(seat, input) {
  const name = cleanName(input.value);
  if (!name) { st.joinError = t('home.name.missing'); renderJoin(); $('#join-name')?.focus(); return; }
  saveName(name);
  st.joinError = '';
  try {
    await api.join(tableId, seat, name);
  } catch (e) {
    st.joinError = t('table.join.failed', { msg: e.message });
    renderJoin();
    return;
  }
  // The cookie is set: a fresh connection is welcomed as the seat.
  reconnectNow();
}

// botName names a seat's bot kind (the game's default bot when the server
// does not say which plays a seat taken over).
function botName(kind) {
  const game = st.summary?.game;
  return botLabel(game, kind || gameInfo(game)?.defaultBot || '');
}

function seatLine(x, i) {
  const bits = [];
  if (x.kind === 'bot') bits.push(t('seat.bot', { bot: botName(x.bot) }));
  else if (!x.taken) bits.push(t('seat.free'));
  else {
    bits.push(x.connected ? t('seat.online') : t('seat.offline'));
    if (x.takenOver) bits.push(t(i === st.seat ? 'seat.botplays.you' : 'seat.botplays', { bot: botName(x.bot) }));
  }
  const online = x.kind === 'bot' || (x.taken && x.connected);
  return h('li', { class: `seat${i === st.seat ? ' me' : ''}${st.turn?.actors?.includes(i) && !st.view?.over ? ' acting' : ''}`, 'data-seat': i },
    h('span', { class: `dot${online ? ' on' : ''}`, 'aria-hidden': 'true' }),
    h('span', { class: 'seat-name' }, x.name || t('seat.free')),
    i === st.seat ? h('span', { class: 'tag' }, t('seat.you')) : null,
    h('span', { class: 'seat-state' }, bits.join(' · ')));
}

function renderPlayers() {
  const s = st.summary;
  if (!s) { els.players.replaceChildren(); return; }
  const list = h('ul', { class: 'seats', 'data-testid': 'presence' }, s.seats.map(seatLine));
  const buttons = [];
  const live = status() === 'live';
  if (st.seat >= 0 && live) {
    const me = s.seats[st.seat];
    if (me && me.takenOver) buttons.push(h('button', { type: 'button', class: 'primary', 'data-testid': 'reclaim', onclick: () => send({ type: 'reclaim' }) }, t('table.reclaim')));
    else buttons.push(h('button', { type: 'button', 'data-testid': 'leave', onclick: () => send({ type: 'leave' }) }, t('table.leave')));
    s.seats.forEach((x, i) => {
      if (i !== st.seat && x.kind === 'human' && x.taken && !x.connected && !x.takenOver) {
        buttons.push(h('button', { type: 'button', 'data-takeover': i, onclick: () => send({ type: 'takeover', seat: i }) }, t('table.takeover', { name: x.name })));
      }
    });
  }
  replace(els.players, h('h2', { id: 'players-h' }, t('table.players')), list,
    buttons.length ? h('div', { class: 'seat-buttons' }, buttons) : null);
}

function renderShare() {
  if (!st.summary || status() === 'over') { els.share.hidden = true; return; }
  els.share.hidden = false;
  const url = location.origin + '/t/' + encodeURIComponent(tableId);
  const field = h('input', { type: 'text', readonly: true, value: url, id: 'share-url', 'aria-label': t('table.share') });
  replace(els.share,
    h('p', { class: 'small' }, t('table.share')), field,
    h('button', {
      type: 'button', onclick: async () => {
        try { await navigator.clipboard.writeText(url); } catch { field.select(); }
        els.polite.textContent = t('table.copied');
      },
    }, t('table.copy')));
}

function renderBoard() {
  if (!st.view || !st.renderer) { els.board.replaceChildren(); els.actions.replaceChildren(); return; }
  const r = st.renderer;
  const focusKey = document.activeElement?.dataset?.action || document.activeElement?.id;
  const canAct = st.seat >= 0 && status() === 'live' && !st.summary?.seats?.[st.seat]?.takenOver;
  // The board is the stage: with act and canAct a renderer lets people play
  // on the board itself (tap a die, a cell, drag in the arena).
  replace(els.board, r.renderBoard(st.view, { seat: st.seat, deadlineAt: st.deadlineAt, act, canAct, redraw: renderBoard }));
  // redraw lets a renderer show a choice of its own panel (a toggle) at once.
  const panel = canAct ? r.renderActions(st.view, act, { redraw: renderBoard }) : null;
  replace(els.actions, panel);
  // Keep keyboard focus where it was when the choices are redrawn.
  if (focusKey) {
    const again = els.actions.querySelector(`[data-action='${CSS.escape(focusKey)}']`) || document.getElementById(focusKey);
    if (again) again.focus();
  }
}

function renderLog() {
  els.logHead.textContent = t('table.log');
  const items = [];
  for (const e of st.log) {
    const lines = e.narration ? narrationLines(e.narration) : [t(e.key, e.vars)];
    for (const l of lines) items.push(h('li', null, l));
  }
  if (!items.length) items.push(h('li', { class: 'muted' }, t('table.log.empty')));
  replace(els.log, items.reverse());
}

function renderResult() {
  if (!st.view || !st.view.over || !st.renderer) { els.result.hidden = true; els.replay.hidden = true; return; }
  els.result.hidden = false;
  replace(els.result, h('h2', null, t('table.results')),
    h('p', { class: 'winner-line', 'data-testid': 'winner' }, st.renderer.resultText(st.view, st.seat)),
    h('ol', { class: 'final-scores' }, st.view.players
      .map((p, i) => ({ p, i })).sort((a, b) => b.p.total - a.p.total)
      .map(({ p }) => h('li', null, h('span', { class: 'pname' }, p.name), ' ', h('strong', null, String(p.total))))));
  els.replay.hidden = false;
  if (!st.replay) {
    st.replay = replayViewer({ tableId, renderer: st.renderer, mySeat: st.seat });
    replace(els.replay, st.replay.el);
  } else {
    st.replay.rerender();
  }
}

// --- the connection ---------------------------------------------------------------

function connect() {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(tableId)}`);
  st.ws = ws;
  ws.onmessage = (e) => {
    if (ws !== st.ws) return;
    let msg;
    try { msg = JSON.parse(e.data); } catch { return; }
    onMessage(msg);
  };
  ws.onclose = () => {
    if (ws !== st.ws) return;
    const was = st.connected;
    st.connected = false;
    // Our own seat is not connected now, whatever the last presence said;
    // the others' we will learn again on the welcome.
    const me = st.seat >= 0 && st.summary?.seats?.[st.seat];
    if (was && me) {
      me.connected = false;
      renderPlayers();
    }
    scheduleReconnect();
  };
}

function scheduleReconnect() {
  // Back off 0.5 s, 1 s, 2 s ... up to 10 s, with a little jitter.
  const delay = Math.min(10000, 500 * 2 ** Math.min(st.retry, 5)) * (0.8 + Math.random() * 0.4);
  st.retry++;
  st.retryAt = Date.now() + delay;
  renderConn();
  clearTimeout(st.retryTimer);
  st.retryTimer = setTimeout(() => { st.retryAt = 0; connect(); renderConn(); }, delay);
}

function reconnectNow() {
  clearTimeout(st.retryTimer);
  st.retryAt = 0;
  const old = st.ws;
  st.ws = null;
  if (old) old.close();
  connect();
}

function send(msg) {
  if (!st.ws || st.ws.readyState !== WebSocket.OPEN) {
    st.alert = { key: 'table.notsent', conn: true };
    renderAlert();
    return null;
  }
  msg.id = st.nextId++;
  st.ws.send(JSON.stringify(msg));
  return msg.id;
}

function act(action) {
  st.alert = null;
  renderAlert();
  send({ type: 'act', action, version: st.version });
}

async function onMessage(msg) {
  switch (msg.type) {
    case 'welcome':
      st.queue = st.queue.then(() => welcome(msg));
      break;
    case 'update':
      st.backlog++;
      st.queue = st.queue.then(() => update(msg)).finally(() => { st.backlog--; });
      break;
    case 'refused':
      st.alert = { rule: msg.rule, message: msg.message };
      renderAlert();
      break;
    case 'error':
      st.alert = { text: t('table.error', { msg: msg.message || msg.code }) };
      renderAlert();
      break;
    case 'presence':
      if (st.summary) st.summary.seats = msg.seats;
      mark();
      renderPlayers();
      renderJoin();
      renderTurn();
      renderShare();
      if (st.view) renderBoard();
      break;
    default:
      break;
  }
}

async function loadRenderer(game) {
  st.renderer = await renderer(game);
}

async function welcome(msg) {
  st.connected = true;
  st.retry = 0;
  st.retryAt = 0;
  // A warning about the connection is over once we are back.
  if (st.alert?.conn) st.alert = null;
  // Back after missing some updates (a lost connection, a gap): the board
  // is whole again, but the log lacks those moves; say so.
  if (st.view && msg.version > st.version) {
    st.log.push({ key: 'table.log.caughtup', vars: { n: msg.version - st.version } });
  }
  st.seat = msg.seat;
  st.summary = msg.table;
  st.version = msg.version;
  st.view = msg.view;
  st.turn = msg.turn;
  st.deadlineAt = msg.deadline ? performance.now() + msg.deadline : 0;
  if (!st.renderer) await loadRenderer(msg.table.game);
  renderAll();
}

async function update(msg) {
  if (msg.version !== st.version + 1) {
    // A gap: we missed something. A fresh connection sends a fresh welcome.
    if (msg.version > st.version) reconnectNow();
    return;
  }
  const fast = st.backlog > 1;
  if (st.renderer) await st.renderer.beforeUpdate(els.board, msg.events, fast);
  st.version = msg.version;
  st.view = msg.view;
  st.turn = msg.turn;
  st.deadlineAt = msg.deadline ? performance.now() + msg.deadline : 0;
  st.log.push({ narration: msg.narration || [] });
  if (st.log.length > 300) st.log.splice(0, st.log.length - 300);
  if (msg.move && msg.move.seat === st.seat) st.alert = null;
  renderTurn();
  renderAlert();
  renderPlayers();
  renderBoard();
  renderLog();
  renderResult();
  renderShare();
  mark();
  if (st.renderer) st.renderer.afterUpdate(els.board, msg.events, fast);
}

setInterval(() => {
  renderClock();
  if (!st.connected && st.retryAt) renderConn();
}, 1000);
setInterval(() => { if (st.connected && st.ws?.readyState === WebSocket.OPEN) send({ type: 'ping' }); }, 25000);
// The browser says the network is back: do not wait out the backoff.
window.addEventListener('online', () => { if (!st.connected && st.retryAt) reconnectNow(); });

onLangChange(() => (st.notFound ? notFound() : renderAll()));

function notFound() {
  els.title.textContent = t('table.notfound');
  back.textContent = '← ' + t('table.back');
  els.conn.textContent = '';
}

// Ask once over HTTP first: an unknown table gets a clear sentence rather
// than a socket that keeps reconnecting.
renderAll();
// The games' descriptions name the bots and carry the English of the log.
loadGames().then(() => { if (!st.notFound) renderAll(); }, () => { /* the kinds stand in for the names */ });
api.table(tableId).then((s) => {
  if (!st.summary) st.summary = s;
  connect();
}, (e) => {
  if (e.status === 404) { st.notFound = true; notFound(); return; }
  connect();
});
