// The offline page, which the service worker (sw.js) shows in place of a
// page that could not load: what works without a connection (the rules
// pages read here before, kept by the worker) and what does not (live
// play). It reloads by itself when the connection comes back, which loads
// the page that was asked for (the address is still that page's).

import { h, replace, $ } from '/static/dom.js';
import { t, onLangChange, langSwitch, currentLang } from '/static/i18n.js';

const app = $('#app');
const retry = h('button', { type: 'button', class: 'primary', id: 'offline-retry', onclick: () => location.reload() });
const langs = langSwitch();
let rules = null; // [{href, title}] once read from the worker's caches
let rulesLang = ''; // the language their titles were read in

// keptRules lists the rules pages the worker kept, titled from their kept
// rules (in the page's language if kept in it, else any).
async function keptRules() {
  const out = [];
  if (!('caches' in window)) return out;
  for (const name of await caches.keys()) {
    if (!name.startsWith('dicehall-pages-')) continue;
    const cache = await caches.open(name);
    for (const req of await cache.keys()) {
      const m = new URL(req.url).pathname.match(/^\/rules\/([a-z0-9-]+)$/);
      if (!m) continue;
      const api = `/api/games/${m[1]}/rules`;
      const res = (await cache.match(`${api}?lang=${currentLang()}`)) || (await cache.match(api, { ignoreSearch: true }));
      let title = m[1];
      try { title = (await res?.json())?.title || title; } catch { /* keep the id */ }
      out.push({ href: m[0], title });
    }
  }
  return out.sort((a, b) => a.title.localeCompare(b.title, currentLang()));
}

function render() {
  const focused = document.activeElement?.id;
  document.title = t('offline.title') + ' · dicehall';
  retry.textContent = t('offline.retry');
  replace(app,
    h('header', { class: 'topbar' }, h('a', { href: '/', class: 'brand' }, 'dicehall'), h('span', { class: 'spacer' }), langs),
    h('section', { class: 'card offline-card', 'aria-labelledby': 'offline-h', 'data-testid': 'offline', 'data-rules': rulesLang || null },
      h('h1', { id: 'offline-h' }, t('offline.title')),
      h('p', null, t('offline.lead')),
      h('h2', null, t('offline.can.h')),
      h('p', null, t('offline.cannot')),
      rules === null ? null
        : rules.length
          ? [h('p', null, t('offline.rules')),
            h('ul', { class: 'offline-rules', 'data-testid': 'offline-rules' },
              rules.map((r) => h('li', null, h('a', { href: r.href }, r.title))))]
          : h('p', { class: 'muted' }, t('offline.rules.none')),
      h('p', { class: 'muted' }, t('offline.clock')),
      h('p', { class: 'offline-back' }, t('offline.back')),
      h('p', null, retry)));
  if (focused) document.getElementById(focused)?.focus();
}

render();
// found redraws with the kept rules, titled in the page's language.
const found = () => {
  const lang = currentLang();
  return keptRules().then((r) => { rules = r; }, () => { rules ??= []; })
    .then(() => { rulesLang = lang; render(); });
};
onLangChange(() => { render(); found(); });
found();
// Back online, load the page asked for. Not while leaving: browsers may
// say "online" as another page starts to load, and a reload then would
// cancel that navigation.
let leaving = false;
window.addEventListener('beforeunload', () => { leaving = true; });
window.addEventListener('pagehide', () => { leaving = true; });
window.addEventListener('online', () => setTimeout(() => {
  if (!leaving && navigator.onLine) location.reload();
}, 300));
