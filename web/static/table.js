// The table page: one WebSocket to /ws/{id} (docs/protocol.md), the game
// drawn by the game's own module on the stage, presence and seat controls,
// the action log, the turn signal of a hidden page, the result, the
// rematch and the replay once the game is over.

import { h, replace, $ } from '/static/dom.js';
import { t, onLangChange, langSwitch, refusal, winnersText } from '/static/i18n.js';
import { api, savedName, saveName, cleanName } from '/static/api.js';
import { pref } from '/static/prefs.js';
import { replayViewer } from '/static/replay.js';
import { reviewPanel, hintLines } from '/static/review.js';
import { settingsMenu } from '/static/settings.js';
import { renderer, loadGames, gameInfo, botLabel, botSeatName, personName, narrationLines } from '/static/games.js';
import { chatPanel } from '/static/chat.js';
import { profileLink, place } from '/static/players.js';
import { accountLink, whoami } from '/static/auth.js';
import { durationText } from '/static/durations.js';

const SPECTATOR = -3;
const TOAST_MS = 8000; // a refusal stays this long unless closed
const LOG_MAX = 300;

const tableId = decodeURIComponent(location.pathname.replace(/\/+$/, '').split('/').pop());

const st = {
  ws: null,
  seat: SPECTATOR,
  summary: null,
  version: 0,
  view: null,
  turn: null,
  deadlineAt: 0, // performance.now() time the running clock ends, 0 = none
  bank: 0, // ms of the seat's time bank left (turn-based tables)
  connected: false,
  retry: 0, // reconnect attempts since the last welcome
  retryAt: 0,
  log: [], // {version, narration: [{key, args}]} (a move's events in words) or {key, vars}
  alert: null, // {rule, message}, {text} or {key}; conn: true = about the connection
  nextId: 1,
  queue: Promise.resolve(),
  backlog: 0,
  renderer: null,
  replay: null, // the replay viewer once the game is over
  review: null, // the review of the game (review.js) once it is over
  coach: null, // the hint asked for: {id, state: thinking|ready|refused, version, hint, text}
  joinError: '',
  joinOffered: false, // the join panel was shown to this person
  me: null, // the signed-in account: it joins under its own name
  rematch: null, // the summary of a rematch someone started from this table
  rematchBusy: false,
  signalled: false, // the hidden page was told it is your turn
  wasMine: false,
};

// --- the page skeleton ---------------------------------------------------------

const app = $('#app');
const els = {
  title: h('h1', { class: 'table-title' }),
  conn: h('span', { class: 'conn', role: 'status', 'aria-live': 'polite', 'data-testid': 'conn' }),
  turn: h('p', { class: 'turn-line', 'aria-live': 'polite', 'data-testid': 'turn' }),
  clock: h('span', { class: 'clock', 'data-testid': 'clock' }),
  hint: h('p', { class: 'first-hint small', 'data-testid': 'first-hint' }),
  alert: h('div', { class: 'toast', role: 'alert', 'data-testid': 'alert', hidden: true }),
  banner: h('div', { class: 'bot-banner', role: 'status', 'data-testid': 'bot-banner', hidden: true }),
  rematch: h('div', { class: 'rematch-note', role: 'status', 'data-testid': 'rematch-note', hidden: true }),
  result: h('section', { class: 'result card', 'aria-labelledby': 'result-h', 'data-testid': 'result', hidden: true }),
  join: h('section', { class: 'join-panel card' }),
  actions: h('div', { class: 'actions-slot', 'data-testid': 'actions' }),
  board: h('div', { class: 'board-slot', 'data-testid': 'board' }),
  replay: h('div', { class: 'replay-slot' }),
  review: h('div', { class: 'review-slot' }),
  hintBtn: h('button', { type: 'button', class: 'hint-btn', 'data-testid': 'hint', hidden: true, onclick: () => askHint() }),
  coach: h('section', { class: 'coach card', 'aria-live': 'polite', 'data-testid': 'coach', hidden: true }),
  players: h('section', { class: 'players card', 'aria-labelledby': 'players-h' }),
  share: h('section', { class: 'share card' }),
  // Focusable, so the keyboard can scroll it.
  log: h('div', { class: 'log', role: 'log', 'aria-live': 'polite', 'aria-labelledby': 'log-h', tabindex: 0, 'data-testid': 'log' }),
  logList: h('ol', { class: 'log-list' }),
  logHead: h('h2', { id: 'log-h' }),
  rules: h('a', { class: 'rules-link', 'data-testid': 'rules-link', hidden: true }),
  polite: h('p', { class: 'sr-only', 'aria-live': 'polite' }),
};
// The chat: a panel of its own, apart from the log (chat.js).
const chat = chatPanel({
  send: (msg) => send(msg),
  seat: () => st.seat,
  canWrite: () => st.seat >= 0 || st.summary?.settings?.chat !== 'players',
  alert: (a) => showAlert(a),
});
const back = h('a', { href: '/', class: 'back' });
const backWord = h('span', { class: 'back-word' });

