// The home page: a name, a new table, and the lists of open, live and
// finished tables (refreshed every few seconds).

import { h, replace, $ } from '/static/dom.js';
import { t, onLangChange, langSwitch } from '/static/i18n.js';
import { api, savedName, saveName, cleanName } from '/static/api.js';
import { playable } from '/static/games.js';

const FALLBACK_GAMES = [{ id: 'dicestars', title: 'Dice Stars', minPlayers: 1, maxPlayers: 4, bots: ['random', 'greedy', 'expert'] }];

const hs = {
  games: FALLBACK_GAMES,
  game: 'dicestars',
  players: 2,
  seats: ['human', 'bot:greedy', 'bot:greedy', 'bot:greedy', 'bot:greedy', 'bot:greedy'],
  clock: 0,
  bwSpecial: true,
  bwThink: 10,
  soloGrid: 30,
  dfShift: false,
  lists: { open: null, live: null, over: null },
  loadError: '',
  joinError: '',
  formError: '',
  busy: false,
};

const app = $('#app');
const nameInput = h('input', {
  id: 'name', type: 'text', maxlength: 24, autocomplete: 'nickname', value: savedName(), 'aria-describedby': 'name-hint',
  oninput: () => saveName(cleanName(nameInput.value)),
});
const els = {
  intro: h('section', { class: 'intro card' }),
  form: h('form', { class: 'create card', 'aria-labelledby': 'create-h', novalidate: true }),
  lists: h('div', { class: 'lists' }),
};
els.form.addEventListener('submit', (e) => { e.preventDefault(); create(); });

replace(app,
  h('header', { class: 'topbar' }, h('a', { href: '/', class: 'brand' }, 'dicehall'), h('span', { class: 'spacer' }), langSwitch()),
  h('div', { class: 'home-layout' }, h('div', { class: 'home-left' }, els.intro, els.form), els.lists));

function game() { return hs.games.find((g) => g.id === hs.game) || hs.games[0]; }

function renderIntro() {
  replace(els.intro,
    h('h1', null, 'dicehall'),
    h('p', { class: 'lead' }, t('app.tagline')),
    h('p', { class: 'field' }, h('label', { for: 'name' }, t('home.you')), nameInput),
    h('p', { class: 'muted small', id: 'name-hint' }, t('home.name.hint')));
}

