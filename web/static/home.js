// The home page: your name, your games (tables where you hold a seat, your
// turn first), a new table, and the open, live and finished tables of
// everybody else (refreshed every few seconds, without redrawing what did
// not change).

import { h, replace, $ } from '/static/dom.js';
import { t, onLangChange, langSwitch, currentLang } from '/static/i18n.js';
import { api, savedName, saveName, cleanName } from '/static/api.js';
import { loadGames as loadGameInfos, botSeatName, personName, gameInfo } from '/static/games.js';
import { profileLink } from '/static/players.js';
import { accountLink, whoami } from '/static/auth.js';
import { durationText } from '/static/durations.js';

// The form is built from each game's description (GET /api/games, an
// engine.Info): its seat bounds, one-player mode, bots and options.
const hs = {
  games: [], // the games this page can draw, as described by the server
  game: '',
  players: 2,
  // Per seat, 'human' or 'bot:<kind>'; a kind the game lacks (none yet,
  // or after switching games) becomes the game's default bot.
  seats: ['human', 'bot:', 'bot:', 'bot:', 'bot:', 'bot:', 'bot:', 'bot:'],
  clock: 0, // seconds a turn (0: none)
  // 'live' (real time) or 'turns' (turn-based: minutes to days a move, a
  // time bank for absences, and what happens when time runs out).
  pace: 'live',
  bank: 3 * 86400,
  expiry: 'bot',
  chat: 'all', // who may write in the table's chat: 'all' or 'players'
  rated: true, // the table counts for the ratings (when every seat is an account's)
  options: {}, // game id -> option name -> the value chosen
  // null: not loaded yet. mine holds the tables where this browser has a
  // seat (GET /api/tables/mine), with their seat and yourTurn.
  lists: { mine: null, open: null, live: null, over: null },
  gamesError: '',
  loadError: '',
  joinError: '',
  nameError: '',
  formError: '', // the server's answer to a create
  fieldErrors: {}, // option input id -> what is wrong with it
  account: null, // the signed-in account (auth.js), null for a guest
  busy: false,
  narrow: false, // a phone-sized screen: one column, the form folded
  formOpen: false, // on a phone, whether the new-table form is unfolded
};

const narrowQuery = window.matchMedia('(max-width: 900px)');

const app = $('#app');
const nameError = h('p', { class: 'error small', id: 'name-error', role: 'alert', hidden: true });
const nameInput = h('input', {
  id: 'name', type: 'text', maxlength: 24, autocomplete: 'nickname', value: savedName(), 'aria-describedby': 'name-hint',
  oninput: nameTyped, onchange: nameTyped,
});

// nameTyped keeps the name and drops a request for it as soon as there is
// one: a stale "choose a name" must not outlive the name.
function nameTyped() {
  const name = cleanName(nameInput.value);
  saveName(name);
  if (name && hs.nameError) setNameError('');
}

function setNameError(msg) {
  hs.nameError = msg;
  nameError.textContent = msg;
  nameError.hidden = !msg;
  if (msg) {
    nameInput.setAttribute('aria-invalid', 'true');
    nameInput.setAttribute('aria-describedby', 'name-error name-hint');
  } else {
    nameInput.removeAttribute('aria-invalid');
    nameInput.setAttribute('aria-describedby', 'name-hint');
  }
}

// Each part of the page is one element kept for the page's life; the
// layout places them in two columns, or in one on a phone (your games and
// the way to a new table first, the open tables before the long form).
const els = {
  layout: h('div', { class: 'home-layout' }),
  left: h('div', { class: 'home-left' }),
  right: h('div', { class: 'lists' }),
  intro: h('section', { class: 'intro card' }),
  cta: h('p', { class: 'cta' }),
  create: h('section', { class: 'create card', 'aria-labelledby': 'create-h' }),
  form: h('form', { class: 'create-form', id: 'create-form', novalidate: true }),
  errors: h('div', { class: 'list-errors' }),
  foot: h('p', { class: 'muted small refresh-note' }),
};
for (const kind of ['mine', 'open', 'live', 'over']) {
  els[kind] = h('section', { class: 'card list list-' + kind, 'aria-labelledby': 'l-' + kind, 'data-list': kind });
}
els.form.addEventListener('submit', (e) => { e.preventDefault(); create(); });

const leaderboards = h('a', { href: '/leaderboard', class: 'nav-link', 'data-testid': 'nav-leaderboards' });
replace(app,
  h('header', { class: 'topbar' }, h('a', { href: '/', class: 'brand' }, 'dicehall'), h('span', { class: 'spacer' }), leaderboards, accountLink(), langSwitch()),
  els.layout);