replace(app,
  h('header', { class: 'topbar' },
    h('a', { href: '/', class: 'brand' }, 'dicehall'), back, h('span', { class: 'spacer' }),
    els.rules, accountLink(), settingsMenu({ onTry: (name) => { if (name === 'sound') beep(); } }), langSwitch()),
  h('div', { class: 'statusbar' },
    els.title, h('span', { class: 'sep', 'aria-hidden': 'true' }, '·'), els.turn, els.hintBtn, els.clock, els.conn, els.hint),
  h('div', { class: 'table-layout' },
    h('div', { class: 'main-col stage' },
      els.banner, els.rematch, els.result, els.join, els.coach, els.actions, els.board, els.review, els.replay),
    h('aside', { class: 'side-col' }, els.players, els.share, chat.el,
      h('section', { class: 'card log-card', 'aria-labelledby': 'log-h' }, els.logHead, els.log))),
  els.alert, els.polite);
back.append(h('span', { 'aria-hidden': 'true' }, '← '), backWord);
els.log.append(els.logList);

// --- names ----------------------------------------------------------------------

// botName names a seat's bot kind (the game's default bot when the server
// does not say which plays a seat taken over).
function botName(kind) {
  const game = st.summary?.game;
  return botLabel(game, kind || gameInfo(game)?.defaultBot || '');
}

// seatName is how the page names a seat: a person's own name, a bot seat
// by its bot in the page's language ("Greedy bot 2" is "Robot glouton 2").
function seatName(i) {
  const x = st.summary?.seats?.[i];
  if (x && x.kind === 'bot') return botSeatName(st.summary.game, x);
  return personName(x) || st.view?.players?.[i]?.name || t('seat.free');
}

// renames maps the server's names of bot seats, and of deleted accounts'
// seats, to the page's.
function renames() {
  const m = new Map();
  (st.summary?.seats || []).forEach((x, i) => {
    if ((x.kind === 'bot' || x.former) && x.name) {
      const n = seatName(i);
      if (n !== x.name) m.set(x.name, n);
    }
  });
  return m;
}

// localize replaces, anywhere in a view or a narration, a string that is a
// bot seat's server name by its name in the page's language: the same
// string everywhere, so a renderer comparing names still finds them equal.
function localize(v, m = renames()) {
  if (!m.size) return v;
  if (typeof v === 'string') return m.get(v) ?? v;
  if (Array.isArray(v)) return v.map((x) => localize(x, m));
  if (v && typeof v === 'object') {
    const out = {};
    for (const [k, x] of Object.entries(v)) out[k] = localize(x, m);
    return out;
  }
  return v;
}

function localView() { return st.view ? localize(st.view) : null; }

function names() {
  const n = (st.view?.players || st.summary?.seats || []).length;
  return Array.from({ length: n }, (_, i) => seatName(i));
}

// --- state -----------------------------------------------------------------------

function status() {
  const s = st.summary;
  if (!s) return 'open';
  if (st.view && st.view.over) return 'over';
  if (s.status === 'open' && s.seats.every((x) => x.kind === 'bot' || x.taken)) return 'live';
  return s.status;
}

function mySeatInfo() { return st.seat >= 0 ? st.summary?.seats?.[st.seat] : null; }
function botHasMySeat() { return !!mySeatInfo()?.takenOver && status() === 'live'; }

// myTurn: the person (not a bot for them) is to act now.
function myTurn() {
  return st.seat >= 0 && status() === 'live' && !st.view?.over && !botHasMySeat() &&
    !!st.turn?.actors?.includes(st.seat);
}

// mark exposes the page's position in the game on <body> (data-version,
// data-seat): handy for people debugging, and for the browser tests.
function mark() {
  document.body.dataset.version = String(st.version);
  document.body.dataset.seat = String(st.seat);
  document.body.dataset.status = status();
}

// --- rendering -------------------------------------------------------------------

function renderAll() {
  mark();
  backWord.textContent = t('table.back');
  back.setAttribute('aria-label', t('table.back'));
  els.title.textContent = st.summary ? st.summary.title : t('table.loading');
  renderRules();
  renderConn();
  renderTurn();
  renderAlert();
  renderBanner();
  renderJoin();
  renderPlayers();
  renderShare();
  renderBoard();
  renderLog();
  chat.render();
  renderResult();
}

function renderRules() {
  const game = st.summary?.game;
  els.rules.hidden = !game;
  if (!game) return;
  els.rules.href = '/rules/' + encodeURIComponent(game);
  els.rules.textContent = t('table.rules');
  // A first game of this kind: one line pointing to the rules.
  const seen = hintSeen(game);
  const show = !seen && st.seat >= 0 && status() !== 'over';
  els.hint.hidden = !show;
  els.rules.classList.toggle('new', show);
  if (!show) { els.hint.replaceChildren(); return; }
  const title = gameInfo(game)?.title || st.summary.title;
  replace(els.hint, t('table.hint.first', { game: title }), ' ',
    h('a', { href: '/rules/' + encodeURIComponent(game), target: '_blank', rel: 'noopener' }, t('table.hint.rules')),
    h('button', { type: 'button', class: 'linkish', 'aria-label': t('table.hint.close'), title: t('table.hint.close'), onclick: () => { setHintSeen(game); renderRules(); } }, '×'));
}

