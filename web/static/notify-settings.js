// The account page's "Notifications" card: this device's push subscription
// (turn on: the browser's permission, then a subscription of the service
// worker's push manager with the server's VAPID key, sent to the server;
// turn off: unsubscribe and tell the server) and the account's settings
// (which notifications, push and/or e-mail, quiet hours in the browser's
// time zone, the page's language for the notices). The API is docs/protocol.md's /api/notify/…; the worker
// (sw.js) shows what arrives.

import { h, replace } from '/static/dom.js';
import { t, onLangChange, currentLang } from '/static/i18n.js';
import { api } from '/static/api.js';

const QUIET = { from: '22:00', to: '08:00' }; // offered when quiet hours are first turned on

const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

// key turns a base64url VAPID key into the bytes pushManager.subscribe takes.
function key(b64) {
  const s = atob(b64.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

function sameKey(a, b) {
  if (!a) return false;
  const x = new Uint8Array(a);
  return x.length === b.length && x.every((v, i) => v === b[i]);
}

const pushSupported = () => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

// deviceState: 'unsupported', 'denied' (blocked by the person), 'on' (this
// browser holds a subscription) or 'off'.
async function deviceState() {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  try {
    const reg = await navigator.serviceWorker.getRegistration('/');
    const sub = reg ? await reg.pushManager.getSubscription() : null;
    return sub && Notification.permission === 'granted' ? 'on' : 'off';
  } catch {
    return 'off';
  }
}

// workerReady is the service worker's registration (sw-register.js
// registers it when the page has loaded), or an error if it never comes.
function workerReady() {
  return Promise.race([
    navigator.serviceWorker.ready,
    new Promise((_, reject) => setTimeout(() => reject(new Error('no service worker')), 15000)),
  ]);
}

// notificationsCard builds the card; it loads and redraws itself.
export function notificationsCard() {
  const st = {
    phase: 'loading', // 'loading' | 'ready' | 'unavailable'
    vapid: '', // the server's public key ('' = no push from this server)
    email: true, // whether the server can send e-mail
    device: 'off',
    busy: false,
    status: '',
    error: '',
    formError: '',
  };
  const input = (id, attrs) => h('input', { id, ...attrs });
  const f = {
    turns: input('notify-turns', { type: 'checkbox' }),
    results: input('notify-results', { type: 'checkbox' }),
    push: input('notify-push', { type: 'checkbox' }),
    emailOn: input('notify-email-on', { type: 'checkbox', onchange: () => draw() }),
    email: input('notify-email', { type: 'email', autocomplete: 'email', spellcheck: 'false', autocapitalize: 'none', 'aria-describedby': 'notify-email-hint' }),
    quiet: input('notify-quiet', { type: 'checkbox', onchange: () => draw() }),
    from: input('notify-quiet-from', { type: 'time', required: true }),
    to: input('notify-quiet-to', { type: 'time', required: true }),
  };
  const deviceButton = h('button', { type: 'button', id: 'notify-device' });
  const saveButton = h('button', { type: 'submit', class: 'primary', id: 'notify-save' });
  const form = h('form', { id: 'notify-form', novalidate: true, onsubmit: save });
  const card = h('section', { class: 'card notify-card', 'aria-labelledby': 'notify-h', 'data-testid': 'notify' });

  function fill(s) {
    f.turns.checked = s.turns !== false;
    f.results.checked = s.results !== false;
    f.push.checked = s.push !== false;
    f.emailOn.checked = !!s.emailOn;
    f.email.value = s.email || '';
    f.quiet.checked = !!s.quiet;
    f.from.value = s.quiet?.from || QUIET.from;
    f.to.value = s.quiet?.to || QUIET.to;
  }

  const check = (el, label) => h('p', { class: 'field check' }, el, h('label', { for: el.id }, label));

  function deviceText() {
    switch (st.device) {
      case 'unsupported': return t('notify.unsupported');
      case 'denied': return t('notify.denied');
      case 'on': return t('notify.device.on');
      default: return st.vapid ? t('notify.device.off') : t('notify.unavailable');
    }
  }

  function draw() {
    const focused = card.contains(document.activeElement) ? document.activeElement.id : '';
    const off = !!st.busy;
    for (const el of Object.values(f)) el.disabled = off;
    f.from.disabled = f.to.disabled = off || !f.quiet.checked;
    saveButton.disabled = off;
    saveButton.textContent = st.busy ? t('notify.saving') : t('notify.save');
    const canToggle = st.vapid && (st.device === 'on' || st.device === 'off');
    deviceButton.disabled = off;
    deviceButton.textContent = st.busy === 'device' ? t('notify.device.waiting')
      : st.device === 'on' ? t('notify.device.turn-off') : t('notify.device.turn-on');
    deviceButton.className = st.device === 'on' ? '' : 'primary';
    deviceButton.onclick = st.device === 'on' ? turnOff : turnOn;
    replace(form,
      h('fieldset', null, h('legend', null, t('notify.what.h')),
        check(f.turns, t('notify.turns')),
        check(f.results, t('notify.results'))),
      h('fieldset', null, h('legend', null, t('notify.how.h')),
        check(f.push, t('notify.push')),
        st.email ? [
          check(f.emailOn, t('notify.emailOn')),
          h('p', { class: 'field' }, h('label', { for: f.email.id }, t('notify.email')), f.email,
            h('span', { class: 'muted small', id: 'notify-email-hint' }, t('notify.email.hint')))]
          : h('p', { class: 'muted small' }, t('notify.email.unavailable'))),
      h('fieldset', null, h('legend', null, t('notify.quiet.h')),
        check(f.quiet, t('notify.quiet')),
        h('p', { class: 'notify-times' },
          h('span', { class: 'field inline' }, h('label', { for: f.from.id }, t('notify.quiet.from')), f.from),
          h('span', { class: 'field inline' }, h('label', { for: f.to.id }, t('notify.quiet.to')), f.to)),
        h('p', { class: 'muted small', 'data-testid': 'notify-tz' }, t('notify.quiet.tz', { tz: timeZone() }))),
      st.formError ? h('p', { class: 'error', role: 'alert', id: 'notify-form-error' }, st.formError) : null,
      h('p', { class: 'actions' }, saveButton));
    replace(card,
      h('h2', { id: 'notify-h' }, t('notify.h')),
      h('p', { class: 'muted small' }, t('notify.hint')),
      st.phase === 'loading' ? null
        : st.phase === 'unavailable' ? h('p', { class: 'muted', 'data-testid': 'notify-unavailable' }, t('notify.unavailable'))
          : [
            h('div', { class: 'notify-device' },
              h('p', { 'data-testid': 'notify-device' }, deviceText()),
              canToggle ? h('p', { class: 'actions' }, deviceButton) : null),
            form],
      h('p', { class: 'status', role: 'status' }, st.status ? h('span', { class: 'good' }, st.status) : null),
      st.error ? h('p', { class: 'error', role: 'alert' }, st.error) : null);
    if (focused) document.getElementById(focused)?.focus();
  }

  async function run(kind, work) {
    st.busy = kind;
    st.status = st.error = st.formError = '';
    draw();
    try {
      await work();
    } catch (e) {
      const msg = t('auth.failed', { msg: (e && e.message) || String(e) });
      if (kind === 'save') st.formError = msg;
      else st.error = msg;
    }
    st.busy = false;
    draw();
  }

  function turnOn() {
    run('device', async () => {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') {
        st.device = permission === 'denied' ? 'denied' : 'off';
        return;
      }
      const reg = await workerReady();
      const server = key(st.vapid);
      let sub = await reg.pushManager.getSubscription();
      if (sub && !sameKey(sub.options.applicationServerKey, server)) {
        await sub.unsubscribe(); // made with another key: the server could not use it
        sub = null;
      }
      sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: server });
      const { endpoint, keys } = sub.toJSON();
      await api.notifySubscribe({ endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } });
      st.device = 'on';
      st.status = t('notify.device.on.ok');
    });
  }

  function turnOff() {
    run('device', async () => {
      const reg = await navigator.serviceWorker.getRegistration('/');
      const sub = reg ? await reg.pushManager.getSubscription() : null;
      st.device = 'off';
      if (sub) {
        await sub.unsubscribe();
        await api.notifyUnsubscribe(sub.endpoint);
      }
      st.status = t('notify.device.off.ok');
    });
  }

  function save(ev) {
    ev.preventDefault();
    const email = f.email.value.trim();
    if (f.emailOn.checked && !email) {
      st.formError = t('notify.email.missing');
      draw();
      f.email.focus();
      return;
    }
    const body = {
      push: f.push.checked,
      email,
      emailOn: f.emailOn.checked,
      turns: f.turns.checked,
      results: f.results.checked,
      quiet: f.quiet.checked ? { from: f.from.value || QUIET.from, to: f.to.value || QUIET.to, tz: timeZone() } : null,
      lang: currentLang(), // the notices speak the page's language
    };
    run('save', async () => {
      fill(await api.saveNotifySettings(body));
      st.status = t('notify.saved');
    });
  }

  async function load() {
    const [settings, vapid] = await Promise.allSettled([api.notifySettings(), api.notifyKey()]);
    if (settings.status === 'fulfilled' && settings.value) {
      fill(settings.value);
      st.phase = 'ready';
    } else {
      st.phase = 'unavailable';
    }
    st.vapid = vapid.status === 'fulfilled' ? vapid.value?.publicKey || '' : '';
    st.email = vapid.status !== 'fulfilled' || vapid.value?.emailAvailable !== false;
    st.device = await deviceState();
    draw();
  }

  onLangChange(draw);
  draw();
  load();
  return card;
}