function placeParts() {
  hs.narrow = narrowQuery.matches;
  if (hs.narrow) {
    replace(els.layout, els.intro, els.errors, els.mine, els.cta, els.open, els.create, els.live, els.over, els.foot);
  } else {
    replace(els.left, els.intro, els.create);
    replace(els.right, els.errors, els.mine, els.open, els.live, els.over, els.foot);
    replace(els.layout, els.left, els.right);
  }
  renderCreateFrame();
}

function game() { return hs.games.find((g) => g.id === hs.game) || hs.games[0]; }

function renderIntro() {
  replace(els.intro,
    h('h1', null, 'dicehall'),
    h('p', { class: 'lead' }, t('app.tagline')),
    h('p', { class: 'field' }, h('label', { for: 'name' }, t('home.you')), nameInput),
    nameError,
    h('p', { class: 'muted small', id: 'name-hint' }, t('home.name.hint')));
  if (hs.nameError) setNameError(t('home.name.missing'));
  if (hs.account) {
    // A signed-in player plays under their account's name.
    nameInput.value = hs.account.name;
    nameInput.readOnly = true;
    els.intro.querySelector('#name-hint').textContent = t('auth.home.hint');
  }
  replace(els.cta, h('button', { type: 'button', class: 'primary big', id: 'cta-create', onclick: openForm }, t('home.cta')));
  els.foot.textContent = t('home.updated');
  leaderboards.textContent = t('nav.leaderboards');
}

// openForm unfolds the new-table form (on a phone) and brings it into view.
function openForm() {
  hs.formOpen = true;
  renderCreateFrame();
  els.create.scrollIntoView({ block: 'start' });
  (els.form.querySelector('#f-game input:checked') || els.form.querySelector('input, select'))?.focus({ preventScroll: true });
}

// renderCreateFrame draws the form's heading: on a phone a button that
// folds and unfolds it.
function renderCreateFrame() {
  const folded = hs.narrow && !hs.formOpen;
  const heading = hs.narrow
    ? h('h2', { id: 'create-h' }, h('button', {
      type: 'button', class: 'fold', 'aria-expanded': String(!folded), 'aria-controls': 'create-form',
      onclick: () => { hs.formOpen = !hs.formOpen; renderCreateFrame(); },
    }, t('home.create')))
    : h('h2', { id: 'create-h' }, t('home.create'));
  els.form.hidden = folded;
  replace(els.create, heading, els.form);
}

// offered lists the options the form shows: not the structured (json)
// ones, and one-player options only for one player.
function offered(g) {
  return (g.options || []).filter((o) => o.type !== 'json' && (!o.onePlayerOnly || hs.players === 1));
}

function optionValue(g, o) {
  const v = hs.options[g.id]?.[o.name];
  return v === undefined ? o.default : v;
}

function setOption(g, o, v) { (hs.options[g.id] ??= {})[o.name] = v; }

// unitWord is an int option's unit without its number ("seconds"), for
// beside a number field: the catalogue writes the unit with its count.
function unitWord(o, n) { return t(o.unit, { n }).replace(String(n), '').trim(); }

// pitch is a game's one line for the lobby ("<id>.pitch" in its words),
// or '' while the game has none.
function pitch(g) {
  const key = g.id + '.pitch';
  const s = t(key);
  return s === key ? '' : s;
}

function playersText(g) {
  return g.minPlayers === g.maxPlayers
    ? t('home.card.players.n', { n: g.minPlayers })
    : t('home.card.players', { min: g.minPlayers, max: g.maxPlayers });
}

// gameCards is the choice of game: one radio card per game, with its
// pitch under its name, its players and a link to its rules.
function gameCards(g) {
  return h('fieldset', { id: 'f-game', class: 'game-cards' },
    h('legend', null, t('home.game')),
    hs.games.map((x) => {
      const id = 'f-game-' + x.id;
      const line = pitch(x);
      return h('div', { class: 'game-card' + (x.id === g.id ? ' chosen' : ''), 'data-game': x.id },
        h('input', {
          type: 'radio', name: 'game', id, value: x.id, checked: x.id === g.id,
          'aria-describedby': id + '-about',
          onchange: () => { hs.game = x.id; hs.formError = ''; hs.fieldErrors = {}; renderForm(); },
        }),
        h('label', { for: id, class: 'gc-title' }, x.title),
        h('span', { class: 'gc-about small', id: id + '-about' },
          line ? h('span', { class: 'gc-pitch' }, line) : null, h('span', { class: 'gc-players' }, playersText(x))),
        h('a', { class: 'gc-rules small', href: '/rules/' + encodeURIComponent(x.id), 'aria-label': t('home.rules.of', { game: x.title }) }, t('home.rules')));
    }));
}