function hintSeen(game) {
  try { return localStorage.getItem('dh.seen.' + game) === '1'; } catch { return true; }
}
function setHintSeen(game) {
  try { localStorage.setItem('dh.seen.' + game, '1'); } catch { /* storage may be off */ }
}

function renderConn() {
  // Connected is the normal state: said to screen readers, not shown.
  if (st.connected) els.conn.textContent = st.seat === SPECTATOR ? t('table.spectating') : t('table.connected');
  else if (st.retryAt) els.conn.textContent = t('table.reconnecting', { n: Math.max(1, Math.ceil((st.retryAt - Date.now()) / 1000)) });
  else els.conn.textContent = t('table.loading');
  els.conn.classList.toggle('bad', !st.connected && !!st.retryAt);
  els.conn.classList.toggle('ok', st.connected);
}

function renderTurn() {
  const tr = st.turn;
  let text = '';
  let mine = false;
  if (!st.view) text = '';
  else if (status() === 'open') text = t('table.waiting');
  else if (st.view.over || tr?.over) text = t('table.over.short');
  else if (tr?.chance) text = t('table.turn.dice');
  else if (tr && tr.actors && tr.actors.length) {
    mine = tr.actors.includes(st.seat);
    const botMine = mine && botHasMySeat();
    // A game whose turns are not simply someone's (a vote, a challenge)
    // says what is going on itself.
    const own = !botMine && st.renderer?.turnText?.(st.view, tr, st.seat);
    text = botMine ? t('table.turn.bot') : own || (mine ? t('table.turn.you') : t('table.turn.other', { name: names()[tr.actors[0]] ?? '?' }));
  }
  els.turn.textContent = text;
  els.turn.classList.toggle('mine', mine && !botHasMySeat());
  renderHintButton();
  renderClock();
  signal();
}

// --- the coach's hints ---------------------------------------------------------------

// hintsOffered: a practice game (the page's person is the only one seated,
// the table is not rated) of a game with a coach, on their turn.
function hintsOffered() {
  const s = st.summary;
  if (!s || s.rated || !gameInfo(s.game)?.reviews || !myTurn()) return false;
  const people = (s.seats || []).map((x, i) => (x.kind === 'human' ? i : -1)).filter((i) => i >= 0);
  return people.length === 1 && people[0] === st.seat;
}

function renderHintButton() {
  const on = hintsOffered();
  els.hintBtn.hidden = !on;
  if (!on) return;
  replace(els.hintBtn, h('span', { 'aria-hidden': 'true' }, '✦ '), t('hint.ask'));
  els.hintBtn.disabled = st.coach?.state === 'thinking';
  els.hintBtn.setAttribute('aria-expanded', String(!!st.coach));
}

function askHint() {
  const id = send({ type: 'hint' });
  if (id === null) return;
  st.coach = { id, state: 'thinking', version: st.version };
  renderCoach();
  renderHintButton();
}

function closeHint() {
  const had = st.coach;
  st.coach = null;
  renderCoach();
  renderHintButton();
  if (had?.state === 'ready') renderBoard(); // without the highlight
  if (had) els.hintBtn.focus();
}

// onHint: the coach's answer; one for a position the table has left is
// dropped (the next move made it stale).
function onHint(msg) {
  if (!st.coach || msg.id !== st.coach.id) return;
  if (msg.version !== st.version || !msg.hint) { st.coach = null; renderCoach(); renderHintButton(); return; }
  st.coach = { ...st.coach, state: 'ready', hint: msg.hint };
  renderCoach();
  renderHintButton();
  highlightHint();
}

// highlightHint shows the coach's choice on the board, when the game's
// renderer can (an optional export).
function highlightHint() {
  const c = st.coach;
  if (c?.state !== 'ready' || c.version !== st.version || !st.renderer?.highlightHint) return;
  try { st.renderer.highlightHint(c.hint.best?.action, els.board); } catch (e) { console.error(e); }
}

function renderCoach() {
  const c = st.coach;
  if (!c) { els.coach.hidden = true; els.coach.replaceChildren(); return; }
  els.coach.hidden = false;
  const close = h('button', { type: 'button', class: 'linkish coach-close', 'data-testid': 'hint-close', 'aria-label': t('hint.close'), title: t('hint.close'), onclick: closeHint }, '×');
  if (c.state === 'thinking') {
    replace(els.coach, h('p', { class: 'coach-line thinking', 'data-testid': 'hint-thinking' }, h('span', { class: 'coach-spin', 'aria-hidden': 'true' }), t('hint.thinking')));
    return;
  }
  if (c.state === 'refused') {
    replace(els.coach, h('p', { class: 'coach-line error', 'data-testid': 'hint-refused' }, c.text), close);
    return;
  }
  replace(els.coach, hintLines(c.hint), close);
}

