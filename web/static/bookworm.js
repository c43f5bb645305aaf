// Bookworm in the browser: the category card, the display, every player's
// pile, the words named, the judging of a word and a live countdown; on your
// turn a word field with a button per die the word could take. The module
// has the same exports as dicestars.js (the contract table.js and replay.js
// rely on).

import { h } from '/static/dom.js';
import { t } from '/static/i18n.js';
import '/static/bookworm.messages.js';

export const id = 'bookworm';

const LEVELS = ['easy', 'medium', 'hard'];
const SPECIAL_LABEL = { 'turn': '↻', 'a-z': 'A–Z', 'not': 'NOT', 'dots': '••', 'stack': '▤', '?': '?' };

// --- game time ---------------------------------------------------------------
// The view's times are ms of game time. The first time a view with a given
// `now` is drawn, that instant is pinned to performance.now(): the countdown
// runs from there (an update is sent the moment its move is made).
const anchors = new Map();
function anchor(now) {
  if (!anchors.has(now)) {
    anchors.set(now, performance.now());
    if (anchors.size > 64) anchors.delete(anchors.keys().next().value);
  }
  return anchors.get(now);
}
function gameNow(now) { return now + (performance.now() - anchor(now)); }

// firstLetter is the letter the rules read: the first a–z of the word once
// accents are gone (the server's normalization; good enough to pick a die).
export function firstLetter(word) {
  const s = String(word || '').normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/ß/g, 'ss');
  const m = s.match(/[a-z]/);
  return m ? m[0] : '';
}

function specialName(face) { return t('bw.sp.' + face); }

function faceText(d) { return d.special ? (SPECIAL_LABEL[d.face] || d.face) : d.face; }

function dieLabel(d) {
  if (d.special) return t('bw.die.special', { face: specialName(d.face), points: d.points });
  return t(d.points === 1 ? 'bw.die.one' : 'bw.die', { face: d.face, points: d.points });
}

// dieEl draws a die: its face in big letters and its points as dots.
export function dieEl(d, extra = '') {
  const face = faceText(d);
  return h('span', {
    class: `bw-die${d.special ? ' bw-special' : ''}${face.length > 1 ? ' bw-wide' : ''} ${extra}`.trim(),
    role: 'img', 'aria-label': dieLabel(d), title: dieLabel(d), 'data-die': d.die, 'data-face': d.face,
  },
  h('span', { class: 'bw-face', 'aria-hidden': 'true' }, face),
  h('span', { class: 'bw-pts', 'aria-hidden': 'true' }, d.points > 0 ? '•'.repeat(Math.min(d.points, 4)) : d.points < 0 ? String(d.points) : ''));
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
  const phase = el.dataset.phase;
  const g = el.closest('.replay-slot') ? now : gameNow(now);
  const left = Math.max(0, Math.ceil((end - g) / 1000));
  if (phase === 'name') {
    if (at && g < at) return { big: false, text: t('bw.clock.think', { name: el.dataset.who, s: Math.max(0, Math.ceil((at - g) / 1000)) }) };
    return { big: true, text: String(left), label: t('bw.clock.count', { name: el.dataset.who, s: left }) };
  }
  if (phase === 'challenge') return { big: false, text: t('bw.clock.challenge', { s: left }) };
  if (phase === 'vote') return { big: false, text: t('bw.clock.vote', { s: left }) };
  return { big: false, text: '' };
}

function tickClock(el) {
  const c = clockText(el);
  const big = el.querySelector('.bw-count');
  const small = el.querySelector('.bw-clock-text');
  el.classList.toggle('counting', c.big);
  el.dataset.left = c.big ? c.text : '';
  if (c.big) {
    if (big.textContent !== c.text) {
      big.textContent = c.text;
      big.classList.remove('pulse');
      void big.offsetWidth; // restart the pulse for each second
      big.classList.add('pulse');
    }
    small.textContent = c.label;
  } else {
    big.textContent = '';
    small.textContent = c.text;
  }
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
  const who = view.phase === 'name' ? view.current : '';
  const el = h('div', {
    class: 'bw-clock', role: 'timer', 'data-testid': 'bw-clock',
    'data-now': view.now, 'data-countdown-at': view.countdownAt || 0, 'data-deadline': view.deadline,
    'data-phase': view.phase, 'data-who': who,
  },
  h('span', { class: 'bw-count', 'aria-hidden': 'true' }),
  h('span', { class: 'bw-clock-text' }));
  tickClock(el);
  startTicking();
  return el;
}

