// Bookworm in the browser. The board is the stage: the category card, the
// display of dice, the word field under them on your turn (tap a die to
// choose the one your word takes, Enter says the word), the judging of a
// word with its buttons and countdown, and every player's pile. Others'
// words are paced so they can be followed; taken dice fly to their taker.
// Exports: the renderer contract of table.js and replay.js, plus
// turnText (the status line's sentence), renderResult (the end screen's
// per-round breakdown) and highlightHint (the coach's choice on the board).

import { h, reducedMotion, sleep } from '/static/dom.js';
import { t, currentLang, winnersText } from '/static/i18n.js';
import { pref, pace } from '/static/prefs.js';
import '/static/bookworm.messages.js';

export const id = 'bookworm';

const LEVELS = ['easy', 'medium', 'hard'];
const TURN_TO = ['a-z', 'not', 'dots', 'stack', '?'];

// --- game time ---------------------------------------------------------------
// The view's times are ms of game time. The first time a view with a given
// `now` is drawn, that instant is pinned to performance.now() (to the
// moment its update arrived when the drawing waited for a paced animation):
// the countdown runs from there.
const anchors = new Map();
let arrival = 0; // performance.now() when the latest update arrived, until drawn
function pin(now, at) {
  anchors.set(now, at);
  if (anchors.size > 64) anchors.delete(anchors.keys().next().value);
}
function anchor(now) {
  if (!anchors.has(now)) pin(now, performance.now());
  return anchors.get(now);
}
function gameNow(now) { return now + (performance.now() - anchor(now)); }

// firstLetter is the letter the rules read: the first a–z of the word once
// accents are gone (the server's normalization; good enough to pick a die).
export function firstLetter(word) {
  const m = wordKey(word).match(/[a-z]/);
  return m ? m[0] : '';
}

function wordKey(word) {
  return String(word || '').normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/ß/g, 'ss')
    .replace(/[^a-z]+/g, ' ').trim();
}

// --- names -----------------------------------------------------------------------

function specialName(face) { return t('bw.sp.' + face); }

// catName names category i of the card in the page's language.
function catName(view, i) {
  if (i < 0 || !view.card) return '';
  return view.cardNames?.[currentLang()]?.[i] || view.card.categories[i]?.name || '';
}
function chosenName(view) { return view.category ? catName(view, view.category.index) : ''; }

function seatName(view, seat) { return view.players?.[seat]?.name ?? ''; }

function dieLabel(d) {
  if (d.special) return t('bw.die.special', { face: specialName(d.face), n: d.points });
  return t('bw.die', { face: d.face, n: d.points });
}

// --- dice ------------------------------------------------------------------------

// faceEl draws what a die shows: a letter over its pips, or the Special
// die's face as printed (two pips, A–Z, NOT, ?, an arrow to turn it, a
// stack of dice), never its points.
function faceEl(d) {
  if (!d.special) {
    const n = Math.max(0, Math.min(d.points, 6));
    return [h('span', { class: `bw-face${d.face.length > 1 ? ' bw-wide' : ''}` }, d.face),
      h('span', { class: 'bw-pips' }, Array.from({ length: n }, () => h('span', { class: 'bw-pip' })))];
  }
  switch (d.face) {
    case 'dots': return h('span', { class: 'bw-pips big' }, h('span', { class: 'bw-pip' }), h('span', { class: 'bw-pip' }));
    case 'stack': return h('span', { class: 'bw-stack' }, h('span'), h('span'), h('span'));
    case 'turn': return h('span', { class: 'bw-face' }, '↻');
    case 'a-z': return h('span', { class: 'bw-face bw-small-face' }, 'A–Z');
    case 'not': return h('span', { class: 'bw-face bw-small-face' }, 'NOT');
    default: return h('span', { class: 'bw-face' }, d.face);
  }
}

// dieEl draws a die (a span; pick dice are wrapped in a button).
export function dieEl(d, extra = '') {
  return h('span', {
    class: `bw-die${d.special ? ' bw-special' : ''} ${extra}`.trim(),
    role: 'img', 'aria-label': dieLabel(d), title: dieLabel(d), 'data-die': d.die, 'data-face': d.face,
  }, h('span', { class: 'bw-die-in', 'aria-hidden': 'true' }, faceEl(d)));
}

function levelTag(level) {
  const name = typeof level === 'number' ? LEVELS[level] : level;
  return h('span', { class: `bw-level bw-${name}` }, t('bw.level.' + name));
}

// --- the clock -----------------------------------------------------------------

function clockText(el) {
  const now = Number(el.dataset.now);
  const at = Number(el.dataset.countdownAt);
  const end = Number(el.dataset.deadline);
  const g = el.closest('.replay-slot') ? now : gameNow(now);
  const left = Math.max(0, Math.ceil((end - g) / 1000));
  if (el.dataset.phase === 'name' && at && g < at) {
    return { big: false, text: t('bw.clock.think', { s: Math.max(0, Math.ceil((at - g) / 1000)) }) };
  }
  return { big: el.dataset.phase === 'name', n: left, text: t('bw.clock.' + el.dataset.phase, { s: left }) };
}

function tickClock(el) {
  const c = clockText(el);
  const big = el.querySelector('.bw-count');
  el.classList.toggle('counting', c.big);
  const txt = c.big ? String(c.n) : '';
  if (big.textContent !== txt) {
    big.textContent = txt;
    if (txt && !reducedMotion()) { big.classList.remove('pulse'); void big.offsetWidth; big.classList.add('pulse'); }
  }
  const small = el.querySelector('.bw-clock-text');
  if (small.textContent !== c.text) small.textContent = c.text;
}

