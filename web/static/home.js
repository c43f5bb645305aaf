// The home page: a name, a new table, and the lists of open, live and
// finished tables (refreshed every few seconds).

import { h, replace, $ } from '/static/dom.js';
import { t, onLangChange, langSwitch } from '/static/i18n.js';
import { api, savedName, saveName, cleanName } from '/static/api.js';
import { loadGames as loadGameInfos, botLabel } from '/static/games.js';

// The form is built from each game's description (GET /api/games, an
// engine.Info): its seat bounds, one-player mode, bots and options.
const hs = {
  games: [], // the games this page can draw, as described by the server
  game: '',
  players: 2,
  // Per seat, 'human' or 'bot:<kind>'; a kind the game lacks (none yet,
  // or after switching games) becomes the game's default bot.
  seats: ['human', 'bot:', 'bot:', 'bot:', 'bot:', 'bot:', 'bot:', 'bot:'],
  clock: 0,
  options: {}, // game id -> option name -> the value chosen
  lists: { open: null, live: null, over: null },
  gamesError: '',
  loadError: '',
  joinError: '',
  formError: '',
  busy: false,
};

const app = $('#app');
const nameInput = h('input', {
  id: 'name', type: 'text', maxlength: 24, autocomplete: 'nickname', value: savedName(), 'aria-describedby': 'name-hint',
  oninput: () => {
    saveName(cleanName(nameInput.value));
    // An error about the form is stale once the person types again.
    if (hs.formError) { hs.formError = ''; renderForm(); }
  },
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

function optionField(g, o) {
  const id = 'f-opt-' + o.name;
  const hintId = o.hint ? id + '-hint' : undefined;
  const hint = o.hint ? h('p', { class: 'muted small', id: hintId }, t(o.hint)) : null;
  const v = optionValue(g, o);
  if (o.type === 'bool') {
    return [h('p', { class: 'field check' },
      h('input', { id, type: 'checkbox', checked: v, 'aria-describedby': hintId, onchange: (e) => setOption(g, o, e.target.checked) }),
      h('label', { for: id }, t(o.label))), hint];
  }
  if (o.type === 'choice') {
    // A named value (the word language); its own hint says what choosing
    // it means (where bots play it less well), beside the option's.
    const cur = (o.values || []).find((x) => x.value === v);
    const valueHintId = cur && cur.hint ? id + '-value-hint' : undefined;
    const described = [hintId, valueHintId].filter(Boolean).join(' ') || undefined;
    return [h('p', { class: 'field' }, h('label', { for: id }, t(o.label)),
      h('select', { id, 'aria-describedby': described, onchange: (e) => { setOption(g, o, e.target.value); renderForm(); } },
        (o.values || []).map((x) => h('option', { value: x.value, selected: x.value === v }, t(x.label))))),
    hint, valueHintId ? h('p', { class: 'note small', id: valueHintId, role: 'note' }, t(cur.hint)) : null];
  }
  let input;
  if (o.choices && o.choices.length) {
    const values = o.choices.includes(v) ? o.choices : [...o.choices, v].sort((a, b) => a - b);
    input = h('select', { id, 'aria-describedby': hintId, onchange: (e) => setOption(g, o, Number(e.target.value)) },
      values.map((c) => h('option', { value: String(c), selected: c === v }, o.unit ? t(o.unit, { n: c }) : String(c))));
  } else {
    const unit = o.unit ? h('span', { class: 'unit' }, unitWord(o, v)) : null;
    input = h('span', { class: 'with-unit' },
      h('input', {
        id, type: 'number', inputmode: 'numeric', min: o.min ?? 0, max: o.max, step: 1, value: String(v), 'aria-describedby': hintId,
        oninput: (e) => {
          const n = e.target.valueAsNumber;
          setOption(g, o, Number.isInteger(n) ? n : o.default);
          if (unit) unit.textContent = unitWord(o, optionValue(g, o));
        },
      }), unit);
  }
  return [h('p', { class: 'field' }, h('label', { for: id }, t(o.label)), input), hint];
}

function renderForm() {
  const g = game();
  if (!g) {
    replace(els.form,
      h('h2', { id: 'create-h' }, t('home.create')),
      hs.gamesError ? h('p', { class: 'error', role: 'alert' }, hs.gamesError) : h('p', { class: 'muted' }, '…'));
    return;
  }
  const gameSel = h('select', { id: 'f-game', onchange: (e) => { hs.game = e.target.value; hs.formError = ''; renderForm(); } },
    hs.games.map((x) => h('option', { value: x.id, selected: x.id === g.id }, x.title)));
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
  const clockSel = h('select', { id: 'f-clock', 'aria-describedby': 'clock-hint', onchange: (e) => { hs.clock = Number(e.target.value); } },
    [0, 30, 60, 120, 300].map((s) => h('option', { value: String(s), selected: s === hs.clock }, s ? t('home.clock.secs', { n: s }) : t('home.clock.none'))));

  replace(els.form,
    h('h2', { id: 'create-h' }, t('home.create')),
    h('p', { class: 'field' }, h('label', { for: 'f-game' }, t('home.game')), gameSel),
    h('p', { class: 'field' }, h('label', { for: 'f-players' }, t('home.players')), playersSel),
    h('ul', { class: 'seat-fields' }, seatFields),
    h('p', { class: 'field' }, h('label', { for: 'f-clock' }, t('home.clock')), clockSel),
    h('p', { class: 'muted small', id: 'clock-hint' }, t('home.clock.hint')),
    offered(g).map((o) => optionField(g, o)),
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
  // Only what differs from the game's defaults is sent.
  const g = game();
  const options = {};
  for (const o of offered(g)) {
    const v = optionValue(g, o);
    if (JSON.stringify(v) !== JSON.stringify(o.default)) options[o.name] = v;
  }
  hs.busy = true;
  hs.formError = '';
  renderForm();
  try {
    const res = await api.create({ game: g.id, name, options, settings: { turnSeconds: hs.clock }, seats });
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
    if (s.kind === 'bot') return t('seat.bot', { bot: botLabel(tb.game, s.bot) });
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
  renderForm();
  renderLists();
}

onLangChange(renderAll);
renderAll();
loadGames();
refresh();
setInterval(() => { if (!document.hidden) refresh(); }, 4000);
document.addEventListener('visibilitychange', () => { if (!document.hidden) refresh(); });