// --- the board -------------------------------------------------------------------

function phaseLine(view) {
  switch (view.phase) {
    case 'card': return t('bw.phase.card');
    case 'category': return t('bw.phase.category', { name: view.current });
    case 'roll': return t('bw.phase.roll');
    case 'turn-to': return t('bw.phase.turnto', { name: view.bookworm });
    case 'name': return t('bw.phase.name', { name: view.current });
    case 'challenge': return t(view.judging?.known ? 'bw.phase.challenge.known' : 'bw.phase.challenge', { name: view.judging?.speaker ?? '?' });
    case 'vote': return t('bw.phase.vote', { name: view.judging?.challenger ?? '?' });
    case 'over': return t('table.over');
  }
  return view.phase;
}

function cardEl(view) {
  const chosen = view.category ? view.category.index : -1;
  if (!view.card) {
    return h('section', { class: 'bw-card empty', 'aria-label': t('bw.card') },
      h('h3', null, t('bw.card')), h('p', { class: 'muted' }, t('bw.card.none')));
  }
  return h('section', { class: 'bw-card', 'aria-label': t('bw.card'), 'data-testid': 'bw-card' },
    h('h3', null, t('bw.card')),
    h('ol', { class: 'bw-cats' }, view.card.categories.map((c, i) => h('li', {
      class: `bw-cat${i === chosen ? ' chosen' : ''}${chosen >= 0 && i !== chosen ? ' dim' : ''}`,
      'data-category': i, 'data-category-id': c.id, 'aria-current': i === chosen ? 'true' : null,
    },
    h('span', { class: 'bw-check', 'aria-hidden': 'true' }, i === chosen ? '✔' : ''),
    h('span', { class: 'bw-cat-name' }, c.name), levelTag(c.level),
    i === chosen ? h('span', { class: 'sr-only' }, ' ' + t('bw.card.chosen')) : null))),
    chosen < 0 && view.phase === 'category' ? h('p', { class: 'muted small' }, t('bw.card.choosing', { name: view.current })) : null);
}

function displayEl(view) {
  const dice = view.display || [];
  const sp = dice.find((d) => d.special) || (view.special ? { face: view.special } : null);
  return h('section', { class: 'bw-display', 'aria-label': t('bw.display') },
    h('h3', null, t('bw.display')),
    dice.length
      ? h('div', { class: 'bw-dice', 'data-testid': 'bw-display' }, dice.map((d) => dieEl(d)))
      : h('p', { class: 'muted', 'data-testid': 'bw-display' }, view.phase === 'card' || view.phase === 'category' || view.phase === 'roll' ? t('bw.display.notyet') : t('bw.display.empty')),
    view.special ? h('p', { class: 'bw-special-line', 'data-testid': 'bw-special' },
      h('span', { class: 'bw-chip bw-special', 'aria-hidden': 'true' }, SPECIAL_LABEL[view.special] || view.special), ' ',
      h('strong', null, t('bw.special', { face: specialName(view.special) })), ' ',
      t('bw.sp.help.' + view.special), sp && !dice.includes(sp) && !dice.some((d) => d.special) ? ' ' + t('bw.special.taken') : '') : null,
    h('p', { class: 'bw-centre small' },
      h('span', { class: 'bw-bookmark', 'aria-hidden': 'true' }, '▮'), ' ',
      t('bw.centre', { n: view.bookwormCards, steals: view.steals })));
}

function roundPoints(p) {
  return (p.dice || []).reduce((s, d) => s + d.points, 0) + (p.bookwormCards || 0);
}

