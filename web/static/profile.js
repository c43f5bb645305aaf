// A player's profile, /u/<name> (GET /api/players/{name}): since when
// they play, per game their rating, games, wins, mean and best score and
// the rating over time (an SVG chart drawn here), then their finished
// games, the latest first, each with its replay.

import { h, svg, replace, $ } from '/static/dom.js';
import { t, onLangChange, langSwitch } from '/static/i18n.js';
import { accountLink } from '/static/auth.js';
import { api } from '/static/api.js';
import { loadGames, botSeatName, personName } from '/static/games.js';
import { profileLink, place, num, day, pager } from '/static/players.js';

const LIMIT = 20;
const name = decodeURIComponent(location.pathname.split('/')[2] || '');
const ps = { profile: null, error: '', offset: 0 };

const app = $('#app');
// On a phone the words hide (.back-word) and leave room for the account link.
const backWord = h('span', { class: 'back-word' });
const back = h('a', { href: '/leaderboard', class: 'back' }, h('span', { 'aria-hidden': 'true' }, '← '), backWord);
const main = h('div', { class: 'players-layout', 'aria-live': 'polite' });

replace(app,
  h('header', { class: 'topbar' }, h('a', { href: '/', class: 'brand' }, 'dicehall'), back, h('span', { class: 'spacer' }), accountLink(), langSwitch()),
  main);

// chart draws a rating history (display ratings, oldest first) as a line
// over the games; its numbers are said in words beside it.
function chart(points) {
  if (points.length < 2) return h('p', { class: 'muted small' }, t('profile.chart.few'));
  const W = 300;
  const H = 90;
  const pad = 6;
  const ys = points.map((p) => p.rating);
  let lo = Math.min(...ys);
  let hi = Math.max(...ys);
  if (hi - lo < 4) { lo -= 2; hi += 2; }
  const x = (i) => pad + (i * (W - 2 * pad)) / (points.length - 1);
  const y = (v) => H - pad - ((v - lo) * (H - 2 * pad)) / (hi - lo);
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' ');
  const words = t('profile.chart', { n: points.length, first: num(ys[0]), last: num(ys[ys.length - 1]) });
  return h('figure', { class: 'rating-chart' },
    h('div', { class: 'chart-box' },
      h('span', { class: 'chart-hi small muted', 'aria-hidden': 'true' }, num(hi)),
      svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': words, preserveAspectRatio: 'none', 'data-testid': 'rating-chart' },
        svg('line', { class: 'chart-grid', x1: 0, x2: W, y1: y(hi), y2: y(hi) }),
        svg('line', { class: 'chart-grid', x1: 0, x2: W, y1: y(lo), y2: y(lo) }),
        svg('polyline', { class: 'chart-line', points: line, 'vector-effect': 'non-scaling-stroke' })),
      h('span', { class: 'chart-lo small muted', 'aria-hidden': 'true' }, num(lo))),
    h('figcaption', { class: 'muted small' }, words));
}

function statCard(s) {
  const stat = (label, value) => h('div', { class: 'stat' }, h('dt', null, label), h('dd', null, value));
  return h('section', { class: 'card stat-card', 'data-game': s.game, 'aria-label': s.title },
    h('h3', null, s.title),
    h('p', { class: 'stat-rating' }, s.rating
      ? [h('span', { class: 'stat-big' }, num(s.rating.rating)), ' ', h('span', { class: 'muted small' }, t('profile.rating'))]
      : h('span', { class: 'muted' }, t('profile.unrated'))),
    h('dl', { class: 'stats' },
      stat(t('profile.played'), num(s.played)),
      stat(t('profile.wins'), num(s.wins)),
      stat(t('profile.mean'), num(s.mean, 1)),
      stat(t('profile.best'), num(s.best))),
    chart(s.history || []));
}

function seatLabel(g, s, i) {
  return s.kind === 'bot' ? botSeatName(g.game, s) : personName(s) || t('home.seat', { n: i + 1 });
}

function gameItem(g) {
  const me = g.seat;
  const won = (g.result?.winners || []).includes(me);
  const score = g.result?.scores?.[me];
  const others = g.seats.map((s, i) => [s, i]).filter(([, i]) => i !== me)
    .map(([s, i]) => profileLink(s.profile, seatLabel(g, s, i)));
  return h('li', { class: 'game-item', 'data-table': g.id },
    h('div', { class: 'gi-main' },
      h('p', { class: 'gi-head' }, h('strong', null, g.title || g.game), ' ',
        h('time', { class: 'muted small', datetime: g.updated }, day(g.updated)),
        g.rated ? h('span', { class: 'rated-tag' }, t('home.rated.tag')) : null),
      h('p', { class: 'small' },
        h('span', { class: 'g-place' + (won ? ' won' : '') },
          t('profile.place', { place: place((g.places?.[me] ?? 0) + 1), n: g.seats.length }),
          won ? ' · ' + t('profile.won') : ''),
        score !== undefined ? ' · ' + t('table.points', { n: score }) : null),
      others.length ? h('p', { class: 'small muted' }, t('profile.against'), ' ', others.flatMap((o, i) => (i ? [', ', o] : [o]))) : null),
    h('div', { class: 'gi-actions' },
      h('a', { class: 'button', href: '/t/' + encodeURIComponent(g.id), 'data-replay': g.id }, t('home.replay'))));
}

function render() {
  backWord.textContent = t('lb.title');
  const p = ps.profile;
  if (ps.error) {
    document.title = 'dicehall';
    replace(main, h('section', { class: 'card' }, h('p', { class: 'error', role: 'alert' }, ps.error)));
    return;
  }
  if (!p) {
    replace(main, h('p', { class: 'muted' }, '…'));
    return;
  }
  document.title = p.name + ' · dicehall';
  replace(main,
    h('header', { class: 'profile-head' },
      h('h1', null, p.name, p.you ? h('span', { class: 'tag' }, t('seat.you')) : null),
      h('p', { class: 'muted' }, t('profile.since', { date: day(p.since) }))),
    p.stats.length ? [h('h2', null, t('profile.stats')), h('div', { class: 'stat-cards', 'data-testid': 'stats' }, p.stats.map(statCard))] : null,
    h('section', { class: 'card list', 'aria-labelledby': 'games-h', 'data-testid': 'games' },
      h('h2', { id: 'games-h' }, t('profile.games')),
      p.games.length ? h('ul', { class: 'game-list' }, p.games.map(gameItem)) : h('p', { class: 'muted' }, t('profile.games.none')),
      pager(p.offset, p.limit, p.total, (o) => { ps.offset = o; load(); })));
}

async function load() {
  try {
    ps.profile = await api.player(name, ps.offset, LIMIT);
    ps.error = '';
  } catch (e) {
    ps.error = e.status === 404 ? t('profile.notfound', { name }) : t('profile.failed', { msg: e.message });
  }
  render();
}

onLangChange(render);
render();
loadGames().catch(() => {}).then(load);
