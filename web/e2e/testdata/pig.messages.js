// Pig's words in French (test-only).

import { addTranslations } from '/static/i18n.js';

export const en = {};
export const fr = {
  'pig.say.roll': 'relancer',
  'pig.say.hold': 'mettre {n} {n:point:points} en banque',
  'pig.why': 'sous 20, une relance rapporte plus qu’elle ne risque',
  'pig.rolled': '{who} fait {face}',
  'pig.bust': '{who} fait 1 et perd le tour',
  'pig.held': '{who} met {n} {n:point:points} en banque',
  'pig.won': '{who} gagne',
  'pig.bot.cautious': 'prudent',
  'pig.bot.bold': 'hardi',
  'pig.practice': 's’entraîner seul',
  'pig.opt.target': 'Points pour gagner',
};

addTranslations({ en, fr });