let ticking = false;
function startTicking() {
  if (ticking) return;
  ticking = true;
  setInterval(() => { for (const el of document.querySelectorAll('.bw-clock')) tickClock(el); }, 200);
}

function clockEl(view) {
  if (view.over || !view.deadline || !['name', 'challenge', 'vote'].includes(view.phase)) return null;
  anchor(view.now);
  const el = h('div', {
    class: 'bw-clock', role: 'timer', 'data-testid': 'bw-clock',
    'data-now': view.now, 'data-countdown-at': view.countdownAt || 0, 'data-deadline': view.deadline, 'data-phase': view.phase,
  },
  h('span', { class: 'bw-count', 'aria-hidden': 'true' }),
  h('span', { class: 'bw-clock-text' }));
  tickClock(el);
  startTicking();
  return el;
}

// --- what the board says ---------------------------------------------------------

function phaseLine(view, me) {
  const j = view.judging;
  switch (view.phase) {
    case 'card':
      // A card is drawn the moment the table starts: a board that shows
      // this phase for long is waiting for its players.
      return view.round <= 1 && !view.card && !(view.rounds || []).length ? t('bw.phase.start') : t('bw.phase.card');
    case 'category': return view.current === me ? t('bw.phase.category.you') : t('bw.phase.category', { name: view.current });
    case 'roll': return t('bw.phase.roll');
    case 'turn-to': return view.bookworm === me ? t('bw.phase.turnto.you') : t('bw.phase.turnto', { name: view.bookworm });
    case 'name':
      if (view.rejected && view.rejected.speaker !== me) return t('bw.phase.retry', { name: view.current, word: view.rejected.word });
      return view.current === me ? t('bw.phase.name.you', { cat: chosenName(view) }) : t('bw.phase.name', { name: view.current, cat: chosenName(view) });
    case 'challenge':
      if (j?.speaker === me) return t('bw.phase.challenge.yours', { word: j.word });
      return t(j?.known ? 'bw.phase.challenge.known' : 'bw.phase.challenge', { name: j?.speaker ?? '?', word: j?.word ?? '' });
    case 'vote':
      if (j?.speaker === me) return t('bw.phase.vote.yours', { word: j.word, name: j.challenger || '?' });
      return t('bw.phase.vote', { name: j?.challenger || '?', word: j?.word ?? '', speaker: j?.speaker ?? '' });
    case 'over': return t('bw.over');
  }
  return view.phase;
}

// turnText is the table's status line for Bookworm (null: the table's own
// sentence): during a challenge or a vote it says so, not "Bob's turn".
export function turnText(view, turn, seat) {
  if (!view || view.over) return null;
  const me = seatName(view, seat);
  const acting = (turn?.actors || []).includes(seat);
  const j = view.judging;
  switch (view.phase) {
    case 'vote':
      if (acting) return t('bw.status.vote.you', { word: j?.word ?? '', cat: chosenName(view) });
      if (j?.speaker === me) return t('bw.status.vote.yours', { word: j.word });
      return t('bw.status.vote', { word: j?.word ?? '', name: j?.speaker ?? '' });
    case 'challenge':
      if (acting) return t('bw.status.challenge.you', { word: j?.word ?? '' });
      if (j?.speaker === me) return t('bw.status.challenge.yours', { word: j.word });
      return t('bw.status.challenge', { word: j?.word ?? '', name: j?.speaker ?? '' });
    case 'name':
      if (acting) return t('bw.status.name.you', { cat: chosenName(view) });
      return t('bw.status.name', { name: view.current });
    case 'category':
      return acting ? t('bw.phase.category.you') : t('bw.phase.category', { name: view.current });
    case 'turn-to':
      return acting ? t('bw.phase.turnto.you') : null;
  }
  return null;
}

// --- the board ---------------------------------------------------------------------

// Per-draw context: who looks, what they may do, how to act.
function context(view, opts) {
  const seat = opts.seat ?? -3;
  const live = !!(opts.canAct && opts.act);
  const legal = live ? (view.legal || []) : [];
  return { view, seat, me: seatName(view, seat), legal, act: opts.act, redraw: opts.redraw || (() => {}), live };
}

function cardEl(c) {
  const { view } = c;
  const chosen = view.category ? view.category.index : -1;
  const choosing = c.legal.includes('category');
  if (!view.card) {
    return h('section', { class: 'bw-card empty', 'aria-label': t('bw.card') },
      h('h2', null, t('bw.card')), h('p', { class: 'muted small' }, t('bw.card.none')));
  }
  const items = view.card.categories.map((cat, i) => {
    const inner = [h('span', { class: 'bw-check', 'aria-hidden': 'true' }, i === chosen ? '✔' : ''),
      h('span', { class: 'bw-cat-name' }, catName(view, i)), levelTag(cat.level),
      i === chosen ? h('span', { class: 'sr-only' }, ' ' + t('bw.card.chosen')) : null];
    return h('li', {
      class: `bw-cat bw-row-${LEVELS[cat.level] ?? cat.level}${i === chosen ? ' chosen' : ''}${chosen >= 0 && i !== chosen ? ' dim' : ''}`,
      'data-category': i, 'data-category-id': cat.id, 'aria-current': i === chosen ? 'true' : null,
    }, choosing
      ? h('button', { type: 'button', class: 'bw-cat-btn', id: `bw-cat-${i}`, 'data-category': i, onclick: () => c.act({ category: i }) }, inner)
      : inner);
  });
  return h('section', { class: `bw-card${choosing ? ' choosing' : ''}`, 'aria-label': t('bw.card'), 'data-testid': 'bw-card' },
    h('h2', null, choosing ? t('bw.act.category') : t('bw.card')),
    h('ol', { class: 'bw-cats' }, items),
    h('p', { class: 'bw-centre small' },
      h('span', { class: 'bw-worm', 'aria-hidden': 'true' }, '❦'), ' ', t('bw.centre', { n: view.bookwormCards })));
}

