// The account page: the account's name, its passkeys (add, remove),
// notifications (notify-settings.js), signing out here or everywhere, and
// deleting the account.

import { h, replace, $ } from '/static/dom.js';
import { t, onLangChange, langSwitch, currentLang } from '/static/i18n.js';
import { api } from '/static/api.js';
import { whoami, passkeysAvailable, addPasskey, passkeyError, authError, formatDate } from '/static/auth.js';
import { notificationsCard } from '/static/notify-settings.js';

const as = {
  me: null,
  busy: false,
  status: '', // the last thing that happened, said politely
  error: '',
  deleteError: '',
};

const confirmInput = h('input', { id: 'delete-confirm', type: 'text', autocomplete: 'off', autocapitalize: 'none', spellcheck: 'false', oninput: drawDeleteButton });
const deleteButton = h('button', { type: 'button', class: 'danger big', id: 'delete', onclick: deleteAccount });

const notifyCard = notificationsCard();

const app = $('#app');
const layout = h('div', { class: 'auth-layout single' });
replace(app,
  h('header', { class: 'topbar' }, h('a', { href: '/', class: 'brand' }, 'dicehall'), h('span', { class: 'spacer' }), langSwitch()),
  layout);

const date = (iso) => formatDate(iso, currentLang());

function drawDeleteButton() {
  const typed = confirmInput.value.trim().toLowerCase();
  deleteButton.disabled = as.busy || !as.me || typed !== as.me.name.toLowerCase();
}

function render() {
  document.title = t('auth.account.title') + ' · dicehall';
  const me = as.me;
  if (!me) { replace(layout); return; }
  const focused = document.activeElement?.id;
  deleteButton.textContent = t('auth.delete.go');
  drawDeleteButton();
  replace(layout,
    h('section', { class: 'card', 'aria-labelledby': 'acct-h' },
      h('h1', { id: 'acct-h' }, t('auth.account.title')),
      h('p', { class: 'account-name', 'data-testid': 'account-name' }, me.name),
      h('p', { class: 'muted small' }, t('auth.account.since', { date: date(me.created) })),
      h('p', { class: 'status', role: 'status' }, as.status ? h('span', { class: 'good' }, as.status) : null),
      as.error ? h('p', { class: 'error', role: 'alert', id: 'account-error' }, as.error) : null),
    h('section', { class: 'card', 'aria-labelledby': 'pk-h' },
      h('h2', { id: 'pk-h' }, t('auth.passkeys.h')),
      h('p', { class: 'muted small' }, t('auth.passkeys.hint')),
      me.passkeys.length
        ? h('ul', { class: 'passkey-list', 'data-testid': 'passkeys' }, me.passkeys.map((pk) => h('li', null,
          h('span', { class: 'what' },
            h('span', null, pk.name || t('auth.passkey.added', { date: date(pk.created) })),
            h('span', { class: 'muted small' }, pk.lastUsed ? t('auth.passkey.used', { date: date(pk.lastUsed) }) : t('auth.passkey.unused'))),
          h('button', {
            type: 'button', id: 'remove-' + pk.id, disabled: as.busy,
            'aria-label': t('auth.passkey.remove.label', { date: date(pk.created) }),
            onclick: () => removePasskey(pk.id),
          }, t('auth.passkey.remove')))))
        : h('p', { class: 'muted' }, t('auth.passkeys.none')),
      passkeysAvailable()
        ? h('p', { class: 'actions' }, h('button', { type: 'button', class: 'primary', id: 'add-passkey', disabled: as.busy, onclick: add }, t('auth.passkey.add')))
        : h('p', { class: 'muted small' }, t('auth.passkey.unsupported'))),
    notifyCard,
    h('section', { class: 'card', 'aria-labelledby': 'so-h' },
      h('h2', { id: 'so-h' }, t('auth.sessions.h')),
      h('p', { class: 'actions' },
        h('button', { type: 'button', id: 'signout', disabled: as.busy, onclick: () => signout(api.signout) }, t('auth.signout')),
        h('button', { type: 'button', id: 'signout-all', disabled: as.busy, 'aria-describedby': 'so-hint', onclick: () => signout(api.signoutAll) }, t('auth.signout.all'))),
      h('p', { class: 'muted small', id: 'so-hint' }, t('auth.signout.all.hint'))),
    h('section', { class: 'card', 'aria-labelledby': 'del-h' },
      h('h2', { id: 'del-h' }, t('auth.delete.h')),
      h('p', { class: 'muted small', id: 'del-hint' }, t('auth.delete.hint')),
      h('p', { class: 'field' }, h('label', { for: 'delete-confirm' }, t('auth.delete.confirm', { name: me.name })), confirmInput),
      as.deleteError ? h('p', { class: 'error', role: 'alert' }, as.deleteError) : null,
      h('p', { class: 'actions' }, deleteButton)));
  if (focused) document.getElementById(focused)?.focus();
}

// act runs one request with the page busy, keeping the account it answers.
async function act(f, done) {
  as.busy = true;
  as.error = as.status = '';
  render();
  try {
    const account = await f();
    if (account) as.me = account;
    as.status = done;
  } catch (e) {
    as.error = e instanceof DOMException ? passkeyError(e) : t('auth.failed', { msg: authError(e) });
  }
  as.busy = false;
  render();
}

function add() {
  act(addPasskey, t('auth.passkey.added.ok'));
}

function removePasskey(id) {
  act(async () => (await api.passkeyDelete(id)).account, t('auth.passkey.removed'));
}

async function signout(call) {
  as.busy = true;
  render();
  try {
    await call();
    location.assign('/');
  } catch (e) {
    as.busy = false;
    as.error = t('auth.failed', { msg: authError(e) });
    render();
  }
}

async function deleteAccount() {
  as.busy = true;
  as.deleteError = '';
  render();
  try {
    await api.deleteAccount(confirmInput.value.trim());
    location.assign('/');
  } catch (e) {
    as.busy = false;
    as.deleteError = t('auth.failed', { msg: authError(e) });
    render();
  }
}

onLangChange(render);
whoami().then((me) => {
  if (!me) {
    location.replace('/signin?next=/account');
    return;
  }
  as.me = me;
  render();
});