function renderClock() {
  if (!st.deadlineAt || (st.view && st.view.over)) {
    els.clock.textContent = '';
    return;
  }
  const ms = st.deadlineAt - performance.now();
  const s = Math.max(0, Math.ceil(ms / 1000));
  // A long clock (turn-based tables) reads in days, hours and minutes,
  // with the time bank the seat has left.
  const bank = st.turn?.actors?.includes(st.seat) ? Math.min(st.bank, ms) : 0;
  const text = s < 600 ? t('table.clock', { s }) : t('table.clock.long', { left: durationText(ms) });
  // ◷ rather than an emoji clock: plain fonts (DejaVu) have it.
  replace(els.clock, h('span', { 'aria-hidden': 'true' }, '◷ '), text,
    bank > 0 ? ' · ' + t('table.clock.bank', { left: durationText(bank) }) : '');
  els.clock.classList.toggle('low', s <= 10);
}

// showAlert puts a refusal or a problem in the toast: it floats over the
// stage (the board never moves), and goes after a while or with ×.
function showAlert(a) {
  st.alert = a;
  clearTimeout(st.alertTimer);
  if (a) st.alertTimer = setTimeout(() => { st.alert = null; renderAlert(); }, TOAST_MS);
  renderAlert();
}

function renderAlert() {
  const a = st.alert;
  if (!a) { els.alert.replaceChildren(); els.alert.hidden = true; return; }
  els.alert.hidden = false;
  const text = a.rule !== undefined ? t('refused', { msg: refusal(a.rule, a.message, st.summary?.game) }) : a.key ? t(a.key, a.vars) : a.text;
  replace(els.alert, h('span', { class: 'alert-text' }, text),
    h('button', { type: 'button', class: 'toast-close', 'aria-label': t('table.close'), title: t('table.close'), onclick: () => showAlert(null) }, '×'));
}

// renderBanner: when a bot plays your seat, the stage says so first, with
// the way back.
function renderBanner() {
  if (!botHasMySeat()) { els.banner.hidden = true; els.banner.replaceChildren(); delete els.banner.dataset.text; return; }
  els.banner.hidden = false;
  const bot = botName(mySeatInfo()?.bot);
  // Redrawn at every bot move: keep the same button (and a keyboard user's
  // focus on it) while the words stay the same.
  const text = t('table.banner.bot', { bot });
  const words = `${text}|${t('table.reclaim')}`;
  if (els.banner.dataset.text === words) return;
  els.banner.dataset.text = words;
  replace(els.banner,
    h('span', { class: 'bot-banner-icon', 'aria-hidden': 'true' }, '⚙'),
    h('span', { class: 'bot-banner-text' }, text),
    h('button', { type: 'button', class: 'primary', 'data-testid': 'reclaim', onclick: () => send({ type: 'reclaim' }) }, t('table.reclaim')));
}

function freeSeats() {
  const s = st.summary;
  if (!s || status() !== 'open') return [];
  return s.seats.map((x, i) => ({ ...x, i })).filter((x) => x.kind === 'human' && !x.taken);
}

function renderJoin() {
  const free = st.seat === SPECTATOR ? freeSeats() : [];
  // Someone else took the last seat while this person looked at the offer:
  // say so rather than silently turning the panel into nothing.
  const lost = st.seat === SPECTATOR && st.joinOffered && !free.length && status() !== 'over';
  if (!free.length && !lost) { els.join.hidden = true; els.join.replaceChildren(); return; }
  els.join.hidden = false;
  if (!free.length) {
    replace(els.join, h('p', { class: 'error', role: 'alert', 'data-testid': 'join-lost' }, st.joinError || t('table.join.none')),
      h('button', { type: 'button', onclick: () => { st.joinOffered = false; st.joinError = ''; renderJoin(); } }, t('table.join.watch')));
    return;
  }
  st.joinOffered = true;
  // The name field stays in place across redraws (a late answer, a language
  // switch): what was typed, the caret and the focus are the person's. A
  // signed-in player is not asked: the server seats the account's name.
  let field = els.join.querySelector('p.field');
  let input = field?.querySelector('#join-name');
  if (st.me) {
    input = null;
    field = h('p', { class: 'field join-account', 'data-testid': 'join-account' }, t('table.join.account', { name: st.me.name }));
  } else if (input) {
    field.querySelector('label').textContent = t('table.join.name');
  } else {
    input = h('input', { id: 'join-name', type: 'text', maxlength: 24, autocomplete: 'nickname', value: savedName(), required: true });
    field = h('p', { class: 'field' }, h('label', { for: 'join-name' }, t('table.join.name')), input);
  }
  for (const c of [...els.join.children]) if (c !== field) c.remove();
  if (!field.isConnected) els.join.append(field);
  field.before(h('h2', null, t('table.join')));
  field.after(...[
    st.joinError ? h('p', { class: 'error', role: 'alert', 'data-testid': 'join-error' }, st.joinError) : null,
    h('div', { class: 'choices' }, free.map((x) => h('button', {
      type: 'button', class: 'primary', 'data-join': x.i,
      onclick: () => join(x.i, input),
    }, t('table.join.as', { n: x.i + 1 })))),
  ].filter(Boolean));
}