// fieldError shows (or clears) what is wrong with an option's value next
// to its field, as the person types.
function fieldError(input, msg) {
  const id = input.id;
  if (msg) hs.fieldErrors[id] = msg; else delete hs.fieldErrors[id];
  const el = document.getElementById(id + '-error');
  if (el) { el.textContent = msg || ''; el.hidden = !msg; }
  if (msg) input.setAttribute('aria-invalid', 'true'); else input.removeAttribute('aria-invalid');
  if (hs.formError) { hs.formError = ''; showFormError(); }
}

function describedBy(...ids) { return ids.filter(Boolean).join(' ') || undefined; }

function optionField(g, o) {
  const id = 'f-opt-' + o.name;
  const hintId = o.hint ? id + '-hint' : undefined;
  const hint = o.hint ? h('p', { class: 'muted small hint', id: hintId }, t(o.hint)) : null;
  const v = optionValue(g, o);
  if (o.type === 'bool') {
    // The box beside its label, the hint under the label.
    return h('div', { class: 'field check-field' },
      h('input', { id, type: 'checkbox', checked: v, 'aria-describedby': hintId, onchange: (e) => setOption(g, o, e.target.checked) }),
      h('label', { for: id }, t(o.label)),
      hint);
  }
  if (o.type === 'choice') {
    // A named value (the word language); its own hint says what choosing
    // it means (where bots play it less well), beside the option's.
    const cur = (o.values || []).find((x) => x.value === v);
    const valueHintId = cur && cur.hint ? id + '-value-hint' : undefined;
    return [h('p', { class: 'field' }, h('label', { for: id }, t(o.label)),
      h('select', { id, 'aria-describedby': describedBy(hintId, valueHintId), onchange: (e) => { setOption(g, o, e.target.value); renderForm(); } },
        (o.values || []).map((x) => h('option', { value: x.value, selected: x.value === v }, t(x.label))))),
    hint, valueHintId ? h('p', { class: 'note small', id: valueHintId, role: 'note' }, t(cur.hint)) : null];
  }
  let input;
  if (o.choices && o.choices.length) {
    const values = o.choices.includes(v) ? o.choices : [...o.choices, v].sort((a, b) => a - b);
    input = h('select', { id, 'aria-describedby': hintId, onchange: (e) => setOption(g, o, Number(e.target.value)) },
      values.map((c) => h('option', { value: String(c), selected: c === v }, o.unit ? t(o.unit, { n: c }) : String(c))));
    return [h('p', { class: 'field' }, h('label', { for: id }, t(o.label)), input), hint];
  }
  const errId = id + '-error';
  const min = o.min ?? 0;
  const unit = o.unit ? h('span', { class: 'unit' }, unitWord(o, v)) : null;
  const bad = hs.fieldErrors[id] || '';
  input = h('input', {
    id, type: 'number', inputmode: 'numeric', min, max: o.max, step: 1, value: String(v),
    'aria-describedby': describedBy(errId, hintId), 'aria-invalid': bad ? 'true' : null,
    oninput: (e) => {
      const n = e.target.valueAsNumber;
      const ok = Number.isInteger(n) && n >= min && (o.max === undefined || o.max === null || n <= o.max);
      if (ok) setOption(g, o, n);
      if (unit) unit.textContent = unitWord(o, ok ? n : optionValue(g, o));
      fieldError(e.target, ok ? '' : (o.max === undefined || o.max === null
        ? t('home.field.min', { min }) : t('home.field.range', { min, max: o.max })));
    },
  });
  return [h('p', { class: 'field' }, h('label', { for: id }, t(o.label)), h('span', { class: 'with-unit' }, input, unit)),
    h('p', { class: 'error small', id: errId, role: 'alert', hidden: !bad }, bad), hint];
}

function clockText(s) {
  if (!s) return t('home.clock.none');
  return s < 60 ? t('home.clock.secs', { n: s }) : t('home.clock.mins', { n: s / 60 });
}

// The clocks the form offers: real time, and turn-based for the games
// that allow it (GET /api/games: expiries, none for a game its rules time
// in seconds). A choice's value is "<pace>:<seconds>".
const LIVE_CLOCKS = [0, 30, 60, 120, 300];
const TURN_CLOCKS = [3600, 8 * 3600, 86400, 2 * 86400, 3 * 86400, 7 * 86400, 14 * 86400];
const BANKS = [0, 86400, 3 * 86400, 7 * 86400, 14 * 86400];

