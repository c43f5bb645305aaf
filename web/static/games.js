// The games this page can draw: one renderer module per game. A game the
// server knows but that has no renderer here yet is not offered for new
// tables (the server may already run its rules and scripts).
//
// Everything else about a game (its seats, options, bots and English
// catalogue) comes from the game itself through GET /api/games, so no
// other page code needs to know a game by name.

import { api } from '/static/api.js';
import { t, addMessages } from '/static/i18n.js';

export const renderers = {
  dicestars: () => import('/static/dicestars.js'),
  bookworm: () => import('/static/bookworm.js'),
  diceflick: () => import('/static/diceflick.js'),
};

export function playable(gameId) {
  return Object.prototype.hasOwnProperty.call(renderers, gameId);
}

let loading = null;
let infos = [];

// loadGames fetches the games' descriptions once (engine.Info) and
// registers their English catalogues with t.
export function loadGames() {
  loading ??= api.games().then((list) => {
    infos = Array.isArray(list) ? list : [];
    for (const g of infos) addMessages(g.messages);
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

// narrationLines puts a move's narration (the server's engine.Message list:
// catalogue keys with their arguments) into sentences in the page's
// language: the game's English catalogue, or French from i18n.js.
export function narrationLines(narration) {
  return (narration || []).map((m) => t(m.key, m.args));
}