function renderForm() {
  const g = game();
  const gameSel = h('select', { id: 'f-game', onchange: (e) => { hs.game = e.target.value; renderForm(); } },
    hs.games.map((x) => h('option', { value: x.id, selected: x.id === hs.game }, x.title)));
  hs.players = Math.min(g.maxPlayers, Math.max(g.minPlayers, hs.players));
  const counts = [];
  for (let n = g.minPlayers; n <= g.maxPlayers; n++) counts.push(n);
  const playersSel = h('select', { id: 'f-players', onchange: (e) => { hs.players = Number(e.target.value); renderForm(); } },
    counts.map((n) => h('option', { value: String(n), selected: n === hs.players }, n === 1 ? t(hs.game === 'diceflick' ? 'home.players.practice' : 'home.players.solo') : t('home.players.n', { n }))));

  const seatFields = [];
  for (let i = 0; i < hs.players; i++) {
    if (i === 0) {
      seatFields.push(h('li', { class: 'seat-field' }, h('span', { class: 'seat-label' }, t('home.seat', { n: 1 })), h('span', null, t('home.seat.you'))));
      continue;
    }
    // A bot this game does not have (switching games) becomes its first bot.
    if (hs.seats[i].startsWith('bot:') && !(g.bots || []).includes(hs.seats[i].slice(4))) {
      hs.seats[i] = g.bots && g.bots.length ? 'bot:' + (['medium', 'greedy'].find((b) => g.bots.includes(b)) || g.bots[0]) : 'human';
    }
    const sel = h('select', { id: 'f-seat-' + i, onchange: (e) => { hs.seats[i] = e.target.value; } },
      h('option', { value: 'human', selected: hs.seats[i] === 'human' }, t('home.seat.human')),
      (g.bots || []).map((b) => h('option', { value: 'bot:' + b, selected: hs.seats[i] === 'bot:' + b }, t('home.seat.bot', { bot: t('bot.' + b) }))));
    seatFields.push(h('li', { class: 'seat-field' }, h('label', { class: 'seat-label', for: 'f-seat-' + i }, t('home.seat', { n: i + 1 })), sel));
  }
  const clockSel = h('select', { id: 'f-clock', 'aria-describedby': 'clock-hint', onchange: (e) => { hs.clock = Number(e.target.value); } },
    [0, 30, 60, 120, 300].map((s) => h('option', { value: String(s), selected: s === hs.clock }, s ? t('home.clock.secs', { n: s }) : t('home.clock.none'))));
  const solo = hs.players === 1 && hs.game === 'dicestars'
    ? h('p', { class: 'field' }, h('label', { for: 'f-solo' }, t('home.solo.grid')),
      h('input', { id: 'f-solo', type: 'number', min: 10, max: 60, value: String(hs.soloGrid), oninput: (e) => { hs.soloGrid = Number(e.target.value) || 30; } }))
    : null;
  const bw = hs.game === 'bookworm' ? [
    h('p', { class: 'field check' },
      h('input', { id: 'f-bw-special', type: 'checkbox', checked: hs.bwSpecial, 'aria-describedby': 'bw-special-hint', onchange: (e) => { hs.bwSpecial = e.target.checked; } }),
      h('label', { for: 'f-bw-special' }, t('home.bw.special'))),
    h('p', { class: 'muted small', id: 'bw-special-hint' }, t('home.bw.special.hint')),
    h('p', { class: 'field' }, h('label', { for: 'f-bw-think' }, t('home.bw.think')),
      h('select', { id: 'f-bw-think', onchange: (e) => { hs.bwThink = Number(e.target.value); } },
        [5, 10, 15, 20, 30].map((s) => h('option', { value: String(s), selected: s === hs.bwThink }, t('home.bw.think.secs', { n: s }))))),
  ] : null;
  const df = hs.game === 'diceflick' ? [
    h('p', { class: 'field check' },
      h('input', { id: 'f-df-shift', type: 'checkbox', checked: hs.dfShift, 'aria-describedby': 'df-shift-hint', onchange: (e) => { hs.dfShift = e.target.checked; } }),
      h('label', { for: 'f-df-shift' }, t('home.df.shift'))),
    h('p', { class: 'muted small', id: 'df-shift-hint' }, t('home.df.shift.hint')),
  ] : null;

  replace(els.form,
    h('h2', { id: 'create-h' }, t('home.create')),
    h('p', { class: 'field' }, h('label', { for: 'f-game' }, t('home.game')), gameSel),
    h('p', { class: 'field' }, h('label', { for: 'f-players' }, t('home.players')), playersSel),
    h('ul', { class: 'seat-fields' }, seatFields),
    h('p', { class: 'field' }, h('label', { for: 'f-clock' }, t('home.clock')), clockSel),
    h('p', { class: 'muted small', id: 'clock-hint' }, t('home.clock.hint')),
    solo,
    bw,
    df,
    hs.formError ? h('p', { class: 'error', role: 'alert' }, hs.formError) : h('p', { class: 'sr-only', role: 'status' }, hs.busy ? t('home.creating') : ''),
    h('button', { type: 'submit', class: 'primary big', id: 'create', disabled: hs.busy }, hs.busy ? t('home.creating') : t('home.create.go')));
}

function needName() {
  const name = cleanName(nameInput.value);
  if (!name) {
    hs.formError = t('home.name.missing');
    renderForm();
    nameInput.focus();
    return null;
  }
  saveName(name);
  return name;
}

async function create() {
  const name = needName();
  if (!name) return;
  const seats = [{ kind: 'human' }];
  for (let i = 1; i < hs.players; i++) {
    const v = hs.seats[i];
    seats.push(v === 'human' ? { kind: 'human' } : { kind: 'bot', bot: v.slice(4) });
  }
  const options = {};
  if (hs.players === 1 && hs.game === 'dicestars' && hs.soloGrid !== 30) options.soloGrid = hs.soloGrid;
  if (hs.game === 'bookworm') {
    if (!hs.bwSpecial) options.special = false;
    if (hs.bwThink !== 10) options.thinkSeconds = hs.bwThink;
  }
  if (hs.game === 'diceflick' && hs.dfShift) options.shiftBases = true;
  hs.busy = true;
  hs.formError = '';
  renderForm();
  try {
    const res = await api.create({ game: hs.game, name, options, settings: { turnSeconds: hs.clock }, seats });
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
    renderLists();
    refresh();
  }
}