// clockFields are the clock's select and, at a turn-based table, its bank
// and expiry, with the hint that says what they mean.
function clockFields(g) {
  const expiries = g.expiries || [];
  if (!expiries.length && hs.pace === 'turns') { hs.pace = 'live'; hs.clock = 0; }
  if (expiries.length && !expiries.includes(hs.expiry)) hs.expiry = expiries[0];
  const opt = (pace, s, text) => h('option', { value: pace + ':' + s, selected: hs.pace === pace && hs.clock === s }, text);
  const live = LIVE_CLOCKS.map((s) => opt('live', s, clockText(s)));
  const clockSel = h('select', {
    id: 'f-clock', 'aria-describedby': 'clock-hint',
    onchange: (e) => {
      const [pace, s] = e.target.value.split(':');
      const redraw = pace !== hs.pace;
      hs.pace = pace;
      hs.clock = Number(s);
      if (redraw) renderForm();
    },
  }, expiries.length
    ? [h('optgroup', { label: t('home.clock.live') }, live),
      h('optgroup', { label: t('home.clock.turnBased') }, TURN_CLOCKS.map((s) => opt('turns', s, t('home.clock.turns', { left: durationText(s * 1000) }))))]
    : live);
  const clock = h('p', { class: 'field' }, h('label', { for: 'f-clock' }, t('home.clock')), clockSel);
  if (hs.pace !== 'turns') {
    const hint = expiries.length ? t('home.clock.hint') : t('home.clock.hint') + ' ' + t('home.clock.realtimeOnly');
    return { clock, more: [h('p', { class: 'muted small hint', id: 'clock-hint' }, hint)] };
  }
  const bankSel = h('select', { id: 'f-bank', onchange: (e) => { hs.bank = Number(e.target.value); } },
    BANKS.map((s) => h('option', { value: String(s), selected: s === hs.bank }, s ? durationText(s * 1000) : t('home.bank.none'))));
  const expirySel = h('select', { id: 'f-expiry', onchange: (e) => { hs.expiry = e.target.value; } },
    expiries.map((x) => h('option', { value: x, selected: x === hs.expiry }, t('home.expiry.' + x))));
  return {
    clock,
    more: [h('p', { class: 'muted small hint', id: 'clock-hint' }, t('home.clock.turns.hint')),
      h('div', { class: 'field-pair' },
        h('p', { class: 'field' }, h('label', { for: 'f-bank' }, t('home.bank')), bankSel),
        h('p', { class: 'field' }, h('label', { for: 'f-expiry' }, t('home.expiry')), expirySel))],
  };
}

// clockSettings is the clock part of a new table's settings.
function clockSettings() {
  if (hs.pace !== 'turns') return { turnSeconds: hs.clock };
  return { pace: 'turns', turnSeconds: hs.clock, bankSeconds: hs.bank, expiry: hs.expiry };
}

// formStatus is where the server's refusal of a create shows, and where a
// screen reader hears that the table is being made.
const formStatus = h('div', { class: 'form-status' });
function showFormError() {
  replace(formStatus, hs.formError ? h('p', { class: 'error', role: 'alert' }, hs.formError)
    : h('p', { class: 'sr-only', role: 'status' }, hs.busy ? t('home.creating') : ''));
}