function playersEl(view, mySeat) {
  const onTurn = view.phase === 'name' ? view.current : '';
  return h('section', { class: 'bw-players', 'aria-label': t('table.players') }, (view.players || []).map((p, i) => {
    const me = i === mySeat;
    const tags = [];
    if (p.name === view.bookworm && !view.over) tags.push(h('span', { class: 'bw-tag bw-tag-bookworm' }, '❦ ', t('bw.tag.bookworm')));
    if (p.name === onTurn && !view.over) tags.push(h('span', { class: 'bw-tag bw-tag-turn' }, '▶ ', t('bw.tag.turn')));
    if (view.judging && view.judging.speaker === p.name) tags.push(h('span', { class: 'bw-tag' }, '✎ ', t('bw.tag.speaker')));
    if (view.over && (view.winners || []).includes(p.name)) tags.push(h('span', { class: 'bw-tag bw-tag-win' }, '★ ', t('bw.tag.winner')));
    const dice = p.dice || [];
    return h('article', {
      class: `bw-player${me ? ' mine' : ''}${p.name === onTurn ? ' current' : ''}`,
      'data-seat': i, 'aria-label': t('bw.player', { name: p.name }) + (me ? ` (${t('seat.you')})` : ''),
    },
    h('header', { class: 'bw-player-head' },
      h('h3', null, h('span', { class: 'pname' }, p.name), me ? h('span', { class: 'muted' }, ` (${t('seat.you')})`) : null),
      h('span', { class: 'bw-total', title: t('bw.total') },
        h('span', { class: 'sr-only' }, t('bw.total') + ' '), h('span', { 'data-testid': 'total' }, String(p.total)))),
    tags.length ? h('p', { class: 'bw-tags' }, tags) : null,
    h('div', { class: 'bw-pile', 'aria-label': t('bw.pile', { n: dice.length }), 'data-testid': 'bw-pile' },
      dice.length ? dice.map((d, k) => h('span', { class: 'bw-pile-item' + (k === dice.length - 1 ? ' top' : '') },
        dieEl(d, 'small'),
        k === dice.length - 1 ? h('span', { class: 'bw-top-mark' }, '▲ ', t('bw.top')) : null))
        : h('span', { class: 'muted small' }, t('bw.pile.empty'))),
    h('p', { class: 'bw-player-foot small' },
      h('span', { 'data-testid': 'bw-cards' }, h('span', { class: 'bw-bookmark', 'aria-hidden': 'true' }, '▮'), ' ', t('bw.cards', { n: p.bookwormCards || 0 })),
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
    h('h3', null, t('bw.words')),
    ws.length ? h('ol', { class: 'bw-word-list', 'data-testid': 'bw-words' }, ws.map((w) => {
      const s = statusWord(w);
      return h('li', { class: 'bw-word ' + s.cls, 'data-status': w.status },
        h('span', { class: 'bw-mark', 'aria-hidden': 'true' }, s.mark), ' ',
        h('strong', { class: 'bw-w' }, w.word), ' ',
        h('span', { class: 'muted small' }, w.from === 'display'
          ? t('bw.word.by', { name: w.by, letter: w.letter })
          : t('bw.word.stole', { name: w.by, letter: w.letter, from: w.from })),
        ' ', h('span', { class: 'bw-status small' }, s.text));
    })) : h('p', { class: 'muted', 'data-testid': 'bw-words' }, t('bw.words.none')));
}

function judgingEl(view) {
  const j = view.judging;
  if (!j) return null;
  const others = (view.players || []).map((p) => p.name).filter((n) => n !== j.speaker);
  const body = [];
  if (view.phase === 'challenge') {
    body.push(h('p', null, t(j.known ? 'bw.judge.window.known' : 'bw.judge.window', { name: j.speaker })));
    body.push(h('p', { class: 'small' }, t('bw.judge.allowed', {
      names: j.allowed && j.allowed.length ? j.allowed.join(', ') : t('bw.nobody'),
    })));
  } else if (view.phase === 'vote') {
    const votes = j.votes || {};
    const acc = Object.values(votes).filter((v) => v === 'accept').length;
    const rej = Object.values(votes).filter((v) => v === 'reject').length;
    body.push(h('p', null, t('bw.judge.vote', { name: j.challenger || '?' })));
    body.push(h('p', { class: 'bw-tally', 'data-testid': 'bw-tally' },
      h('span', { class: 'bw-acc' }, '✓ ', t('bw.vote.accepts', { n: acc })), ' · ',
      h('span', { class: 'bw-rej' }, '✗ ', t('bw.vote.rejects', { n: rej }))));
    body.push(h('ul', { class: 'bw-voters small' }, others.map((n) => {
      const v = votes[n];
      return h('li', { class: v ? 'bw-v-' + v : 'bw-v-none' },
        h('span', { 'aria-hidden': 'true' }, v === 'accept' ? '✓ ' : v === 'reject' ? '✗ ' : '… '),
        n, ': ', v ? t('bw.vote.' + v) : t('bw.vote.waiting'));
    })));
  }
  return h('section', { class: 'bw-judging', 'aria-label': t('bw.judging'), 'data-testid': 'bw-judging' },
    h('h3', null, t('bw.judging')),
    h('p', { class: 'bw-judged' }, '“', h('strong', { 'data-testid': 'bw-judged-word' }, j.word), '”'),
    body);
}

function scoresEl(view) {
  const ps = view.players || [];
  const lr = view.lastRound;
  const rounds = view.rounds || [];
  if (!lr && !rounds.length) return null;
  const parts = [h('h3', null, t('bw.scores'))];
  if (lr) {
    const how = lr.failer ? t('bw.last.failed', { name: lr.failer }) : t('bw.last.ended', { name: lr.ender });
    parts.push(h('p', { class: 'small', 'data-testid': 'bw-last-round' }, t('bw.last.round', { n: lr.round }), ' ', how));
    parts.push(h('div', { class: 'table-scroll' }, h('table', { class: 'bw-score-table' },
      h('caption', { class: 'sr-only' }, t('bw.last.round', { n: lr.round })),
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, t('bw.col.player')),
        ['dots', 'cards', 'special', 'penalty', 'total'].map((k) => h('th', { scope: 'col' }, t('bw.col.' + k))))),
      h('tbody', null, (lr.scores || []).map((s, i) => h('tr', null,
        h('th', { scope: 'row' }, ps[i]?.name ?? '#' + i),
        h('td', null, String(s.dots)), h('td', null, String(s.bookwormCards)), h('td', null, String(s.special)),
        h('td', null, s.penalty ? '−' + Math.abs(s.penalty) : '0'), h('td', { class: 'strong' }, String(s.total))))))));
  }
  if (rounds.length > 1) {
    parts.push(h('div', { class: 'table-scroll' }, h('table', { class: 'bw-score-table' },
      h('caption', { class: 'small' }, t('bw.rounds')),
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, t('bw.col.player')),
        rounds.map((_, r) => h('th', { scope: 'col' }, String(r + 1))), h('th', { scope: 'col' }, t('bw.total')))),
      h('tbody', null, ps.map((p, i) => h('tr', null, h('th', { scope: 'row' }, p.name),
        rounds.map((r) => h('td', null, String(r[i] ?? ''))), h('td', { class: 'strong' }, String(p.total))))))));
  }
  return h('section', { class: 'bw-scores', 'aria-label': t('bw.scores') }, parts);
}