async function join(seat, input) {
  const name = input ? cleanName(input.value) : st.me.name;
  if (!name) { st.joinError = t('home.name.missing'); renderJoin(); $('#join-name')?.focus(); return; }
  saveName(name);
  st.joinError = '';
  try {
    await api.join(tableId, seat, name);
  } catch (e) {
    if (e.status === 409 || e.status === 410) {
      // Lost the race: someone took the seat (or the table started) a
      // moment before. Say so, and offer what is left.
      try { st.summary = { ...st.summary, ...(await api.table(tableId)) }; } catch { /* keep what we had */ }
      const left = freeSeats().length;
      st.joinError = e.status === 410 ? t('table.join.failed', { msg: e.message })
        : left ? t('table.join.lost', { n: seat + 1 }) : t('table.join.lost.all', { n: seat + 1 });
      renderAll();
    } else {
      st.joinError = t('table.join.failed', { msg: e.message });
      renderJoin();
    }
    return;
  }
  // The cookie is set: a fresh connection is welcomed as the seat.
  st.joinOffered = false;
  reconnectNow();
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
    h('span', { class: 'seat-name' }, x.kind === 'bot' || x.taken ? profileLink(x.profile, seatName(i)) : t('seat.free')),
    i === st.seat ? h('span', { class: 'tag' }, t('seat.you')) : null,
    h('span', { class: 'seat-state' }, bits.join(' · ')));
}