function seatsText(tb) {
  return tb.seats.map((s) => {
    if (s.kind === 'bot') return t('seat.bot', { bot: t('bot.' + s.bot) });
    return s.taken ? s.name : t('seat.free');
  }).join(' · ');
}

function tableItem(tb, kind) {
  const actions = [];
  if (kind === 'open') {
    tb.seats.forEach((s, i) => {
      if (s.kind === 'human' && !s.taken) {
        actions.push(h('button', { type: 'button', class: 'primary', 'data-join': `${tb.id}:${i}`, onclick: () => joinSeat(tb.id, i) },
          t('home.join.seat', { seat: t('home.seat', { n: i + 1 }) })));
      }
    });
    actions.push(h('a', { class: 'button', href: '/t/' + encodeURIComponent(tb.id) }, t('home.open.table')));
  } else if (kind === 'live') {
    actions.push(h('a', { class: 'button', href: '/t/' + encodeURIComponent(tb.id), 'data-watch': tb.id }, t('home.watch')));
  } else {
    actions.push(h('a', { class: 'button', href: '/t/' + encodeURIComponent(tb.id), 'data-replay': tb.id }, t('home.replay')));
  }
  let extra = null;
  if (kind === 'over' && tb.result && tb.result.scores) {
    extra = h('span', { class: 'muted small' }, tb.result.scores.join(' – '));
  }
  return h('li', { class: 'table-item', 'data-table': tb.id },
    h('div', { class: 'ti-main' },
      h('strong', null, tb.title || tb.game), ' ',
      h('span', { class: 'muted small' }, seatsText(tb)), ' ', extra),
    h('div', { class: 'ti-actions' }, actions));
}

function renderLists() {
  const section = (kind, titleKey, noneKey) => {
    const list = hs.lists[kind];
    return h('section', { class: 'card list', 'aria-labelledby': 'l-' + kind, 'data-list': kind },
      h('h2', { id: 'l-' + kind }, t(titleKey)),
      list === null ? h('p', { class: 'muted' }, '…')
        : list.length ? h('ul', { class: 'tables' }, list.map((tb) => tableItem(tb, kind)))
          : h('p', { class: 'muted' }, t(noneKey)));
  };
  replace(els.lists,
    hs.joinError ? h('p', { class: 'error', role: 'alert' }, hs.joinError) : null,
    hs.loadError ? h('p', { class: 'error', role: 'alert' }, hs.loadError) : null,
    section('open', 'home.open', 'home.none.open'),
    section('live', 'home.live', 'home.none.live'),
    section('over', 'home.over', 'home.none.over'),
    h('p', { class: 'muted small' }, t('home.updated')));
}

async function refresh() {
  try {
    const [open, live, over] = await Promise.all([api.tables(['open']), api.tables(['live']), api.tables(['over'])]);
    hs.lists = { open: open || [], live: live || [], over: (over || []).slice(0, 20) };
    hs.loadError = '';
  } catch (e) {
    hs.loadError = t('home.lists.failed', { msg: e.message });
  }
  // Do not redraw under the keyboard: a redraw would drop focus from a button.
  const focused = document.activeElement;
  const key = focused && (focused.dataset.join || focused.dataset.watch || focused.dataset.replay);
  renderLists();
  if (key) els.lists.querySelector(`[data-join="${key}"],[data-watch="${key}"],[data-replay="${key}"]`)?.focus();
}

async function loadGames() {
  try {
    const g = await api.games();
    const offered = Array.isArray(g) ? g.filter((x) => playable(x.id)) : [];
    // A bot is described as {kind, label}; the form works with kinds.
    if (offered.length) hs.games = offered.map((x) => ({ ...x, bots: (x.bots || []).map((b) => b.kind ?? b) }));
  } catch { /* keep the built-in list */ }
  if (!hs.games.some((g) => g.id === hs.game)) hs.game = hs.games[0].id;
  renderForm();
}

function renderAll() {
  document.title = 'dicehall';
  renderIntro();
  renderForm();
  renderLists();
}

onLangChange(renderAll);
renderAll();
loadGames();
refresh();
setInterval(() => { if (!document.hidden) refresh(); }, 4000);
document.addEventListener('visibilitychange', () => { if (!document.hidden) refresh(); });
