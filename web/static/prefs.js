// The person's settings for every table, kept in this browser
// (localStorage): the pages and the games' renderers read them with pref
// and hear changes with onPrefChange; the settings menu writes them.

const defaults = {
  // confirm: a move chosen on the board waits for a second tap (or Enter)
  // before it is sent.
  confirm: true,
  // botSpeed paces the moves of others (bots above all) so they can be
  // followed: 'slow', 'normal' or 'fast'.
  botSpeed: 'normal',
  // sound: a short tone when it becomes your turn while the page is hidden.
  sound: false,
  // notify: a browser notification when it becomes your turn while the
  // page is hidden (asked for permission when switched on).
  notify: false,
};

const listeners = [];
const KEY = 'dh.prefs';

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || '{}');
    const out = { ...defaults };
    for (const k of Object.keys(defaults)) if (typeof saved[k] === typeof defaults[k]) out[k] = saved[k];
    return out;
  } catch {
    return { ...defaults };
  }
}

let prefs = load();

export function pref(name) { return prefs[name]; }

export function setPref(name, value) {
  if (!(name in defaults) || typeof value !== typeof defaults[name] || prefs[name] === value) return;
  prefs = { ...prefs, [name]: value };
  try { localStorage.setItem(KEY, JSON.stringify(prefs)); } catch { /* storage may be off */ }
  for (const fn of listeners) fn(name, value);
}

export function onPrefChange(fn) { listeners.push(fn); }

// pace scales a renderer's pause after another player's move (its figure
// at normal speed, in milliseconds) by the chosen bot speed.
export function pace(ms) {
  const f = { slow: 1.8, normal: 1, fast: 0.35 }[prefs.botSpeed] ?? 1;
  return Math.round(ms * f);
}

// Another tab changing the settings changes them here too.
window.addEventListener('storage', (e) => {
  if (e.key !== KEY) return;
  const before = prefs;
  prefs = load();
  for (const k of Object.keys(defaults)) if (before[k] !== prefs[k]) for (const fn of listeners) fn(k, prefs[k]);
});
