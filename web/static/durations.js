// durationText says how long ms is, to the minute, in the page's
// language: "2 days 3 h", "5 h 20 min", "12 min", "40 s". Long clocks
// (turn-based tables) and time banks read this way.

import { t } from '/static/i18n.js';

export function durationText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s < 60) return t('time.s', { n: s });
  const mins = Math.ceil(s / 60);
  const d = Math.floor(mins / 1440);
  const h = Math.floor((mins % 1440) / 60);
  const m = mins % 60;
  if (d) return h ? t('time.dh', { d, h }) : t('time.d', { d });
  if (h) return m ? t('time.hm', { h, m }) : t('time.h', { h });
  return t('time.m', { m });
}