function renderForm() {
  // A redraw must not take the keyboard away: the field that had the
  // focus (a game card chosen with the arrow keys) gets it back.
  const focused = els.form.contains(document.activeElement) ? document.activeElement.id : '';
  hs.fieldErrors = {}; // every field is drawn again with a valid value
  const g = game();
  if (!g) {
    replace(els.form, hs.gamesError ? h('p', { class: 'error', role: 'alert' }, hs.gamesError) : h('p', { class: 'muted' }, '…'));
    return;
  }
  hs.game = g.id;
  hs.players = Math.min(g.maxPlayers, Math.max(g.minPlayers, hs.players));
  const counts = [];
  for (let n = g.minPlayers; n <= g.maxPlayers; n++) counts.push(n);
  const playersSel = h('select', { id: 'f-players', onchange: (e) => { hs.players = Number(e.target.value); renderForm(); } },
    counts.map((n) => h('option', { value: String(n), selected: n === hs.players },
      n === 1 ? t('home.players.one', { mode: t(g.onePlayer) }) : t('home.players.n', { n }))));

  const bots = g.bots || [];
  const seatFields = [];
  for (let i = 0; i < hs.players; i++) {
    if (i === 0) {
      seatFields.push(h('li', { class: 'seat-field' }, h('span', { class: 'seat-label' }, t('home.seat', { n: 1 })), h('span', null, t('home.seat.you'))));
      continue;
    }
    if (hs.seats[i].startsWith('bot:') && !bots.some((b) => 'bot:' + b.kind === hs.seats[i])) {
      hs.seats[i] = bots.length ? 'bot:' + (g.defaultBot || bots[0].kind) : 'human';
    }
    const sel = h('select', { id: 'f-seat-' + i, onchange: (e) => { hs.seats[i] = e.target.value; } },
      h('option', { value: 'human', selected: hs.seats[i] === 'human' }, t('home.seat.human')),
      bots.map((b) => h('option', { value: 'bot:' + b.kind, selected: hs.seats[i] === 'bot:' + b.kind }, t('home.seat.bot', { bot: t(b.label) }))));
    seatFields.push(h('li', { class: 'seat-field' }, h('label', { class: 'seat-label', for: 'f-seat-' + i }, t('home.seat', { n: i + 1 })), sel));
  }
  const clock = clockFields(g);

  const chatSel = h('select', { id: 'f-chat', onchange: (e) => { hs.chat = e.target.value; } },
    ['all', 'players'].map((v) => h('option', { value: v, selected: v === hs.chat }, t('home.chat.' + v))));
  showFormError();
  replace(els.form,
    gameCards(g),
    h('div', { class: 'field-pair' },
      h('p', { class: 'field' }, h('label', { for: 'f-players' }, t('home.players')), playersSel),
      clock.clock),
    clock.more,
    h('div', { class: 'field-pair' }, h('p', { class: 'field' }, h('label', { for: 'f-chat' }, t('home.chat')), chatSel)),
    h('ul', { class: 'seat-fields' }, seatFields),
    h('p', { class: 'field check' }, h('input', { type: 'checkbox', id: 'f-rated', checked: hs.rated, 'aria-describedby': 'rated-hint', onchange: (e) => { hs.rated = e.target.checked; } }),
      h('label', { for: 'f-rated' }, t('home.rated'))),
    h('p', { class: 'muted small hint', id: 'rated-hint' }, t('home.rated.hint')),
    offered(g).map((o) => optionField(g, o)),
    // The button stays in sight while a long form scrolls.
    h('div', { class: 'create-actions' }, formStatus,
      h('button', { type: 'submit', class: 'primary big', id: 'create', disabled: hs.busy }, hs.busy ? t('home.creating') : t('home.create.go'))));
  if (focused) document.getElementById(focused)?.focus();
}

// needName is the name to sit with; without one it asks for it next to
// the name field and returns null.
function needName() {
  const name = cleanName(nameInput.value);
  if (!name) {
    setNameError(t('home.name.missing'));
    nameInput.focus();
    return null;
  }
  saveName(name);
  return name;
}

async function create() {
  const g = game();
  if (!g) return;
  const name = needName();
  if (!name) return;
  const bad = Object.keys(hs.fieldErrors).find((id) => document.getElementById(id));
  if (bad) { document.getElementById(bad).focus(); return; }
  const seats = [{ kind: 'human' }];
  for (let i = 1; i < hs.players; i++) {
    const v = hs.seats[i];
    seats.push(v === 'human' ? { kind: 'human' } : { kind: 'bot', bot: v.slice(4) });
  }
  // Only what differs from the game's defaults is sent.
  const options = {};
  for (const o of offered(g)) {
    const v = optionValue(g, o);
    if (JSON.stringify(v) !== JSON.stringify(o.default)) options[o.name] = v;
  }
  hs.busy = true;
  hs.formError = '';
  renderForm();
  try {
    const res = await api.create({ game: g.id, name, options, settings: { ...clockSettings(), chat: hs.chat, rated: hs.rated }, seats });
    location.href = '/t/' + encodeURIComponent(res.id);
  } catch (e) {
    hs.busy = false;
    hs.formError = e.message;
    renderForm();
  }
}

async function joinSeat(id, seat) {
  const name = needName();
  if (!name) return;
  try {
    await api.join(id, seat, name);
    location.href = '/t/' + encodeURIComponent(id);
  } catch (e) {
    hs.joinError = t('table.join.failed', { msg: e.message });
    renderErrors();
    refresh();
  }
}

// ---- the lists ----

function seatName(tb, s, i) {
  if (s.kind === 'bot') return botSeatName(tb.game, s);
  if (s.taken) return personName(s) || t('home.seat', { n: i + 1 });
  return t('seat.free');
}

// seatsText is the seats' names, each linked to its profile when an
// account holds it.
function seatsText(tb) { return tb.seats.flatMap((s, i) => [i ? ' · ' : null, profileLink(s.profile, seatName(tb, s, i))]); }