function renderPlayers() {
  const s = st.summary;
  if (!s) { els.players.replaceChildren(); return; }
  const list = h('ul', { class: 'seats', 'data-testid': 'presence' }, s.seats.map(seatLine));
  const buttons = [];
  if (st.seat >= 0 && status() === 'live' && !botHasMySeat()) {
    buttons.push(h('button', { type: 'button', 'data-testid': 'leave', onclick: () => send({ type: 'leave' }) }, t('table.leave')));
  }
  if (st.seat >= 0 && status() === 'live') {
    s.seats.forEach((x, i) => {
      if (i !== st.seat && x.kind === 'human' && x.taken && !x.connected && !x.takenOver) {
        buttons.push(h('button', { type: 'button', 'data-takeover': i, onclick: () => send({ type: 'takeover', seat: i }) }, t('table.takeover', { name: seatName(i) })));
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
  const button = h('button', { type: 'button', 'data-testid': 'copy' }, t('table.copy'));
  button.addEventListener('click', async () => {
    let ok = true;
    try { await navigator.clipboard.writeText(url); } catch {
      field.select();
      try { ok = document.execCommand('copy'); } catch { ok = false; }
    }
    // Seen on the button for 2 s, heard by screen readers.
    button.textContent = ok ? t('table.copied.short') : t('table.copy.select');
    button.classList.add('done');
    els.polite.textContent = ok ? t('table.copied') : t('table.copy.select');
    clearTimeout(st.copyTimer);
    st.copyTimer = setTimeout(() => { button.textContent = t('table.copy'); button.classList.remove('done'); }, 2000);
  });
  replace(els.share, h('p', { class: 'small' }, t('table.share')), h('div', { class: 'share-row' }, field, button));
}

function renderBoard() {
  if (!st.view || !st.renderer) { els.board.replaceChildren(); els.actions.replaceChildren(); return; }
  const r = st.renderer;
  const view = localView();
  const focusKey = document.activeElement?.dataset?.action || document.activeElement?.id;
  const canAct = st.seat >= 0 && status() === 'live' && !botHasMySeat();
  // The board is the stage: with act and canAct a renderer lets people play
  // on the board itself (tap a die, a cell, drag in the arena).
  replace(els.board, r.renderBoard(view, { seat: st.seat, deadlineAt: st.deadlineAt, act, canAct, redraw: renderBoard }));
  // redraw lets a renderer show a choice of its own panel (a toggle) at once.
  const panel = canAct ? r.renderActions(view, act, { redraw: renderBoard }) : null;
  replace(els.actions, panel);
  highlightHint();
  // Keep keyboard focus where it was when the choices are redrawn.
  if (focusKey) {
    const again = els.actions.querySelector(`[data-action='${CSS.escape(focusKey)}']`) || document.getElementById(focusKey);
    if (again) again.focus();
  }
}

function renderLog() {
  els.logHead.textContent = t('table.log');
  const m = renames();
  const items = [];
  for (const e of st.log) {
    const lines = e.narration ? narrationLines(localize(e.narration, m)) : [t(e.key, e.vars)];
    for (const l of lines) items.push(h('li', e.key ? { class: 'muted' } : null, l));
  }
  if (!items.length) items.push(h('li', { class: 'muted' }, t('table.log.empty')));
  replace(els.logList, items.reverse());
}

// ranking: the players best first, with places (ties share a place): the
// server's places when it gives them (winners first, a forfeit last), else
// by score.
function ranking(view) {
  const rows = (view.players || []).map((p, i) => ({ i, name: seatName(i), total: p.total ?? 0 }));
  const places = st.summary?.places;
  if (places?.length === rows.length) {
    for (const r of rows) r.place = places[r.i] + 1;
  } else {
    for (const r of rows) r.place = 1 + rows.filter((x) => x.total > r.total).length;
  }
  rows.sort((a, b) => (a.place - b.place) || (b.total - a.total) || (a.i - b.i));
  return rows;
}

// winnerLine is the game's own sentence, unless a forfeit moved someone
// else to the first place.
function winnerLine(view, rows) {
  const forfeit = (st.summary?.seats || []).some((x) => x.forfeit);
  if (!forfeit || !st.summary?.places || !rows.length) return st.renderer.resultText(view, st.seat);
  const first = rows.filter((r) => r.place === 1);
  return winnersText(first.map((r) => r.name), first[0].total);
}

// forfeitLine names the players who ran out of time and forfeited.
function forfeitLine() {
  const names = (st.summary?.seats || []).map((x, i) => (x.forfeit ? seatName(i) : null)).filter(Boolean);
  return names.length ? h('p', { class: 'forfeit-line', 'data-testid': 'forfeit' }, t('table.forfeited', { names, n: names.length })) : null;
}

function renderResult() {
  if (!st.view || !st.view.over || !st.renderer) {
    els.result.hidden = true; els.replay.hidden = true; els.review.hidden = true; els.rematch.hidden = true;
    return;
  }
  if (st.summary?.game) setHintSeen(st.summary.game);
  els.hint.hidden = true;
  els.rules.classList.remove('new');
  const view = localView();
  if (!st.summary?.places && !st.placesAsked) {
    // The places come with the table's summary once the game is over (the
    // welcome came before): ask for them once.
    st.placesAsked = true;
    api.table(tableId).then((s) => {
      if (s?.places && st.summary) { st.summary = { ...st.summary, places: s.places }; renderResult(); }
    }).catch(() => { /* the ranking by score stays */ });
  }
  const winners = new Set(view.winners || []);
  const rows = ranking(view);
  const extra = st.renderer.renderResult ? st.renderer.renderResult(view, st.seat) : null;
  replace(els.result,
    h('h2', { id: 'result-h' }, t('table.results')),
    h('p', { class: 'winner-line', 'data-testid': 'winner' }, winnerLine(view, rows)),
    forfeitLine(),
    rows.length > 1 ? h('ol', { class: 'ranking', 'data-testid': 'ranking' }, rows.map((r) => h('li', {
      class: `rank${winners.has(view.players[r.i]?.name) && r.place === 1 ? ' won' : ''}${r.i === st.seat ? ' me' : ''}`, 'data-seat': r.i,
    },
    h('span', { class: 'place' }, place(r.place)),
    h('span', { class: 'pname' }, profileLink(st.summary?.seats?.[r.i]?.profile, r.name), r.i === st.seat ? h('span', { class: 'tag' }, t('seat.you')) : null),
    h('span', { class: 'score' }, t('table.points', { n: r.total }))))) : null,
    extra ? h('div', { class: 'result-detail' }, extra) : null,
    rematchControls());
  els.result.hidden = false;
  renderRematchNote();
  els.replay.hidden = false;
  if (!st.replay) {
    st.replay = replayViewer({ tableId, renderer: st.renderer, mySeat: st.seat, names: (i) => seatName(i), localize: (v) => localize(v) });
    replace(els.replay, st.replay.el);
  } else {
    st.replay.rerender();
  }
  // The review, for a game that judges its decisions.
  if (!st.review && gameInfo(st.summary?.game)?.reviews) {
    st.review = reviewPanel({ tableId, renderer: st.renderer, names: (i) => seatName(i), replay: st.replay });
    replace(els.review, st.review.el);
  } else if (st.review) {
    st.review.rerender();
  }
  els.review.hidden = !st.review;
}

function rematchControls() {
  if (st.seat < 0 || st.rematch) return null;
  return h('div', { class: 'result-actions' },
    h('button', { type: 'button', class: 'primary big', 'data-testid': 'rematch', disabled: st.rematchBusy, onclick: startRematch }, t('table.rematch')));
}

async function startRematch() {
  st.rematchBusy = true;
  renderResult();
  try {
    const r = await api.rematch(tableId);
    location.assign('/t/' + encodeURIComponent(r.id));
  } catch (e) {
    st.rematchBusy = false;
    showAlert({ text: t('table.rematch.failed', { msg: e.message }) });
    renderResult();
  }
}

// renderRematchNote: someone started a rematch from this table; the others
// are invited to it (a seated player takes the same seat again).
function renderRematchNote() {
  const r = st.rematch;
  if (!r || !r.id) { els.rematch.hidden = true; els.rematch.replaceChildren(); return; }
  els.rematch.hidden = false;
  const by = (r.seats || []).find((x) => x.kind === 'human' && x.taken)?.name;
  const url = '/t/' + encodeURIComponent(r.id);
  const mine = st.seat >= 0 && r.seats?.[st.seat];
  const free = mine && mine.kind === 'human' && !mine.taken;
  replace(els.rematch,
    h('span', { class: 'rematch-text' }, by ? t('table.rematch.by', { name: by }) : t('table.rematch.someone')),
    st.seat >= 0
      ? h('button', { type: 'button', class: 'primary', 'data-testid': 'rematch-join', onclick: () => joinRematch(r, free) }, t('table.rematch.join'))
      : h('a', { href: url, class: 'button', 'data-testid': 'rematch-watch' }, t('table.rematch.watch')));
}

async function joinRematch(r, free) {
  // The same seat under the same name (a rematch keeps the seats).
  const name = mySeatInfo()?.name || savedName();
  if (free && name) {
    try { await api.join(r.id, st.seat, name); } catch { /* the new table's page offers the seats left */ }
  }
  location.assign('/t/' + encodeURIComponent(r.id));
}

// --- the turn signal of a hidden page ------------------------------------------------

const baseTitle = () => `${st.summary?.title || 'dicehall'} · dicehall`;
let iconLink = null;
let audio = null;

// signal tells a person who looks elsewhere that it is their turn: a mark in
// the title and on the icon, and, if they asked for them, a tone and a
// notification when the turn comes.
function signal() {
  const mine = myTurn();
  const hidden = document.hidden;
  if (mine && !st.wasMine && hidden) {
    st.signalled = true;
    if (pref('sound')) beep();
    if (pref('notify')) notify();
  }
  if (!mine || !hidden) st.signalled = false;
  st.wasMine = mine;
  const on = mine && hidden;
  document.title = on ? `● ${t('signal.title')} · ${baseTitle()}` : baseTitle();
  document.body.dataset.signal = on ? 'on' : 'off';
  setIcon(on);
}

function setIcon(badge) {
  if (!iconLink) {
    iconLink = document.querySelector('link[rel~=icon]') || document.head.appendChild(h('link', { rel: 'icon' }));
  }
  const key = badge ? 'badge' : 'plain';
  if (iconLink.dataset.state === key) return;
  iconLink.dataset.state = key;
  iconLink.href = drawIcon(badge);
}

// drawIcon paints the page's icon, a die, with a dot when it is your turn.
function drawIcon(badge) {
  const c = document.createElement('canvas');
  c.width = c.height = 64;
  const g = c.getContext('2d');
  if (!g) return 'data:,';
  const css = getComputedStyle(document.documentElement);
  const accent = css.getPropertyValue('--accent').trim() || '#1f6b74';
  g.fillStyle = accent;
  g.beginPath();
  g.roundRect ? g.roundRect(4, 4, 56, 56, 12) : g.rect(4, 4, 56, 56);
  g.fill();
  g.fillStyle = '#fff';
  for (const [x, y] of [[18, 18], [46, 18], [32, 32], [18, 46], [46, 46]]) {
    g.beginPath(); g.arc(x, y, 5.5, 0, Math.PI * 2); g.fill();
  }
  if (badge) {
    g.fillStyle = '#e0312b';
    g.strokeStyle = '#fff';
    g.lineWidth = 4;
    g.beginPath(); g.arc(48, 16, 14, 0, Math.PI * 2); g.fill(); g.stroke();
  }
  return c.toDataURL('image/png');
}

// beep plays a short rising tone (WebAudio; nothing to download).
function beep() {
  try {
    audio ??= new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === 'suspended') audio.resume();
    const now = audio.currentTime;
    const o = audio.createOscillator();
    const gain = audio.createGain();
    o.type = 'sine';
    o.frequency.setValueAtTime(660, now);
    o.frequency.linearRampToValueAtTime(880, now + 0.18);
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.2, now + 0.03);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.35);
    o.connect(gain).connect(audio.destination);
    o.start(now);
    o.stop(now + 0.4);
    document.body.dataset.beeps = String(Number(document.body.dataset.beeps || 0) + 1);
  } catch { /* no audio here */ }
}

function notify() {
  if (!('Notification' in window) || Notification.permission !== 'granted') return;
  const title = t('signal.title');
  const opts = { body: t('signal.body', { table: st.summary?.title || '' }), tag: 'dh-' + tableId, data: { url: location.pathname } };
  // Through the service worker when one controls the page (Android's Chrome
  // refuses the constructor there); its notificationclick opens the table.
  const shown = navigator.serviceWorker?.controller
    ? navigator.serviceWorker.ready.then((r) => r.showNotification(title, opts))
    : Promise.resolve().then(() => { const n = new Notification(title, opts); n.onclick = () => { window.focus(); n.close(); }; });
  shown.catch(() => { /* notifications unavailable */ });
}

document.addEventListener('visibilitychange', signal);

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
    const me = mySeatInfo();
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
    showAlert({ key: 'table.notsent', conn: true });
    return null;
  }
  msg.id = st.nextId++;
  st.ws.send(JSON.stringify(msg));
  return msg.id;
}