// options lists the dice a word may take now, with their die and from.
function options(c) {
  if (!c.legal.includes('name')) return [];
  const { view } = c;
  const dice = [...(view.display || []), ...(view.players || []).flatMap((p) => p.dice || [])];
  return (view.takeable || []).map((o) => ({ ...o, d: dice.find((x) => x.die === o.die) || { die: o.die, face: '?', points: 0 } }));
}

// pickButton wraps a die the word may take in a button.
function pickButton(c, o, where) {
  const from = o.from >= 0 ? seatName(c.view, o.from) : '';
  const label = from ? t('bw.pick.steal', { die: dieLabel(o.d), name: from }) : t('bw.pick', { die: dieLabel(o.d) });
  return h('button', {
    type: 'button', class: `bw-pick ${where}`, id: `bw-pick-${o.die}`, 'data-die': o.die, 'data-from': o.from,
    'data-letters': o.letters, 'aria-label': label, title: label, 'aria-pressed': 'false',
    onclick: () => form.pick(o),
  }, dieEl(o.d, 'big'));
}

function displayEl(c) {
  const { view } = c;
  const dice = view.display || [];
  const opts = new Map(options(c).filter((o) => o.from < 0).map((o) => [o.die, o]));
  const question = c.legal.includes('question');
  const row = dice.map((d) => {
    if (opts.has(d.die)) return pickButton(c, opts.get(d.die), 'in-display');
    if (d.special && d.face === '?' && question) {
      return h('button', {
        type: 'button', class: 'bw-pick in-display bw-q', id: 'bw-pick-q', 'data-die': d.die,
        'aria-label': t('bw.btn.question'), title: t('bw.btn.question'), onclick: () => form.question(),
      }, dieEl(d, 'big'));
    }
    return dieEl(d, 'big');
  });
  // Dice a word may steal: a row of their own under the display, so they
  // are on the first screen of a phone too (the piles are further down).
  const steals = options(c).filter((o) => o.from >= 0);
  const stealRow = steals.length ? h('div', { class: 'bw-steals', role: 'group', 'aria-label': t('bw.steals') },
    h('span', { class: 'bw-steals-h small' }, t('bw.steals')),
    steals.map((o) => h('span', { class: 'bw-steal' }, pickButton(c, o, 'in-steals'), h('span', { class: 'bw-steal-from small' }, seatName(view, o.from))))) : null;
  const turning = c.legal.includes('turn-to');
  const parts = [h('h2', { class: 'sr-only' }, t('bw.display'))];
  if (dice.length) parts.push(h('div', { class: 'bw-dice', 'data-testid': 'bw-display' }, row));
  else {
    parts.push(h('p', { class: 'muted', 'data-testid': 'bw-display' },
      ['card', 'category', 'roll'].includes(view.phase) ? t('bw.display.notyet') : t('bw.display.empty')));
  }
  if (stealRow) parts.push(stealRow);
  if (turning) {
    parts.push(h('div', { class: 'bw-turnto', role: 'group', 'aria-label': t('bw.act.turnto') },
      h('p', { class: 'bw-turnto-h' }, t('bw.act.turnto')),
      h('div', { class: 'bw-turnto-row' }, TURN_TO.map((f) => h('button', {
        type: 'button', class: 'bw-face-btn', 'data-turn': f, id: `bw-turn-${f}`,
        title: t('bw.sp.help.' + f), onclick: () => c.act({ turnTo: f }),
      }, dieEl({ die: -1, face: f, points: 0, special: true }), h('span', { class: 'bw-face-name' }, specialName(f)))))));
  }
  if (view.special) {
    parts.push(h('p', { class: 'bw-special-line small', 'data-testid': 'bw-special' },
      h('strong', null, t('bw.special', { face: specialName(view.special) })), ' ', t('bw.sp.help.' + view.special)));
  }
  return h('section', { class: `bw-display${dice.length || turning ? '' : ' empty'}`, 'aria-label': t('bw.display') }, parts);
}

function roundPoints(p) {
  return (p.dice || []).reduce((s, d) => s + d.points, 0) + (p.bookwormCards || 0);
}