// renderBoard draws everything public.
export function renderBoard(view, opts = {}) {
  const mySeat = opts.seat ?? -3;
  // When the server told how long the running deadline has left (a welcome
  // after a reconnect, say), pin game time to it rather than to the moment
  // this view arrived, so the countdown never shows more time than is left.
  if (opts.deadlineAt && view.deadline > view.now) {
    anchors.set(view.now, opts.deadlineAt - (view.deadline - view.now));
  }
  return h('div', { class: 'bw-board', 'data-phase': view.phase },
    h('div', { class: 'bw-top' },
      h('p', { class: 'bw-round' }, view.over ? t('table.over') : t('bw.round', { n: view.round, name: view.bookworm })),
      h('p', { class: 'bw-phase', 'data-testid': 'bw-phase' }, phaseLine(view)),
      clockEl(view)),
    h('div', { class: 'bw-middle' }, cardEl(view), displayEl(view)),
    judgingEl(view),
    playersEl(view, mySeat),
    h('div', { class: 'bw-lower' }, wordsEl(view), scoresEl(view)));
}

// --- the choices -------------------------------------------------------------------

// The word being typed survives the redraws of the same turn.
const draft = { key: '', value: '' };

function optLabel(view, o) {
  const d = [...(view.display || []), ...(view.players || []).flatMap((p) => p.dice || [])].find((x) => x.die === o.die)
    || { die: o.die, face: '?', points: 0 };
  return d;
}

function legalBtn(label, action, attrs = {}) {
  return h('button', { type: 'button', class: 'choice legal', 'data-action': JSON.stringify(action), ...attrs }, label);
}

