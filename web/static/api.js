// HTTP calls of docs/protocol.md, and the name kept in this browser.

export class APIError extends Error {
  constructor(status, code, message, retryAfter = 0) {
    super(message || code || ('HTTP ' + status));
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter; // seconds the server asked to wait (0: none said)
  }
}

async function call(method, path, body, extra = {}) {
  const init = { method, headers: {}, credentials: 'same-origin', ...extra };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new APIError(0, 'network', e.message);
  }
  let data = null;
  const text = await res.text();
  if (text) {
    try { data = JSON.parse(text); } catch { data = null; }
  }
  if (!res.ok) {
    const err = data && data.error ? data.error : {};
    const wait = Number(res.headers.get('Retry-After')) || 0;
    throw new APIError(res.status, err.code, err.message || text.trim() || res.statusText, wait);
  }
  return data;
}

export const api = {
  games: () => call('GET', '/api/games'),
  rules: (game, lang) => call('GET', '/api/games/' + encodeURIComponent(game) + '/rules?lang=' + encodeURIComponent(lang)),
  tables: (statuses) => call('GET', '/api/tables?status=' + encodeURIComponent(statuses.join(','))),
  mine: () => call('GET', '/api/tables/mine'),
  table: (id) => call('GET', '/api/tables/' + encodeURIComponent(id)),
  create: (req) => call('POST', '/api/tables', req),
  join: (id, seat, name) => call('POST', '/api/tables/' + encodeURIComponent(id) + '/join', { seat, name }),
  rematch: (id) => call('POST', '/api/tables/' + encodeURIComponent(id) + '/rematch'),
  // Asked again each time (a 304 when nothing changed): the chat of a
  // finished table may still grow.
  // game '': the board the server opens on for this visitor.
  leaderboard: (game, offset, limit) => call('GET', '/api/leaderboard' + (game ? '/' + encodeURIComponent(game) : '') + `?offset=${offset}&limit=${limit}`),
  player: (name, offset, limit) => call('GET', '/api/players/' + encodeURIComponent(name) + `?offset=${offset}&limit=${limit}`),
  replay: (id, seat) => call('GET', '/api/tables/' + encodeURIComponent(id) + '/replay' +
    (seat === null || seat === undefined || seat < 0 ? '' : '?seat=' + seat), undefined, { cache: 'no-cache' }),
  // A finished table's review: {status: 'ready', review} or, while it is
  // made, {status: 'pending', done, total} (a 202).
  review: (id) => call('GET', '/api/tables/' + encodeURIComponent(id) + '/review', undefined, { cache: 'no-cache' }),
  // Identity (auth.js): each answers {"account": {...} | null}.
  account: () => call('GET', '/api/account'),
  signup: (name, password) => call('POST', '/api/account/signup', { name, password }),
  signin: (name, password) => call('POST', '/api/account/signin', { name, password }),
  signout: () => call('POST', '/api/account/signout'),
  signoutAll: () => call('POST', '/api/account/signout-all'),
  deleteAccount: (confirm) => call('DELETE', '/api/account', { confirm }),
  passkeyBegin: () => call('POST', '/api/account/passkeys/begin'),
  passkeyFinish: (ceremony, credential) => call('POST', '/api/account/passkeys/finish', { ceremony, credential }),
  passkeyDelete: (id) => call('DELETE', '/api/account/passkeys/' + encodeURIComponent(id)),
  passkeySigninBegin: () => call('POST', '/api/account/passkey-signin/begin'),
  passkeySigninFinish: (ceremony, credential) => call('POST', '/api/account/passkey-signin/finish', { ceremony, credential }),
  passkeySignupBegin: (name) => call('POST', '/api/account/passkey-signup/begin', { name }),
  passkeySignupFinish: (ceremony, credential) => call('POST', '/api/account/passkey-signup/finish', { ceremony, credential }),
  // Notifications (notify-settings.js): the server's VAPID key, this
  // device's push subscription, the account's settings.
  notifyKey: () => call('GET', '/api/notify/vapid'),
  notifySubscribe: (sub) => call('POST', '/api/notify/subscriptions', sub),
  notifyUnsubscribe: (endpoint) => call('DELETE', '/api/notify/subscriptions', { endpoint }),
  notifySettings: () => call('GET', '/api/notify/settings'),
  saveNotifySettings: (settings) => call('PUT', '/api/notify/settings', settings),
};

export function savedName() {
  try { return localStorage.getItem('dh.name') || ''; } catch { return ''; }
}

export function saveName(n) {
  try { localStorage.setItem('dh.name', n); } catch { /* storage may be off */ }
}

// cleanName trims a name and bounds its length (the server checks too).
export function cleanName(n) {
  return (n || '').replace(/\s+/g, ' ').trim().slice(0, 24);
}