function playersEl(c) {
  const { view, seat } = c;
  const onTurn = view.phase === 'name' ? view.current : '';
  const steals = new Set(options(c).filter((o) => o.from >= 0).map((o) => o.die));
  const stack = view.special === 'stack';
  // Its own heading: the card and the display above are out of sight on a phone.
  return h('section', { class: 'bw-players', 'aria-label': t('bw.piles') }, h('h2', { class: 'sr-only' }, t('bw.piles')), (view.players || []).map((p, i) => {
    const me = i === seat;
    const tags = [];
    if (p.name === view.bookworm && !view.over) tags.push(h('span', { class: 'bw-tag bw-tag-bookworm' }, '❦ ', t('bw.tag.bookworm')));
    if (p.name === onTurn && !view.over) tags.push(h('span', { class: 'bw-tag bw-tag-turn' }, '▶ ', t('bw.tag.turn')));
    if (view.judging && view.judging.speaker === p.name) tags.push(h('span', { class: 'bw-tag bw-tag-judged' }, '✎ ', t('bw.tag.speaker')));
    if (view.over && (view.winners || []).includes(p.name)) tags.push(h('span', { class: 'bw-tag bw-tag-win' }, '★ ', t('bw.tag.winner')));
    const dice = p.dice || [];
    const pile = dice.map((d, k) => {
      const top = k === dice.length - 1;
      const die = dieEl(d, `small${steals.has(d.die) ? ' stealable' : ''}`);
      return h('span', { class: 'bw-pile-item' + (top ? ' top' : '') }, die,
        stack && top ? h('span', { class: 'bw-top-mark' }, '▲ ', t('bw.top')) : null);
    });
    return h('article', {
      class: `bw-player${me ? ' mine' : ''}${p.name === onTurn ? ' current' : ''}`,
      'data-seat': i, 'aria-label': t('bw.player', { name: p.name }) + (me ? ` (${t('seat.you')})` : ''),
    },
    h('header', { class: 'bw-player-head' },
      h('h3', null, h('span', { class: 'pname' }, p.name), me ? h('span', { class: 'muted' }, ` (${t('seat.you')})`) : null),
      h('span', { class: 'bw-total', title: t('bw.total') },
        h('span', { class: 'sr-only' }, t('bw.total') + ' '), h('span', { 'data-testid': 'total' }, String(p.total)))),
    tags.length ? h('p', { class: 'bw-tags' }, tags) : null,
    h('div', { class: `bw-pile${stack ? ' stacked' : ''}`, 'aria-label': t('bw.pile', { n: dice.length }), 'data-testid': 'bw-pile' },
      dice.length ? pile : h('span', { class: 'muted small' }, t('bw.pile.empty'))),
    h('p', { class: 'bw-player-foot small' },
      h('span', { 'data-testid': 'bw-cards' }, h('span', { class: 'bw-worm', 'aria-hidden': 'true' }, '❦'), ' ', t('bw.cards', { n: p.bookwormCards || 0 })),
      ' · ', h('span', null, t('bw.roundpts', { n: roundPoints(p) }))));
  }));
}

function statusWord(w) {
  if (w.status === 'rejected') return { cls: 'rejected', mark: '✗', text: t('bw.word.rejected') };
  if (w.status === 'pending') return { cls: 'pending', mark: '…', text: t('bw.word.pending') };
  return { cls: 'accepted', mark: '✓', text: t(w.known ? 'bw.word.known' : 'bw.word.accepted') };
}

function wordsEl(view) {
  const ws = view.words || [];
  return h('section', { class: 'bw-words', 'aria-label': t('bw.words') },
    h('h2', null, t('bw.words')),
    ws.length ? h('ol', { class: 'bw-word-list', 'data-testid': 'bw-words' }, ws.map((w) => {
      const s = statusWord(w);
      return h('li', { class: 'bw-word ' + s.cls, 'data-status': w.status },
        h('span', { class: 'bw-mark', 'aria-hidden': 'true' }, s.mark), ' ',
        h('strong', { class: 'bw-w' }, w.word), ' ',
        h('span', { class: 'muted small' }, w.from === 'display'
          ? t('bw.word.by', { name: w.by, letter: w.letter })
          : t('bw.word.stole', { name: w.by, letter: w.letter, from: w.from })),
        ' ', h('span', { class: 'bw-status small' }, s.text));
    })) : h('p', { class: 'muted small', 'data-testid': 'bw-words' }, t('bw.words.none')));
}

function tally(votes) {
  const vs = Object.values(votes || {});
  return { acc: vs.filter((v) => v === 'accept').length, rej: vs.filter((v) => v === 'reject').length };
}

// judgingEl: the word under judgement, on the stage, with its buttons.
function judgingEl(c) {
  const { view, legal } = c;
  const j = view.judging;
  const others = (view.players || []).map((p) => p.name).filter((n) => n !== j.speaker);
  const body = [];
  const buttons = [];
  if (view.phase === 'challenge') {
    body.push(h('p', { 'data-testid': 'bw-phase' }, phaseLine(view, c.me)));
    body.push(h('p', { class: 'small' }, t(j.known ? 'bw.judge.window.known' : 'bw.judge.window', { name: j.speaker })));
    if ((j.allowed || []).length) body.push(h('p', { class: 'small muted' }, t('bw.judge.allowed', { names: j.allowed.join(', ') })));
    if (legal.includes('challenge')) buttons.push(h('button', { type: 'button', class: 'bw-btn bw-no', id: 'bw-challenge', 'data-testid': 'bw-challenge', onclick: () => c.act({ challenge: true }) }, '✋ ', t('bw.btn.challenge')));
    if (legal.includes('allow')) buttons.push(h('button', { type: 'button', class: 'bw-btn bw-yes', id: 'bw-allow', 'data-testid': 'bw-allow', onclick: () => c.act({ allow: true }) }, '✓ ', t('bw.btn.allow')));
  } else {
    const { acc, rej } = tally(j.votes);
    body.push(h('p', { 'data-testid': 'bw-phase' }, phaseLine(view, c.me)));
    body.push(h('p', { class: 'small' }, t('bw.judge.vote', { cat: chosenName(view) })));
    body.push(h('p', { class: 'bw-tally', 'data-testid': 'bw-tally' },
      h('span', { class: 'bw-acc' }, '✓ ', t('bw.vote.accepts', { n: acc })), ' · ',
      h('span', { class: 'bw-rej' }, '✗ ', t('bw.vote.rejects', { n: rej }))));
    body.push(h('ul', { class: 'bw-voters small' }, others.map((n) => {
      const v = j.votes?.[n];
      return h('li', { class: v ? 'bw-v-' + v : 'bw-v-none' },
        h('span', { 'aria-hidden': 'true' }, v === 'accept' ? '✓ ' : v === 'reject' ? '✗ ' : '… '),
        t('bw.who', { name: n }), v ? t('bw.vote.' + v) : t('bw.vote.waiting'));
    })));
    if (legal.includes('vote')) {
      buttons.push(h('button', { type: 'button', class: 'bw-btn bw-yes', id: 'bw-accept', 'data-testid': 'bw-accept', onclick: () => c.act({ vote: 'accept' }) }, '✓ ', t('bw.btn.accept')));
      buttons.push(h('button', { type: 'button', class: 'bw-btn bw-no', id: 'bw-reject', 'data-testid': 'bw-reject', onclick: () => c.act({ vote: 'reject' }) }, '✗ ', t('bw.btn.reject')));
    }
  }
  return h('div', { class: `bw-judging bw-${view.phase}`, 'data-testid': 'bw-judging' },
    h('div', { class: 'bw-judge-head' },
      h('h2', null, view.phase === 'vote' ? t('bw.judging.vote') : t('bw.judging')), clockEl(view)),
    h('p', { class: 'bw-judged' }, h('span', { class: 'muted' }, t('bw.who', { name: j.speaker })),
      t('bw.q.open'), h('strong', { 'data-testid': 'bw-judged-word' }, j.word), t('bw.q.close'),
      h('span', { class: 'bw-for muted small' }, ' — ', chosenName(view))),
    body,
    buttons.length ? h('div', { class: 'bw-judge-btns', role: 'group', 'aria-label': t('bw.judging') }, buttons) : null);
}