function ratedTag(tb) { return tb.rated ? h('span', { class: 'rated-tag' }, t('home.rated.tag')) : null; }

// paceTag marks a turn-based table with its clock ("1 day a move").
function paceTag(tb) {
  const s = tb.settings?.pace === 'turns' ? tb.settings.turnSeconds : 0;
  return s ? h('span', { class: 'rated-tag pace-tag' }, t('home.clock.turns', { left: durationText(s * 1000) })) : null;
}

// ago says how long ago a moment was, in the page's language ("5 min
// ago", "il y a 5 min").
let rtf = null;
function ago(iso) {
  const then = Date.parse(iso);
  if (!Number.isFinite(then)) return '';
  if (!rtf || rtf.lang !== currentLang()) {
    rtf = new Intl.RelativeTimeFormat(currentLang(), { numeric: 'auto', style: 'short' });
    rtf.lang = currentLang();
  }
  const s = Math.max(0, (Date.now() - then) / 1000);
  if (s < 45 * 60) return rtf.format(-Math.max(1, Math.round(s / 60)), 'minute');
  if (s < 22 * 3600) return rtf.format(-Math.round(s / 3600), 'hour');
  if (s < 30 * 86400) return rtf.format(-Math.round(s / 86400), 'day');
  return new Date(then).toLocaleDateString(currentLang(), { day: 'numeric', month: 'short', year: 'numeric' });
}

// endedText says when a game ended: "ended 5 min ago", "just ended".
function endedText(iso) {
  return Date.now() - Date.parse(iso) < 60_000 ? t('home.ended.now') : t('home.ended', { when: ago(iso) });
}

function ended(iso) {
  return h('time', { class: 'ended', datetime: iso, 'data-ended': iso, title: new Date(iso).toLocaleString(currentLang()) }, endedText(iso));
}

// updateTimes rewrites every "ended … ago" in place (no redraw, no lost
// focus).
function updateTimes() {
  for (const el of document.querySelectorAll('time[data-ended]')) {
    const s = endedText(el.dataset.ended);
    if (el.textContent !== s) el.textContent = s;
  }
}

// ranking is a finished table's seats, best first: the winners (marked),
// then by score; a forfeit last.
function ranking(tb, mySeat) {
  const r = tb.result || {};
  const scores = r.scores || [];
  if (!scores.length) return null;
  // The server's places (a forfeit ranks last) when it gives them.
  const places = tb.places?.length === tb.seats.length ? tb.places : null;
  const won = new Set((r.winners || []).filter((i) => !places || places[i] === 0));
  const order = tb.seats.map((_, i) => i).filter((i) => i < scores.length)
    .sort((a, b) => (places ? places[a] - places[b] : 0) || (won.has(b) - won.has(a)) || (scores[b] - scores[a]) || (a - b));
  return h('ol', { class: 'ti-ranking', 'aria-label': t('home.ranking') },
    order.map((i) => h('li', { class: (won.has(i) ? 'won' : '') + (i === mySeat ? ' me' : '') },
      won.has(i) ? h('span', { class: 'crown', 'aria-hidden': 'true' }, '★') : null,
      h('span', { class: 'r-name' }, profileLink(tb.seats[i].profile, seatName(tb, tb.seats[i], i))),
      i === mySeat ? h('span', { class: 'r-you' }, ' (' + t('seat.you') + ')') : null, ' ',
      h('span', { class: 'r-score' }, String(scores[i])),
      won.has(i) ? h('span', { class: 'sr-only' }, ' (' + t('home.winner') + ')') : null)));
}

// longClock: a turn-based table, whose deadline is worth a word in a list.
function longClock(tb) { return tb.settings?.pace === 'turns'; }

function tableLink(tb, cls, label, data) {
  return h('a', { class: 'button ' + cls, href: '/t/' + encodeURIComponent(tb.id), ...data }, label);
}