// renderActions draws what the seat may do now. send(action) plays it.
export function renderActions(view, send) {
  const legal = view.legal || [];
  if (!legal.length || view.over) return null;
  const panel = h('section', { class: 'bw-actions', 'aria-label': t('bw.act.title'), 'data-testid': 'bw-actions' });

  if (legal.includes('category') && view.card) {
    panel.append(h('h3', null, t('bw.act.category')),
      h('div', { class: 'choices', role: 'group', 'aria-label': t('bw.act.category') },
        view.card.categories.map((c, i) => {
          const b = legalBtn([c.name, ' ', levelTag(c.level)], { category: i }, { 'data-category': i });
          b.addEventListener('click', () => send({ category: i }));
          return b;
        })));
  }
  if (legal.includes('turn-to')) {
    panel.append(h('h3', null, t('bw.act.turnto')),
      h('div', { class: 'choices bw-turnto', role: 'group', 'aria-label': t('bw.act.turnto') },
        ['a-z', 'not', 'dots', 'stack', '?'].map((f) => {
          const b = legalBtn([h('span', { class: 'bw-chip bw-special', 'aria-hidden': 'true' }, SPECIAL_LABEL[f]), ' ', specialName(f)],
            { turnTo: f }, { title: t('bw.sp.help.' + f), 'data-turn': f });
          b.addEventListener('click', () => send({ turnTo: f }));
          return b;
        })));
  }
  if (legal.includes('name')) panel.append(nameForm(view, send, legal));
  if (legal.includes('challenge') || legal.includes('allow')) {
    const j = view.judging || {};
    panel.append(h('h3', null, t('bw.act.challenge', { name: j.speaker ?? '?', word: j.word ?? '' })),
      h('div', { class: 'choices', role: 'group', 'aria-label': t('bw.judging') },
        legal.includes('challenge') ? legalBtn(['! ', t('bw.btn.challenge')], { challenge: true }, { onclick: () => send({ challenge: true }), 'data-testid': 'bw-challenge' }) : null,
        legal.includes('allow') ? legalBtn(['→ ', t('bw.btn.allow')], { allow: true }, { onclick: () => send({ allow: true }), 'data-testid': 'bw-allow' }) : null));
  }
  if (legal.includes('vote')) {
    const j = view.judging || {};
    panel.append(h('h3', null, t('bw.act.vote', { name: j.speaker ?? '?', word: j.word ?? '', cat: view.category?.name ?? '' })),
      h('div', { class: 'choices', role: 'group', 'aria-label': t('bw.judging') },
        legalBtn(['✓ ', t('bw.btn.accept')], { vote: 'accept' }, { onclick: () => send({ vote: 'accept' }), 'data-testid': 'bw-accept' }),
        legalBtn(['✗ ', t('bw.btn.reject')], { vote: 'reject' }, { onclick: () => send({ vote: 'reject' }), 'data-testid': 'bw-reject', class: 'choice legal bw-reject-btn' })));
  }
  return panel.childNodes.length ? panel : null;
}