// rejectedEl explains a word the vote turned down: which, the vote, what
// the word list says of it and what happens now.
function rejectedEl(c) {
  const r = c.view.rejected;
  if (!r) return null;
  const mine = r.speaker === c.me;
  const parts = [
    h('strong', null, mine ? t('bw.rej.yours', { word: r.word }) : t('bw.rej.theirs', { word: r.word, name: r.speaker })), ' ',
    t('bw.rej.vote', { a: r.accept, r: r.reject }),
    r.abstain ? ' ' + t('bw.rej.abstain', { n: r.abstain }) : '',
  ];
  const why = r.verdict === 'not-a-word' ? t('bw.rej.notword')
    : r.verdict === 'unknown' ? t('bw.rej.unknown', { cat: chosenName(c.view) })
      : r.verdict === 'fits' ? t('bw.rej.fits') : '';
  return h('div', { class: 'bw-rejected', role: mine ? 'alert' : null, 'data-testid': 'bw-rejected' },
    h('p', null, parts), why ? h('p', { class: 'small' }, why) : null,
    h('p', { class: 'small bw-next' }, mine ? t('bw.rej.next.you') : t('bw.rej.next', { name: r.speaker })));
}

// waitingEl: what the stage says when it is not your move.
function waitingEl(c) {
  return h('div', { class: 'bw-waiting' },
    h('p', { class: 'bw-wait-text', 'data-testid': 'bw-phase' }, phaseLine(c.view, c.me)), clockEl(c.view));
}

function actEl(c) {
  const { view } = c;
  let inner;
  if (view.over) inner = h('div', { class: 'bw-waiting' }, h('p', { class: 'bw-wait-text', 'data-testid': 'bw-phase' }, resultText(view)));
  else if (c.legal.includes('name')) inner = form.el(c);
  else if (view.judging && (view.phase === 'challenge' || view.phase === 'vote')) inner = judgingEl(c);
  else inner = h('div', null, rejectedEl(c), waitingEl(c));
  return h('section', { class: 'bw-act', 'aria-label': t('bw.act.title'), 'data-testid': 'bw-act' }, h('div', { class: 'bw-said', 'aria-live': 'polite' }), inner);
}

function scoresEl(view) {
  const ps = view.players || [];
  const lr = view.lastRound;
  if (!lr || view.over) return null;
  const how = lr.failer ? t('bw.last.failed', { name: lr.failer }) : t('bw.last.ended', { name: lr.ender });
  return h('section', { class: 'bw-scores', 'aria-label': t('bw.scores') },
    h('h2', null, t('bw.scores')),
    h('p', { class: 'small', 'data-testid': 'bw-last-round' }, t('bw.last.round', { n: lr.round }), ' ', how),
    roundTable(ps, lr));
}

function roundTable(ps, lr) {
  return h('div', { class: 'table-scroll', tabindex: 0 }, h('table', { class: 'bw-score-table' },
    h('caption', { class: 'sr-only' }, t('bw.last.round', { n: lr.round })),
    h('thead', null, h('tr', null, h('th', { scope: 'col' }, t('bw.col.player')),
      ['dots', 'cards', 'special', 'penalty', 'total'].map((k) => h('th', { scope: 'col' }, t('bw.col.' + k))))),
    h('tbody', null, (lr.scores || []).map((s, i) => h('tr', null,
      h('th', { scope: 'row' }, ps[i]?.name ?? '#' + i),
      h('td', null, String(s.dots)), h('td', null, String(s.bookwormCards)), h('td', null, signed(s.special)),
      h('td', null, s.penalty ? '−' + Math.abs(s.penalty) : '0'), h('td', { class: 'strong' }, signed(s.total)))))));
}

function signed(n) { return n < 0 ? '−' + Math.abs(n) : String(n); }

