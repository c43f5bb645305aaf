// The games this page can draw. A game's browser renderer is two files
// named by its id: /static/<id>.js (the module table.js and replay.js
// call) and /static/<id>.css (its look). A game the server knows but that
// has no module here yet is not offered for new tables (the server may
// already run its rules and scripts).
//
// Everything else about a game (its seats, options, bots and English
// catalogue) comes from the game itself through GET /api/games, so no
// page code outside a game's own module knows a game by name.

import { api } from '/static/api.js';
import { t, addMessages } from '/static/i18n.js';

const ID = /^[a-z0-9-]+$/; // a registry id: also a safe file name
const modules = new Map();

// renderer loads a game's module and its stylesheet once; it resolves when
// both are in, so a board is never drawn unstyled.
export function renderer(id) {
  if (!ID.test(id)) return Promise.reject(new Error('unknown game ' + id));
  if (!modules.has(id)) {
    const css = new Promise((resolve) => {
      const link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = `/static/${id}.css`;
      link.onload = link.onerror = resolve;
      document.head.append(link);
    });
    const p = Promise.all([import(`/static/${id}.js`), css]).then(([m]) => m);
    p.catch(() => modules.delete(id));
    modules.set(id, p);
  }
  return modules.get(id);
}

// hasRenderer asks the server whether the game's module exists, without
// loading it.
async function hasRenderer(id) {
  if (!ID.test(id)) return false;
  try {
    return (await fetch(`/static/${id}.js`, { method: 'HEAD' })).ok;
  } catch {
    return false;
  }
}

let loading = null;
let infos = [];

// loadGames fetches the games' descriptions once (engine.Info) and
// registers their English catalogues with t. Each description says with
// playable whether this page has the game's renderer.
export function loadGames() {
  loading ??= api.games().then(async (list) => {
    infos = Array.isArray(list) ? list : [];
    for (const g of infos) addMessages(g.messages);
    await Promise.all(infos.map(async (g) => {
      g.playable = await hasRenderer(g.id);
      // The game's page words (French of its options and narration) are
      // wanted by the lobby and the log before any board is drawn.
      if (g.playable) await import(`/static/${g.id}.messages.js`).catch(() => {});
    }));
    return infos;
  }, (e) => { loading = null; throw e; });
  return loading;
}

// gameInfo is a loaded game's description (undefined before loadGames).
export function gameInfo(id) { return infos.find((g) => g.id === id); }

// botLabel names a game's bot kind for people (the kind itself until the
// games are loaded).
export function botLabel(gameId, kind) {
  const spec = gameInfo(gameId)?.bots?.find((b) => b.kind === kind);
  return spec ? t(spec.label) : kind;
}

// botSeatName names a bot's seat in the page's language, keeping the
// number the server gave a second bot of the same kind ("Greedy bot 2" is
// "Robot glouton 2"). seat is a table summary's seat ({bot, name}).
export function botSeatName(gameId, seat) {
  const n = /\s(\d+)$/.exec(seat.name || '');
  const s = t('seat.botname', { bot: botLabel(gameId, seat.bot || gameInfo(gameId)?.defaultBot || '') });
  return s.charAt(0).toUpperCase() + s.slice(1) + (n ? ' ' + n[1] : '');
}

// personName is a person's seat name as the page shows it: a deleted
// account's seat (seat.former, which only the server sets) in the page's
// language, any other seat by its own name. seat is a table summary's seat.
export function personName(seat) {
  return seat?.former ? t('seat.former') : seat?.name;
}

// narrationLines puts a move's narration (the server's engine.Message list:
// catalogue keys with their arguments) into sentences in the page's
// language: the game's English catalogue, or French from i18n.js.
export function narrationLines(narration) {
  return (narration || []).map((m) => t(m.key, m.args));
}
