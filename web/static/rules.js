// The rules page of a game, /rules/<id>: the game's rules in the page's
// language from GET /api/games/{id}/rules (already parsed into blocks by the
// server: headings, paragraphs, lists, bold, examples), a table of contents,
// and every example drawn by the game's own renderer from a real game's view,
// as the replay draws a step: renderBoard(view, {seat}).

import { h, replace, $ } from '/static/dom.js';
import { t, onLangChange, langSwitch, currentLang } from '/static/i18n.js';
import { api } from '/static/api.js';
import { loadGames, renderer } from '/static/games.js';

const gameId = decodeURIComponent(location.pathname.split('/')[2] || '');

const app = $('#app');
const back = h('a', { href: '/', class: 'back' });
const toc = h('nav', { class: 'rules-toc card', 'aria-labelledby': 'rules-toc-h', 'data-testid': 'rules-toc' });
const article = h('article', { class: 'rules-text card', 'data-testid': 'rules-text', 'aria-busy': 'true' });

replace(app,
  h('header', { class: 'topbar' },
    h('a', { href: '/', class: 'brand' }, 'dicehall'), back, h('span', { class: 'spacer' }), langSwitch()),
  h('div', { class: 'rules-layout' }, toc, article));

// spans turns a block's text runs into nodes: bold is <strong>, the rest text.
function spans(list) {
  return (list || []).map((s) => (s.bold ? h('strong', null, s.text) : s.text));
}

// slug makes a heading's anchor: stable across reloads, unique on the page.
function slugger() {
  const used = new Map();
  return (text) => {
    const base = text.toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '')
      .replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'section';
    const n = used.get(base) || 0;
    used.set(base, n + 1);
    return n ? `${base}-${n + 1}` : base;
  };
}

// example draws one example with the game's renderer; a failure leaves a
// note in its place rather than break the page.
function example(mod, name, ex, n) {
  const fig = h('figure', { class: 'rules-example', 'data-testid': 'rules-example', 'data-example': name });
  const board = h('div', { class: 'rules-board', inert: true });
  let drawn = null;
  try {
    if (!ex || !mod) throw new Error('no example ' + name);
    drawn = mod.renderBoard(ex.view, { seat: ex.seat });
  } catch (e) {
    console.warn('rules example', name, e);
  }
  if (drawn instanceof Node) {
    board.append(drawn);
    board.dataset.drawn = 'true';
    // The board's own headings (a table's sections) are part of the
    // picture, not of the rules' outline: they read as text here.
    for (const hd of board.querySelectorAll('h1, h2, h3, h4, h5, h6')) hd.setAttribute('role', 'none');
  } else {
    board.append(h('p', { class: 'muted' }, t('rules.example.missing')));
  }
  // A wide board scrolls sideways on a small screen; the scroller takes the
  // keyboard focus so it can be scrolled without a pointer.
  const scroller = h('div', { class: 'rules-scroller', tabindex: '0', role: 'region', 'aria-label': t('rules.example', { n }) }, board);
  fig.append(scroller, h('figcaption', { class: 'small muted' }, t('rules.example.caption')));
  return fig;
}

function drawToc(headings) {
  replace(toc,
    h('h2', { id: 'rules-toc-h' }, t('rules.toc')),
    h('ol', null, headings.map(({ id, text }) => h('li', null, h('a', { href: '#' + id }, text)))),
    h('p', { class: 'rules-cta' }, h('a', { href: '/', class: 'button primary' }, t('rules.play'))));
}

function draw(data, mod) {
  const slug = slugger();
  const headings = [];
  let examples = 0;
  const title = t('rules.heading', { game: data.title });
  document.title = `${title} · dicehall`;
  const nodes = [h('h1', { 'data-testid': 'rules-title' }, title)];
  for (const b of data.blocks || []) {
    switch (b.kind) {
      case 'h2': {
        const text = b.spans.map((s) => s.text).join('');
        const id = slug(text);
        headings.push({ id, text });
        nodes.push(h('h2', { id, tabindex: '-1' }, spans(b.spans)));
        break;
      }
      case 'h3': nodes.push(h('h3', null, spans(b.spans))); break;
      case 'p': nodes.push(h('p', null, spans(b.spans))); break;
      case 'ul':
      case 'ol': nodes.push(h(b.kind, null, (b.items || []).map((it) => h('li', null, spans(it))))); break;
      case 'example': nodes.push(example(mod, b.example, data.examples?.[b.example], ++examples)); break;
      default: break;
    }
  }
  nodes.push(h('p', { class: 'rules-end' }, h('a', { href: '/', class: 'button primary' }, t('rules.play'))));
  replace(article, nodes);
  article.setAttribute('aria-busy', 'false');
  drawToc(headings);
  // Coming from a link to a section: go there once the text is in.
  if (location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
}

let mod = null;
let loadSeq = 0;

async function load() {
  const seq = ++loadSeq;
  back.textContent = '← ' + t('table.back');
  article.setAttribute('aria-busy', 'true');
  if (!article.firstChild) replace(article, h('p', { class: 'muted' }, t('rules.loading')));
  try {
    // The game's page words (its renderer's labels) come with the games.
    await loadGames();
    const [data, m] = await Promise.all([
      api.rules(gameId, currentLang()),
      mod ? mod : renderer(gameId).catch((e) => { console.warn('renderer', e); return null; }),
    ]);
    mod = m;
    if (seq !== loadSeq) return;
    draw(data, mod);
  } catch (e) {
    if (seq !== loadSeq) return;
    document.title = 'dicehall';
    replace(toc);
    replace(article, h('h1', null, t('rules.title')),
      h('p', { class: 'error', role: 'alert' }, e.status === 404 ? t('rules.notfound') : t('rules.failed', { msg: e.message })),
      h('p', null, h('a', { href: '/' }, t('table.back'))));
    article.setAttribute('aria-busy', 'false');
  }
}

onLangChange(load);
load();