// mineItem is one of your tables: what it is, who else sits there, where
// it stands for you, and the one thing to do (play, resume, replay).
function mineItem(tb) {
  const me = tb.seat;
  // Who else sits there (a finished game names them in its ranking).
  const others = tb.seats.map((s, i) => [s, i]).filter(([s, i]) => i !== me && (s.kind === 'bot' || s.taken))
    .map(([s, i]) => seatName(tb, s, i));
  const info = gameInfo(tb.game);
  const people = tb.status === 'over' ? ''
    : others.length ? t('home.with', { names: others.join(' · ') })
      : tb.seats.length === 1 && info && info.onePlayer ? t(info.onePlayer) : '';
  let status;
  let action;
  if (tb.status === 'over') {
    // How it went for you (the ranking says the rest), and when.
    const winners = tb.result?.winners || [];
    status = [winners.includes(me)
      ? h('span', { class: 'ti-status won' }, winners.length > 1 ? t('home.mine.shared') : t('home.mine.won')) : null,
    ended(tb.updated)];
    action = tableLink(tb, '', t('home.replay'), { 'data-replay': tb.id, 'data-key': tb.id + ':replay' });
  } else if (tb.yourTurn) {
    // A turn-based table says how long you have ("your turn, 2 days left").
    const left = tb.deadline && longClock(tb) ? Date.parse(tb.deadline) - Date.now() : NaN;
    status = h('span', { class: 'badge turn' }, Number.isFinite(left)
      ? t('home.mine.turn.left', { left: durationText(left) }) : t('home.mine.turn'));
    action = tableLink(tb, 'primary', t('home.play'), { 'data-play': tb.id, 'data-key': tb.id + ':play' });
  } else {
    const free = tb.seats.filter((s) => s.kind === 'human' && !s.taken).length;
    status = h('span', { class: 'ti-status' },
      tb.status === 'open' ? t('home.mine.waiting', { n: free })
        : tb.seats[me]?.takenOver ? t('home.mine.bot') : t('home.mine.others'));
    action = tableLink(tb, '', t('home.resume'), { 'data-resume': tb.id, 'data-key': tb.id + ':resume' });
  }
  return h('li', { class: 'table-item' + (tb.yourTurn && tb.status !== 'over' ? ' your-turn' : ''), 'data-table': tb.id, 'data-status': tb.status },
    h('div', { class: 'ti-main' },
      h('p', { class: 'ti-head' }, h('strong', { class: 'ti-game' }, tb.title || tb.game), ' ', status, ratedTag(tb), paceTag(tb)),
      people ? h('p', { class: 'ti-people muted small' }, people) : null,
      tb.status === 'over' ? h('div', { class: 'ti-result small' }, ranking(tb, me)) : null),
    h('div', { class: 'ti-actions' }, action));
}

// tableItem is a table of other people: join a free seat, watch, replay.
function tableItem(tb, kind) {
  const actions = [];
  if (kind === 'open') {
    tb.seats.forEach((s, i) => {
      if (s.kind === 'human' && !s.taken) {
        actions.push(h('button', { type: 'button', class: 'primary', 'data-join': `${tb.id}:${i}`, 'data-key': `${tb.id}:join${i}`, onclick: () => joinSeat(tb.id, i) },
          t('home.join.seat', { n: i + 1 })));
      }
    });
  } else if (kind === 'live') {
    actions.push(tableLink(tb, '', t('home.watch'), { 'data-watch': tb.id, 'data-key': tb.id + ':watch' }));
  } else {
    actions.push(tableLink(tb, '', t('home.replay'), { 'data-replay': tb.id, 'data-key': tb.id + ':replay' }));
  }
  return h('li', { class: 'table-item', 'data-table': tb.id, 'data-status': tb.status },
    h('div', { class: 'ti-main' },
      h('p', { class: 'ti-head' }, h('strong', { class: 'ti-game' }, tb.title || tb.game), kind === 'over' ? ended(tb.updated) : null, ratedTag(tb), paceTag(tb)),
      kind === 'over'
        ? h('div', { class: 'ti-result small' }, ranking(tb, -1) || h('span', { class: 'muted' }, seatsText(tb)))
        : h('p', { class: 'ti-people muted small' }, seatsText(tb))),
    h('div', { class: 'ti-actions' }, actions));
}

const sections = {
  mine: { title: 'home.mine', none: '', item: mineItem },
  open: { title: 'home.open', none: 'home.none.open', item: (tb) => tableItem(tb, 'open') },
  live: { title: 'home.live', none: 'home.none.live', item: (tb) => tableItem(tb, 'live') },
  over: { title: 'home.over', none: 'home.none.over', item: (tb) => tableItem(tb, 'over') },
};

// drawn remembers, per list, each row's element and what it was drawn
// from, so a refresh rebuilds only the rows that changed and moves none
// that did not: nothing jumps, and a focused button keeps the focus.
const drawn = { mine: new Map(), open: new Map(), live: new Map(), over: new Map() };

function rowKey(tb) {
  const left = tb.deadline && longClock(tb) ? durationText(Date.parse(tb.deadline) - Date.now()) : '';
  return JSON.stringify([currentLang(), tb.status, tb.seats, tb.result, tb.seat, tb.yourTurn, tb.title, tb.rated, gameInfo(tb.game) ? 1 : 0, left]);
}