function act(action) {
  if (st.alert && !st.alert.conn) showAlert(null);
  send({ type: 'act', action, version: st.version });
}

function onMessage(msg) {
  switch (msg.type) {
    case 'welcome':
      // The chat is not queued behind the moves: its lines come as they are said.
      chat.welcome(msg.chat);
      st.queue = st.queue.then(() => welcome(msg));
      break;
    case 'update':
      st.backlog++;
      // One at a time and in order: a renderer's beforeUpdate may take its
      // time (a die rolling, a bot's move paced by the bot-speed setting).
      st.queue = st.queue.then(() => update(msg)).catch((e) => console.error(e)).finally(() => { st.backlog--; });
      break;
    case 'refused':
      if (st.coach && msg.id === st.coach.id) {
        // The coach's refusal is said where the hint would be.
        st.coach = { ...st.coach, state: 'refused', text: refusal(msg.rule, msg.message, st.summary?.game) };
        renderCoach();
        renderHintButton();
        break;
      }
      chat.refused(msg.id);
      showAlert({ rule: msg.rule, message: msg.message });
      break;
    case 'hint':
      onHint(msg);
      break;
    case 'chat':
      chat.add(msg.line);
      break;
    case 'error':
      if (st.coach && msg.id === st.coach.id) {
        st.coach = { ...st.coach, state: 'refused', text: t('table.error', { msg: msg.message || msg.code }) };
        renderCoach();
        renderHintButton();
        break;
      }
      chat.refused(msg.id);
      showAlert({ text: t('table.error', { msg: msg.message || msg.code }) });
      break;
    case 'presence':
      if (st.summary) st.summary.seats = msg.seats;
      mark();
      renderPlayers();
      renderJoin();
      renderTurn();
      renderBanner();
      renderShare();
      if (st.view) renderBoard();
      break;
    case 'rematch':
      st.rematch = msg.table || null;
      renderResult();
      break;
    default:
      break;
  }
}

