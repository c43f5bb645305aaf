// dicehall's service worker, served at /sw.js (scope: the whole site) by
// the server, which puts the version of the static files in VERSION.
//
// What it keeps (docs/architecture.md, "The service worker"):
// - the app's files (/static/…, the manifest): a few at install (what the
//   offline page needs), the rest as pages load them, served from the
//   cache of this version. VERSION changes with any file, so a kept file is
//   never older than the worker serving it; a new version starts new caches
//   and deletes the old ones.
// - pages: from the network first. Rules pages and the games' rules (their
//   API answers) are kept to be read offline; any other page that cannot
//   load shows the offline page. Live play is never answered from a cache.
// - everything else (the rest of the API, WebSockets, other sites): the
//   network, untouched.
// It also shows push notifications ({title, body, url, tag}) and opens
// their page when one is clicked.

const VERSION = '__DICEHALL_SHELL_VERSION__';
const SHELL = 'dicehall-shell-' + VERSION;
const PAGES = 'dicehall-pages-' + VERSION;
const OFFLINE = '/offline.html';

// What the offline page needs, fetched at install.
const PRECACHE = [
  OFFLINE,
  '/static/offline.js',
  '/static/style.css',
  '/static/pwa.css',
  '/static/dom.js',
  '/static/i18n.js',
  '/static/sw-register.js',
  '/manifest.webmanifest',
  '/static/icons/icon-32.png',
  '/static/icons/icon-192.png',
  '/static/icons/badge-96.png',
];

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(SHELL);
    await cache.addAll(PRECACHE.map((u) => new Request(u, { cache: 'no-cache' })));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('dicehall-') && name !== SHELL && name !== PAGES) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// keptPage: the pages kept for reading offline (a game's rules).
const keptPage = (path) => /^\/rules\/[a-z0-9-]+$/.test(path);
// keptAPI: the API answers those pages read (the games, their rules).
const keptAPI = (path) => path === '/api/games' || /^\/api\/games\/[a-z0-9-]+\/rules$/.test(path);
const isShell = (path) => path.startsWith('/static/') || path === '/manifest.webmanifest';

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (req.mode === 'navigate') {
    event.respondWith(page(event, url));
  } else if (isShell(url.pathname) && (req.method === 'GET' || req.method === 'HEAD')) {
    event.respondWith(shellFile(event));
  } else if (keptAPI(url.pathname) && req.method === 'GET') {
    event.respondWith(networkFirst(event, PAGES));
  }
  // Anything else goes to the network as if there were no worker.
});

// page loads a page from the network; offline, a kept copy of a rules
// page, else the offline page.
async function page(event, url) {
  const req = event.request;
  try {
    const res = await fetch(req);
    if (res.ok && keptPage(url.pathname)) {
      const copy = res.clone();
      event.waitUntil(caches.open(PAGES).then((c) => c.put(url.pathname, copy)));
    }
    return res;
  } catch (e) {
    const kept = keptPage(url.pathname) ? await caches.match(url.pathname, { cacheName: PAGES }) : undefined;
    return kept || (await caches.match(OFFLINE, { cacheName: SHELL })) || Response.error();
  }
}

// shellFile answers an app file from this version's cache, else from the
// network (and keeps it).
async function shellFile(event) {
  const req = event.request;
  const cache = await caches.open(SHELL);
  const kept = await cache.match(req, { ignoreSearch: true, ignoreMethod: true });
  if (kept) return req.method === 'HEAD' ? new Response(null, { status: kept.status, headers: kept.headers }) : kept;
  const res = await fetch(req);
  if (res.ok && req.method === 'GET') {
    const copy = res.clone();
    event.waitUntil(cache.put(req, copy));
  }
  return res;
}

// networkFirst asks the network and keeps the answer; offline, the kept
// answer if there is one.
async function networkFirst(event, cacheName) {
  const req = event.request;
  try {
    const res = await fetch(req);
    if (res.ok) {
      const copy = res.clone();
      event.waitUntil(caches.open(cacheName).then((c) => c.put(req, copy)));
    }
    return res;
  } catch (e) {
    const kept = await caches.match(req, { cacheName });
    if (kept) return kept;
    throw e;
  }
}

// ---- push notifications

// sameSite keeps a notification's link on this site (anything else opens
// the lobby).
function sameSite(url) {
  try {
    const u = new URL(url || '/', self.location.origin);
    return u.origin === self.location.origin ? u.href : self.location.origin + '/';
  } catch {
    return self.location.origin + '/';
  }
}

self.addEventListener('push', (event) => {
  let msg = {};
  try {
    msg = event.data ? event.data.json() : {};
  } catch {
    msg = { body: event.data ? event.data.text() : '' };
  }
  const title = typeof msg.title === 'string' && msg.title ? msg.title : 'dicehall';
  const options = {
    body: typeof msg.body === 'string' ? msg.body : '',
    icon: '/static/icons/icon-192.png',
    badge: '/static/icons/badge-96.png',
    data: { url: sameSite(msg.url) },
  };
  if (typeof msg.tag === 'string' && msg.tag) {
    // A newer notice of the same table replaces the older one, and still
    // tells the person.
    options.tag = msg.tag;
    options.renotify = true;
  }
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = sameSite(event.notification.data && event.notification.data.url);
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const same = open.find((c) => c.url.split('#')[0] === url.split('#')[0]);
    if (same) return same.focus();
    return self.clients.openWindow(url);
  })());
});