function renderList(kind) {
  const sec = els[kind];
  const spec = sections[kind];
  const list = hs.lists[kind];
  if (kind === 'mine') sec.hidden = !list || list.length === 0;
  let head = sec.querySelector(':scope > h2');
  if (!head) {
    head = h('h2', { id: 'l-' + kind });
    sec.append(head);
  }
  head.textContent = t(spec.title);
  let body = sec.querySelector(':scope > .list-body');
  const want = list === null ? 'loading' : list.length ? 'list' : 'none';
  if (!body || body.dataset.kind !== want) {
    body?.remove();
    drawn[kind].clear();
    body = want === 'list' ? h('ul', { class: 'tables list-body', 'data-kind': want })
      : h('p', { class: 'muted list-body', 'data-kind': want }, want === 'loading' ? '…' : spec.none ? t(spec.none) : '');
    sec.append(body);
  } else if (want === 'none') {
    body.textContent = spec.none ? t(spec.none) : '';
  }
  if (want !== 'list') return;
  const focusKey = body.contains(document.activeElement) ? document.activeElement.dataset.key : '';
  const keep = new Map();
  let at = body.firstElementChild;
  for (const tb of list) {
    const key = rowKey(tb);
    let row = drawn[kind].get(tb.id);
    if (!row || row.key !== key) row = { key, el: spec.item(tb) };
    keep.set(tb.id, row);
    if (at === row.el) {
      at = at.nextElementSibling;
    } else {
      body.insertBefore(row.el, at);
    }
  }
  while (at) {
    const next = at.nextElementSibling;
    at.remove();
    at = next;
  }
  drawn[kind] = keep;
  if (focusKey && !body.contains(document.activeElement)) body.querySelector(`[data-key="${CSS.escape(focusKey)}"]`)?.focus();
}

function renderErrors() {
  replace(els.errors,
    hs.joinError ? h('p', { class: 'error', role: 'alert' }, hs.joinError) : null,
    hs.loadError ? h('p', { class: 'error', role: 'alert' }, hs.loadError) : null);
}

function renderLists() {
  renderErrors();
  for (const kind of Object.keys(sections)) renderList(kind);
  updateTimes();
}

// yours puts your tables in the order that matters: your turn, then the
// games going on, the ones waiting for players, and the finished ones
// (the last few).
function yours(list) {
  const rank = (tb) => (tb.status === 'over' ? 3 : tb.yourTurn ? 0 : tb.status === 'live' ? 1 : 2);
  const sorted = list.filter((tb) => Number.isInteger(tb.seat)).sort((a, b) => rank(a) - rank(b));
  const done = sorted.filter((tb) => tb.status === 'over');
  return sorted.filter((tb) => tb.status !== 'over').concat(done.slice(0, 5));
}

// mine asks which tables this browser sits at. A server without the
// question (404) just has no "your games".
async function mine() {
  try {
    return await api.mine();
  } catch (e) {
    if (e.status === 404) return [];
    throw e;
  }
}

async function refresh() {
  try {
    const [my, open, live, over] = await Promise.all([mine(), api.tables(['open']), api.tables(['live']), api.tables(['over'])]);
    const mineList = yours(Array.isArray(my) ? my : []);
    const own = new Set(mineList.map((tb) => tb.id));
    for (const tb of my || []) own.add(tb.id);
    const others = (l) => (l || []).filter((tb) => !own.has(tb.id));
    hs.lists = { mine: mineList, open: others(open), live: others(live), over: others(over).slice(0, 20) };
    hs.loadError = '';
  } catch (e) {
    hs.loadError = t('home.lists.failed', { msg: e.message });
  }
  renderLists();
}

async function loadGames() {
  try {
    hs.games = (await loadGameInfos()).filter((x) => x.playable);
    hs.gamesError = '';
  } catch (e) {
    hs.gamesError = t('home.games.failed', { msg: e.message });
  }
  if (!hs.games.some((g) => g.id === hs.game)) hs.game = hs.games[0]?.id || '';
  renderForm();
  renderLists(); // the bots' names in the lists come with the games
}

function renderAll() {
  document.title = 'dicehall';
  renderIntro();
  renderCreateFrame();
  renderForm();
  renderLists();
}

narrowQuery.addEventListener('change', placeParts);
onLangChange(renderAll);
placeParts();
renderAll();
loadGames();
refresh();
whoami().then((acct) => { if (acct) { hs.account = acct; renderIntro(); } });
setInterval(() => { if (!document.hidden) refresh(); }, 4000);
document.addEventListener('visibilitychange', () => { if (!document.hidden) refresh(); });