let lastSeat = -3;

// renderBoard draws everything public, and with canAct the moves too.
export function renderBoard(view, opts = {}) {
  if (!anchors.has(view.now)) {
    if (arrival) pin(view.now, arrival);
    // A welcome (after a reconnect, say) tells how long the running clock
    // has left: never show more time than is left.
    else if (opts.deadlineAt && view.deadline > view.now) pin(view.now, opts.deadlineAt - (view.deadline - view.now));
    arrival = 0;
  }
  const c = context(view, opts);
  lastSeat = c.seat;
  const mine = c.legal.length > 0;
  const board = h('div', { class: `bw-board${mine ? ' my-move' : ''}`, 'data-phase': view.phase },
    h('div', { class: 'bw-top' },
      h('p', { class: 'bw-round' }, t('bw.round', { n: view.round, name: view.bookworm })),
      view.over ? h('p', { class: 'bw-phase' }, t('bw.over')) : view.category ? h('p', { class: 'bw-phase' }, t('bw.category', { cat: chosenName(view) }), ' ', levelTag(view.category.level)) : null,
      (view.language || 'en') !== currentLang() ? h('p', { class: 'bw-lang small' }, t('bw.lang.' + (view.language || 'en'))) : null),
    h('div', { class: 'bw-stage' }, cardEl(c), displayEl(c), actEl(c)),
    playersEl(c),
    h('div', { class: 'bw-lower' }, wordsEl(view), scoresEl(view)));
  if (c.legal.includes('name')) {
    form.root = board;
    form.refresh();
  }
  return board;
}

// renderActions: everything is played on the board.
export function renderActions() { return null; }

// --- the word form ---------------------------------------------------------------------