function nameForm(view, send, legal) {
  const key = `${view.round}:${view.current}:${view.deadline}:${(view.words || []).length}`;
  const fresh = draft.key !== key;
  if (fresh) { draft.key = key; draft.value = ''; }
  const hint = h('p', { class: 'bw-hint small', id: 'bw-hint', 'aria-live': 'polite', 'data-testid': 'bw-hint' });
  const input = h('input', {
    id: 'bw-word', type: 'text', maxlength: 40, autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false',
    value: draft.value, 'aria-describedby': 'bw-hint', 'data-testid': 'bw-word', enterkeyhint: 'send',
  });
  const opts = view.takeable || [];
  const buttons = [];
  const sendWord = (o, letter) => {
    const word = input.value.trim();
    if (!word) { hint.textContent = t('bw.hint.empty'); input.focus(); return; }
    const a = { name: word, die: o.die };
    if (letter) a.letter = letter;
    send(a);
  };
  const group = h('div', { class: 'choices bw-takes', role: 'group', 'aria-label': t('bw.act.takes') });
  for (const o of opts) {
    const d = optLabel(view, o);
    const from = o.from >= 0 ? view.players[o.from]?.name ?? '#' + o.from : '';
    const letters = o.letters.toUpperCase();
    // On C/K and X/Y the player picks the letter: one button each.
    const choices = !d.special && d.face.includes('/') ? d.face.split('/').filter((l) => letters.includes(l)) : [''];
    for (const l of choices) {
      const label = l ? t('bw.take.letter', { letter: l }) : d.special ? t('bw.take.special', { face: specialName(d.face) }) : t('bw.take.face', { face: d.face });
      const aria = from
        ? t('bw.take.steal.aria', { label, points: d.points, name: from })
        : t('bw.take.aria', { label, points: d.points });
      const b = h('button', {
        type: 'button', class: `choice bw-take${from ? ' steal' : ''}`, 'aria-label': aria, title: aria,
        'data-action': `take:${o.die}:${l}`, 'data-die': o.die, 'data-from': o.from, 'data-letters': o.letters, 'data-letter': l ? l.toLowerCase() : null,
        onclick: () => sendWord(o, l ? l.toLowerCase() : ''),
      },
      dieEl(d, 'tiny'),
      h('span', { 'aria-hidden': 'true' }, l && d.face.includes('/') ? ' → ' + l : '', from ? ' ' + t('bw.take.from', { name: from }) : ''));
      buttons.push({ b, o, l: l ? l.toLowerCase() : '' });
      group.append(b);
    }
  }
  const fits = (x, letter) => letter && (x.l ? x.l === letter : x.o.letters.includes(letter));
  const refresh = () => {
    draft.value = input.value;
    const letter = firstLetter(input.value);
    let any = false;
    for (const x of buttons) {
      const ok = fits(x, letter);
      any ||= ok;
      x.b.className = `choice bw-take${x.o.from >= 0 ? ' steal' : ''}${ok ? ' legal' : letter ? ' illegal' : ''}`;
    }
    hint.textContent = !input.value.trim() ? t('bw.hint.type')
      : !letter ? t('bw.hint.noletter')
        : any ? t('bw.hint.pick', { letter: letter.toUpperCase() }) : t('bw.hint.nodie', { letter: letter.toUpperCase() });
  };
  input.addEventListener('input', refresh);
  const form = h('form', { class: 'bw-name-form', novalidate: true, 'aria-labelledby': 'bw-name-h' },
    h('h3', { id: 'bw-name-h' }, t('bw.act.name', { cat: view.category?.name ?? '' })),
    h('p', { class: 'bw-word-row' }, h('label', { for: 'bw-word', class: 'sr-only' }, t('bw.act.word')), input,
      h('button', { type: 'submit', class: 'primary', 'data-testid': 'bw-send' }, t('bw.btn.send'))),
    hint, group);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const letter = firstLetter(input.value);
    // Enter takes the first die the word fits, from the display first; with
    // none, the server says why (wrong letter...).
    const pick = buttons.find((x) => fits(x, letter) && x.o.from < 0) || buttons.find((x) => fits(x, letter)) || buttons[0];
    if (!input.value.trim()) { hint.textContent = t('bw.hint.empty'); return; }
    if (!pick) { hint.textContent = t('bw.hint.nodice'); return; }
    sendWord(pick.o, pick.l);
  });
  const extra = [];
  if (legal.includes('question')) {
    extra.push(legalBtn([h('span', { class: 'bw-chip bw-special', 'aria-hidden': 'true' }, '?'), ' ', t('bw.btn.question')], { question: true },
      { onclick: () => send({ question: true }), 'data-testid': 'bw-question', title: t('bw.sp.help.?') }));
  }
  if (legal.includes('give-up')) {
    extra.push(h('button', { type: 'button', class: 'choice bw-giveup', 'data-action': '{"giveUp":true}', 'data-testid': 'bw-giveup', onclick: () => send({ giveUp: true }) }, '⚑ ', t('bw.btn.giveup')));
  }
  if (extra.length) form.append(h('div', { class: 'choices bw-extra' }, extra));
  refresh();
  if (fresh) {
    // A new turn of mine: put the cursor in the word field.
    setTimeout(() => { const el = document.getElementById('bw-word'); if (el && document.activeElement?.tagName !== 'INPUT') el.focus(); }, 0);
  }
  return form;
}

// --- words --------------------------------------------------------------------------

// resultText says who won a finished game.
export function resultText(view) {
  if (!view.over) return '';
  const w = view.winners || [];
  const best = Math.max(...(view.players || []).map((p) => p.total));
  return t(w.length > 1 ? 'table.winners' : 'table.winner', { names: w.join(' & '), score: best });
}

// --- animation -------------------------------------------------------------------------

export async function beforeUpdate() {}

// afterUpdate: freshly rolled dice and the die just taken light up.
export function afterUpdate(root, events, fast) {
  if (fast || (window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches)) return;
  for (const ev of events || []) {
    if (ev.kind === 'roll') for (const el of root.querySelectorAll('.bw-display .bw-die')) el.classList.add('rolling');
    if (ev.kind === 'take' || ev.kind === 'steal') {
      const el = root.querySelector(`.bw-player[data-seat="${ev.seat}"] .bw-die[data-die="${ev.data?.die}"]`);
      if (el) el.classList.add('fresh');
    }
  }
}
