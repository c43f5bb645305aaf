// The games this page can draw: one renderer module per game. A game the
// server knows but that has no renderer here yet is not offered for new
// tables (the server may already run its rules and scripts).
export const renderers = {
  dicestars: () => import('/static/dicestars.js'),
  bookworm: () => import('/static/bookworm.js'),
  diceflick: () => import('/static/diceflick.js'),
};

export function playable(gameId) {
  return Object.prototype.hasOwnProperty.call(renderers, gameId);
}