// The form keeps what is typed, the die chosen and the give-up question
// across the redraws of one turn.
const form = {
  key: '', value: '', die: null, giveUp: false, armed: '', c: null, root: null, input: null, hint: null, send: null,

  reset(key) {
    if (this.key === key) return false;
    Object.assign(this, { key, value: '', die: null, giveUp: false, armed: '' });
    return true;
  },

  // fitting: the options the typed word may take.
  fitting() {
    const l = firstLetter(this.value);
    return l ? options(this.c).filter((o) => o.letters.includes(l)) : [];
  },

  // choice is the die Enter takes: the one chosen, else the only kind that
  // fits (dice alike in the display are one choice); null when the player
  // must choose.
  choice() {
    let fit = this.fitting();
    // The A–Z die (0 points) takes any word: Enter prefers a letter die,
    // A–Z stays one tap away.
    if (fit.some((o) => !o.d.special)) fit = fit.filter((o) => !(o.d.special && o.d.face === 'a-z') || o.die === this.die);
    const sel = fit.find((o) => o.die === this.die);
    if (sel) return sel;
    if (!fit.length) return null;
    const a = fit[0];
    const alike = fit.every((o) => o.from < 0 && !o.d.special && o.d.face === a.d.face && o.d.points === a.d.points);
    return alike && a.from < 0 ? a : fit.length === 1 ? a : null;
  },

  said() {
    const k = wordKey(this.value);
    return (this.c.view.words || []).find((w) => wordKey(w.word) === k);
  },

  el(c) {
    this.c = c;
    const { view } = c;
    const fresh = this.reset(`${view.round}:${view.current}:${view.deadline}:${(view.words || []).length}`);
    const input = h('input', {
      id: 'bw-word', type: 'text', maxlength: 40, autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false',
      value: this.value, 'aria-describedby': 'bw-hint', 'data-testid': 'bw-word', enterkeyhint: 'send',
      oninput: () => { this.value = input.value; this.armed = ''; this.refresh(); },
    });
    this.input = input;
    this.hint = h('p', { class: 'bw-hint', id: 'bw-hint', 'aria-live': 'polite', 'data-testid': 'bw-hint' });
    this.send = h('button', { type: 'submit', class: 'primary bw-send', 'data-testid': 'bw-send' });
    const f = h('form', { class: 'bw-name-form', novalidate: true, 'aria-labelledby': 'bw-name-h', onsubmit: (e) => { e.preventDefault(); this.submit(); } },
      h('div', { class: 'bw-form-head' },
        h('h2', { id: 'bw-name-h' }, t('bw.act.name', { cat: chosenName(view) })),
        clockEl(view)),
      rejectedEl(c),
      h('div', { class: 'bw-word-row' }, h('label', { for: 'bw-word', class: 'sr-only' }, t('bw.act.word')), input, this.send),
      this.hint,
      this.extras());
    if (fresh) {
      // A new turn of mine: the cursor goes to the word field.
      setTimeout(() => { const el = document.getElementById('bw-word'); if (el && document.activeElement?.tagName !== 'INPUT') el.focus(); }, 0);
    }
    return f;
  },

  extras() {
    const { legal } = this.c;
    const out = [];
    if (legal.includes('question')) {
      out.push(h('button', { type: 'button', class: 'bw-btn bw-qbtn', id: 'bw-question', 'data-testid': 'bw-question', title: t('bw.sp.help.?'), onclick: () => this.question() },
        '? ', t('bw.btn.question')));
    }
    if (legal.includes('give-up')) {
      if (!this.giveUp) {
        out.push(h('button', { type: 'button', class: 'bw-btn bw-giveup', id: 'bw-giveup', 'data-testid': 'bw-giveup', onclick: () => { this.giveUp = true; this.c.redraw(); this.focus('bw-giveup-yes'); } },
          '⚑ ', t('bw.btn.giveup')));
      } else {
        out.push(h('div', { class: 'bw-confirm', role: 'group', 'aria-labelledby': 'bw-giveup-q', 'data-testid': 'bw-giveup-confirm' },
          h('p', { id: 'bw-giveup-q', class: 'small' }, t('bw.giveup.q')),
          h('button', { type: 'button', class: 'bw-btn bw-no', id: 'bw-giveup-yes', 'data-testid': 'bw-giveup-yes', onclick: () => this.c.act({ giveUp: true }) }, '⚑ ', t('bw.giveup.yes')),
          h('button', { type: 'button', class: 'bw-btn', id: 'bw-giveup-no', 'data-testid': 'bw-giveup-no', onclick: () => { this.giveUp = false; this.c.redraw(); this.focus('bw-word'); } }, t('bw.giveup.no'))));
      }
    }
    return out.length ? h('div', { class: 'bw-extra' }, out) : null;
  },

  focus(id) { setTimeout(() => document.getElementById(id)?.focus(), 0); },

  // refresh lights the dice the word may take and says what Enter does.
  refresh() {
    const fit = this.fitting();
    const pick = this.choice();
    const letter = firstLetter(this.value).toUpperCase();
    for (const b of this.root?.querySelectorAll('.bw-pick[data-die]') || []) {
      const die = Number(b.dataset.die);
      const ok = fit.some((o) => o.die === die);
      b.classList.toggle('fits', ok);
      b.classList.toggle('off', !!letter && !ok && !b.classList.contains('bw-q'));
      const chosen = pick?.die === die;
      b.classList.toggle('chosen', chosen);
      b.setAttribute('aria-pressed', String(chosen));
    }
    let hint;
    if (!this.value.trim()) hint = this.die !== null ? t('bw.hint.typefor', { letters: this.letters(this.die) }) : t('bw.hint.type');
    else if (!letter) hint = t('bw.hint.noletter');
    else if (this.said()) hint = t('bw.hint.said', { word: this.said().word });
    else if (!fit.length) hint = t('bw.hint.nodie', { letter });
    else if (pick) hint = this.armed === `${pick.die}` ? t('bw.hint.armed', { word: this.value.trim(), die: this.dieText(pick) }) : t('bw.hint.takes', { die: this.dieText(pick) });
    else hint = t('bw.hint.choose', { n: fit.length });
    this.hint.textContent = hint;
    this.send.replaceChildren(pick && this.value.trim() ? t('bw.btn.sendtake', { face: pick.d.special ? specialName(pick.d.face) : pick.d.face }) : t('bw.btn.send'));
  },

  letters(die) {
    const o = options(this.c).find((x) => x.die === die);
    return o ? o.letters.toUpperCase().split('').join(', ') : '';
  },

  dieText(o) {
    const face = o.d.special ? specialName(o.d.face) : o.d.face;
    return o.from >= 0 ? t('bw.die.from', { face, name: seatName(this.c.view, o.from) }) : t('bw.die.display', { face });
  },

  // pick: a die tapped (or pressed with the keyboard).
  pick(o) {
    const word = this.value.trim();
    const fits = word && o.letters.includes(firstLetter(word));
    if (fits && !this.said() && (!pref('confirm') || this.armed === `${o.die}`)) {
      this.go(o);
      return;
    }
    this.die = o.die;
    this.armed = fits ? `${o.die}` : '';
    this.refresh();
    // Back to the word: Enter (or the same die again) says it.
    if (document.activeElement?.id !== 'bw-word' && !fits) this.input?.focus();
  },

  question() {
    if (pref('confirm') && this.armed !== '?') {
      this.armed = '?';
      this.hint.textContent = t('bw.hint.question');
      return;
    }
    this.c.act({ question: true });
  },

  submit() {
    const word = this.value.trim();
    if (!word) { this.hint.textContent = t('bw.hint.empty'); this.input.focus(); return; }
    if (!firstLetter(word) || this.said()) { this.refresh(); return; }
    const pick = this.choice();
    if (pick) { this.go(pick); return; }
    const fit = this.fitting();
    if (!fit.length) { this.refresh(); return; }
    // Several dice of different worth fit: the player chooses; the
    // keyboard lands on the first of them.
    this.hint.textContent = t('bw.hint.choose', { n: fit.length });
    document.getElementById(`bw-pick-${fit[0].die}`)?.focus();
  },

  go(o) {
    this.armed = '';
    this.c.act({ name: this.value.trim(), die: o.die });
  },
};

// --- the end ----------------------------------------------------------------------------

// resultText says who won a finished game.
export function resultText(view) {
  if (!view.over) return '';
  const w = view.winners || [];
  const best = Math.max(...(view.players || []).map((p) => p.total));
  return winnersText(w, best);
}