async function loadRenderer(game) {
  st.renderer = await renderer(game);
}

// logFrom fills the log from a welcome's record of the last moves (oldest
// first): a reload, a late spectator or a reconnection sees what happened.
function logFrom(entries) {
  const out = entries.filter((e) => e && Array.isArray(e.narration))
    .map((e) => ({ version: e.version, narration: e.narration }));
  return out.slice(-LOG_MAX);
}

async function welcome(msg) {
  st.connected = true;
  st.retry = 0;
  st.retryAt = 0;
  // A warning about the connection is over once we are back.
  if (st.alert?.conn) showAlert(null);
  if (Array.isArray(msg.log)) {
    st.log = logFrom(msg.log);
    document.body.dataset.logFrom = 'welcome';
  } else if (st.view && msg.version > st.version) {
    // An older server: the board is whole again, but the log lacks the
    // moves made meanwhile; say so.
    st.log.push({ key: 'table.log.caughtup', vars: { n: msg.version - st.version } });
  }
  st.seat = msg.seat;
  st.summary = msg.table;
  st.version = msg.version;
  st.view = msg.view;
  st.turn = msg.turn;
  st.deadlineAt = msg.deadline ? performance.now() + msg.deadline : 0;
  st.bank = msg.bank || 0; // the seat's time bank, part of its clock (turn-based tables)
  // A rematch made before this page came (the summary has its id): who
  // made it is in the new table's summary.
  const rm = msg.table?.rematch;
  if (rm && st.rematch?.id !== (rm.id ?? rm)) {
    st.rematch = typeof rm === 'string' ? { id: rm } : rm;
    if (typeof rm === 'string') {
      api.table(rm).then((s) => { if (st.rematch?.id === s.id) { st.rematch = s; renderResult(); } }, () => {});
    }
  }
  if (!st.renderer) await loadRenderer(msg.table.game);
  renderAll();
}

async function update(msg) {
  if (msg.version !== st.version + 1) {
    // A gap: we missed something. A fresh connection sends a fresh welcome.
    if (msg.version > st.version) reconnectNow();
    return;
  }
  // Moves are hurried only to catch up with a long backlog, or when nobody
  // can see them. Reduced motion is each renderer's to honour: it drops the
  // flights but keeps the pauses that let people follow a bot.
  const fast = st.backlog > 4 || document.hidden;
  if (st.renderer) await st.renderer.beforeUpdate(els.board, msg.events, fast);
  st.version = msg.version;
  st.view = msg.view;
  st.turn = msg.turn;
  st.deadlineAt = msg.deadline ? performance.now() + msg.deadline : 0;
  st.bank = msg.bank || 0; // the seat's time bank, part of its clock (turn-based tables)
  st.log.push({ version: msg.version, narration: msg.narration || [] });
  if (st.log.length > LOG_MAX) st.log.splice(0, st.log.length - LOG_MAX);
  // A move makes the hint stale (one still worked out is dropped on arrival).
  if (st.coach) { st.coach = null; renderCoach(); }
  if (msg.move && msg.move.seat === st.seat && st.alert && !st.alert.conn) showAlert(null);
  renderTurn();
  renderBanner();
  renderPlayers();
  renderBoard();
  renderLog();
  renderResult();
  renderShare();
  renderRules();
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
  backWord.textContent = t('table.back');
  els.conn.textContent = '';
}

// Ask once over HTTP first: an unknown table gets a clear sentence rather
// than a socket that keeps reconnecting.
renderAll();
whoami().then((me) => { st.me = me; if (me) renderJoin(); });
// The games' descriptions name the bots and carry the English of the log.
loadGames().then(() => { if (!st.notFound) renderAll(); }, () => { /* the kinds stand in for the names */ });
api.table(tableId).then((s) => {
  if (!st.summary) st.summary = s;
  connect();
}, (e) => {
  if (e.status === 404) { st.notFound = true; notFound(); return; }
  connect();
});
