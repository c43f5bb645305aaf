// Players' pages (/leaderboard and /u/<name>): the pieces they share, and
// the link to a player's profile every page puts on a name whose seat an
// account holds (a table summary's seat.profile).

import { h } from '/static/dom.js';
import { t, has, currentLang } from '/static/i18n.js';

// profileLink is a link to an account's profile, or the label alone when
// there is no account (a guest, a bot).
export function profileLink(profile, label = profile, attrs = {}) {
  if (!profile) return label;
  return h('a', { class: 'profile-link', href: '/u/' + encodeURIComponent(profile), ...attrs }, label);
}

// place words a rank, 1 first: 1st, 2nd… (1er, 2e… in French).
export function place(n) {
  return has('table.place.' + n) ? t('table.place.' + n) : t('table.place.n', { n });
}

// num writes a number in the page's language (decimals: at most digits).
export function num(x, digits = 0) {
  return new Intl.NumberFormat(currentLang(), { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(x);
}

export function day(iso) {
  return new Intl.DateTimeFormat(currentLang(), { dateStyle: 'medium' }).format(new Date(iso));
}

// pager is the Previous / Next links of a list from offset, limit at a
// time, of total; go(offset) shows another page.
export function pager(offset, limit, total, go) {
  if (total <= limit) return null;
  const link = (to, label, rel) => (to === null ? h('span', { class: 'button disabled', 'aria-disabled': 'true' }, label)
    : h('button', { type: 'button', 'data-page': rel, onclick: () => go(to) }, label));
  return h('nav', { class: 'pager', 'aria-label': t('lb.pages') },
    link(offset > 0 ? Math.max(0, offset - limit) : null, t('lb.prev'), 'prev'),
    h('span', { class: 'muted small', 'aria-live': 'polite' },
      t('lb.range', { from: offset + 1, to: Math.min(total, offset + limit), total })),
    link(offset + limit < total ? offset + limit : null, t('lb.next'), 'next'));
}