// renderResult: every round's points per player, and how the last round
// was scored.
export function renderResult(view) {
  if (!view?.over) return null;
  const ps = view.players || [];
  const rounds = view.rounds || [];
  const order = ps.map((p, i) => i).sort((a, b) => ps[b].total - ps[a].total);
  return h('section', { class: 'bw-result', 'aria-label': t('bw.rounds'), 'data-testid': 'bw-result' },
    h('h3', null, t('bw.rounds')),
    h('div', { class: 'table-scroll', tabindex: 0 }, h('table', { class: 'bw-score-table bw-rounds' },
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, t('bw.col.player')),
        rounds.map((_, r) => h('th', { scope: 'col' }, t('bw.col.round', { n: r + 1 }))), h('th', { scope: 'col' }, t('bw.total')))),
      h('tbody', null, order.map((i) => h('tr', { class: (view.winners || []).includes(ps[i].name) ? 'win' : null },
        h('th', { scope: 'row' }, (view.winners || []).includes(ps[i].name) ? '★ ' : '', ps[i].name),
        rounds.map((r) => h('td', { class: r[i] < 0 ? 'neg' : null }, signed(r[i] ?? 0))),
        h('td', { class: 'strong' }, String(ps[i].total))))))),
    view.lastRound ? h('p', { class: 'small' }, t('bw.last.round', { n: view.lastRound.round }), ' ',
      view.lastRound.failer ? t('bw.last.failed', { name: view.lastRound.failer }) : t('bw.last.ended', { name: view.lastRound.ender })) : null,
    view.lastRound ? roundTable(ps, view.lastRound) : null);
}

// --- motion and pace -------------------------------------------------------------------------

function say(root, text, cls) {
  const el = root?.querySelector('.bw-said');
  if (!el) return;
  el.className = `bw-said on ${cls || ''}`;
  el.replaceChildren(text);
}

// fly moves a copy of die d from where it is to the end of its taker's pile.
async function fly(root, d) {
  const from = root.querySelector(`.bw-display [data-die="${d.die}"], .bw-pile [data-die="${d.die}"]`);
  const pile = root.querySelector(`.bw-player[data-seat="${d.to}"] .bw-pile`);
  if (!from || !pile) return;
  const a = from.getBoundingClientRect();
  const b = pile.getBoundingClientRect();
  const ghost = from.cloneNode(true);
  ghost.removeAttribute('id');
  ghost.classList.add('bw-flying');
  ghost.setAttribute('aria-hidden', 'true');
  for (const [k, v] of [['left', a.left], ['top', a.top], ['width', a.width], ['height', a.height]]) ghost.style.setProperty(k, v + 'px');
  document.body.append(ghost);
  from.style.setProperty('visibility', 'hidden');
  const dx = b.left + Math.min(b.width - a.width, pile.children.length * (a.width * 0.7)) - a.left;
  const dy = b.top - a.top;
  const anim = ghost.animate([{ transform: 'translate(0,0) rotate(0)' }, { transform: `translate(${dx}px, ${dy - 30}px) rotate(-8deg) scale(.9)`, offset: 0.6 }, { transform: `translate(${dx}px, ${dy}px) scale(.8)` }],
    { duration: 550, easing: 'cubic-bezier(.3,.7,.3,1)' });
  try { await anim.finished; } catch { /* cancelled */ }
  ghost.remove();
}

// beforeUpdate paces the others' moves so they can be followed: a word
// shows on the stage for a moment, a verdict too, and a die taken flies to
// its taker. fast (catching up) shows nothing and waits for nothing.
export async function beforeUpdate(root, events, fast) {
  arrival = performance.now();
  if (fast || !root) return;
  const players = [...root.querySelectorAll('.bw-player .pname')].map((e) => e.textContent);
  for (const ev of events || []) {
    const d = ev.data || {};
    const mine = ev.seat === lastSeat;
    switch (ev.kind) {
      case 'word':
        if (!mine) {
          say(root, t('bw.said', { name: players[ev.seat] ?? '', word: d.word, letter: d.letter }), 'word');
          await sleep(pace(900));
        }
        break;
      case 'verdict':
        say(root, t(d.accepted ? 'bw.verdict.kept' : 'bw.verdict.out', { word: d.word, a: d.accept, r: d.reject }), d.accepted ? 'good' : 'bad');
        await sleep(pace(900));
        break;
      case 'category':
        if (!mine) await sleep(pace(500));
        break;
      case 'fail':
        say(root, t(d.reason === 'gave-up' ? 'bw.said.gaveup' : 'bw.said.timeout', { name: players[d.seat] ?? '' }), 'bad');
        await sleep(pace(1200));
        break;
      case 'take': case 'steal': case 'question':
        if (!reducedMotion()) await fly(root, d);
        if (d.to !== lastSeat) await sleep(pace(250));
        break;
    }
  }
}

// afterUpdate: freshly rolled dice tumble in, the die just taken lights up.
export function afterUpdate(root, events, fast) {
  if (fast || reducedMotion()) return;
  for (const ev of events || []) {
    if (ev.kind === 'roll') for (const el of root.querySelectorAll('.bw-dice .bw-die')) el.classList.add('rolling');
    if (ev.kind === 'take' || ev.kind === 'steal') {
      const el = root.querySelector(`.bw-player[data-seat="${ev.data?.to}"] [data-die="${ev.data?.die}"]`);
      if (el) el.classList.add('fresh');
    }
  }
}

// highlightHint marks the coach's choice (a wire action) on the board: the
// die to take, the category, the face, the button (table.js calls it after a
// hint, on the board it drew).
export function highlightHint(a, root) {
  if (!a || !root) return;
  const sel = a.name !== undefined ? `button.bw-pick[data-die="${Number(a.die)}"]`
    : a.category !== undefined ? `button.bw-cat-btn[data-category="${Number(a.category)}"]`
      : a.turnTo ? `button[data-turn="${CSS.escape(a.turnTo)}"]`
        : a.question ? '#bw-pick-q'
          : a.giveUp ? '#bw-giveup'
            : a.challenge ? '#bw-challenge'
              : a.allow ? '#bw-allow'
                : a.vote ? (a.vote === 'accept' ? '#bw-accept' : '#bw-reject') : null;
  if (sel) root.querySelector(sel)?.classList.add('hinted');
}
