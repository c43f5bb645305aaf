// The leaderboards, /leaderboard?game=<id>&offset=<n>: one tab per game
// (GET /api/games), the game's rated players best first (GET
// /api/leaderboard/{game}), a page at a time; the signed-in player's row
// is marked, every name leads to its profile. Without ?game= the server
// picks the board (GET /api/leaderboard): the player's most played rated
// game, else the busiest board.

import { h, replace, $ } from '/static/dom.js';
import { t, onLangChange, langSwitch } from '/static/i18n.js';
import { accountLink } from '/static/auth.js';
import { api } from '/static/api.js';
import { loadGames } from '/static/games.js';
import { profileLink, num, pager } from '/static/players.js';

const LIMIT = 50;
const ls = { games: [], game: '', offset: 0, board: null, error: '' };

const app = $('#app');
// On a phone the words hide (.back-word) and leave room for the account link.
const backWord = h('span', { class: 'back-word' });
const back = h('a', { href: '/', class: 'back' }, h('span', { 'aria-hidden': 'true' }, '← '), backWord);
const heading = h('h1', { id: 'lb-h' });
const tabs = h('nav', { class: 'lb-tabs', 'aria-labelledby': 'lb-h' });
const body = h('section', { class: 'card lb-body', 'aria-live': 'polite', 'data-testid': 'leaderboard' });

replace(app,
  h('header', { class: 'topbar' }, h('a', { href: '/', class: 'brand' }, 'dicehall'), back, h('span', { class: 'spacer' }), accountLink(), langSwitch()),
  h('div', { class: 'players-layout' }, heading, tabs, body));

function readURL() {
  const q = new URLSearchParams(location.search);
  ls.game = q.get('game') || '';
  ls.offset = Math.max(0, Number.parseInt(q.get('offset') || '0', 10) || 0);
}

function url(game, offset) {
  return '/leaderboard?game=' + encodeURIComponent(game) + (offset ? '&offset=' + offset : '');
}

// show moves to a game's board, or another page of it, without a reload.
function show(game, offset) {
  history.pushState(null, '', url(game, offset));
  readURL();
  load();
}

function renderTabs() {
  replace(tabs, h('ul', null, ls.games.map((g) => h('li', null,
    h('a', {
      href: url(g.id, 0), 'data-game': g.id, 'aria-current': g.id === ls.game ? 'page' : null,
      onclick: (e) => { e.preventDefault(); show(g.id, 0); },
    }, g.title)))));
}

function row(r) {
  return h('tr', { class: r.you ? 'me' : null, 'data-name': r.name },
    h('td', { class: 'num' }, String(r.rank)),
    h('th', { scope: 'row', class: 'who' }, profileLink(r.name),
      r.you ? h('span', { class: 'tag' }, t('seat.you')) : null),
    h('td', { class: 'num rating' }, num(r.rating)),
    h('td', { class: 'num est muted' }, `${num(r.mu, 1)} ± ${num(r.sigma, 1)}`),
    h('td', { class: 'num' }, num(r.games)));
}

function render() {
  document.title = t('lb.title') + ' · dicehall';
  backWord.textContent = t('table.back');
  heading.textContent = t('lb.title');
  renderTabs();
  const b = ls.board;
  if (ls.error) {
    replace(body, h('p', { class: 'error', role: 'alert' }, ls.error));
    return;
  }
  if (!b) {
    replace(body, h('p', { class: 'muted' }, '…'));
    body.setAttribute('aria-busy', 'true');
    return;
  }
  body.removeAttribute('aria-busy');
  const title = ls.games.find((g) => g.id === b.game)?.title || b.game;
  replace(body,
    h('h2', null, title),
    b.rows.length
      ? h('div', { class: 'lb-scroll' }, h('table', { class: 'lb-table' },
        h('thead', null, h('tr', null,
          h('th', { scope: 'col', class: 'num' }, t('lb.rank')),
          h('th', { scope: 'col' }, t('lb.player')),
          h('th', { scope: 'col', class: 'num' }, t('lb.rating')),
          h('th', { scope: 'col', class: 'num est' }, t('lb.estimate')),
          h('th', { scope: 'col', class: 'num' }, t('lb.games')))),
        h('tbody', null, b.rows.map(row))))
      : h('p', { class: 'muted', 'data-testid': 'lb-empty' }, t('lb.empty')),
    pager(b.offset, b.limit, b.total, (o) => show(b.game, o)),
    h('p', { class: 'muted small lb-about' }, t('lb.about', { n: b.minGames })));
}

async function load() {
  if (!ls.games.some((g) => g.id === ls.game)) ls.game = ''; // the server picks
  ls.board = null;
  ls.error = '';
  render();
  if (!ls.games.length) return;
  const want = [ls.game, ls.offset];
  try {
    const b = await api.leaderboard(ls.game, ls.offset, LIMIT);
    if (want[0] !== ls.game || want[1] !== ls.offset) return; // another tab was chosen meanwhile
    ls.game = b.game;
    ls.board = b;
  } catch (e) {
    ls.error = t('lb.failed', { msg: e.message });
  }
  render();
}

async function start() {
  readURL();
  try {
    ls.games = await loadGames();
  } catch (e) {
    ls.error = t('lb.failed', { msg: e.message });
    render();
    return;
  }
  load();
}

onLangChange(render);
window.addEventListener('popstate', () => { readURL(); load(); });
start();
