// The sign-in page: sign in with a password or a passkey, or create an
// account with either; then back to where the person came from (?next=).

import { h, replace, $ } from '/static/dom.js';
import { t, onLangChange, langSwitch } from '/static/i18n.js';
import { api } from '/static/api.js';
import { whoami, signedIn, nextPage, passkeysAvailable, passkeySignin, passkeySignup, passkeyError, authError } from '/static/auth.js';

const ps = {
  me: null,
  busy: '', // 'in', 'up', 'in-passkey', 'up-passkey' while a request runs
  inError: '',
  upError: '',
};

// The fields live for the page's life: a language switch keeps what was typed.
const field = (id, type, autocomplete, extra) => h('input', { id, type, autocomplete, autocapitalize: 'none', spellcheck: 'false', ...extra });
const inName = field('in-name', 'text', 'username webauthn', { maxlength: 24, required: true });
const inPassword = field('in-password', 'password', 'current-password', { maxlength: 256, required: true });
const upName = field('up-name', 'text', 'username', { maxlength: 24, required: true, 'aria-describedby': 'up-name-hint' });
const upPassword = field('up-password', 'password', 'new-password', { minlength: 10, maxlength: 256, required: true, 'aria-describedby': 'up-password-hint' });

const app = $('#app');
const layout = h('div', { class: 'auth-layout' });
replace(app,
  h('header', { class: 'topbar' }, h('a', { href: '/', class: 'brand' }, 'dicehall'), h('span', { class: 'spacer' }), langSwitch()),
  layout);

function labelled(input, key) {
  return h('p', { class: 'field' }, h('label', { for: input.id }, t(key)), input);
}

function errorLine(id, msg) {
  return h('p', { class: 'error', id, role: 'alert' }, msg);
}

function render() {
  document.title = t('auth.signin.title') + ' · dicehall';
  if (ps.me) {
    layout.classList.add('single');
    replace(layout, h('section', { class: 'card' },
      h('h1', null, t('auth.signin.title')),
      h('p', null, t('auth.already', { name: ps.me.name })),
      h('p', { class: 'actions' },
        h('a', { class: 'button primary', href: '/account' }, t('auth.link.account')),
        h('a', { class: 'button', href: nextPage() }, t('auth.to.lobby')))));
    return;
  }
  layout.classList.remove('single');
  const passkeys = passkeysAvailable();
  const busy = Boolean(ps.busy);
  const focused = document.activeElement?.id;
  replace(layout,
    h('p', { class: 'wide muted' }, t('auth.intro'), ' ', t('auth.keep')),
    h('section', { class: 'card', 'aria-labelledby': 'in-h' },
      h('h1', { id: 'in-h' }, t('auth.signin.h')),
      h('form', { id: 'signin-form', novalidate: true, onsubmit: (e) => { e.preventDefault(); signin(); } },
        labelled(inName, 'auth.username'),
        labelled(inPassword, 'auth.password'),
        ps.inError ? errorLine('in-error', ps.inError) : null,
        h('p', { class: 'actions' },
          h('button', { type: 'submit', class: 'primary big', id: 'signin', disabled: busy },
            ps.busy === 'in' ? t('auth.signin.busy') : t('auth.signin.go')))),
      passkeys ? [
        h('p', { class: 'or' }, t('auth.or')),
        h('p', { class: 'actions' },
          h('button', { type: 'button', class: 'big', id: 'signin-passkey', disabled: busy, onclick: signinPasskey },
            ps.busy === 'in-passkey' ? t('auth.passkey.adding') : t('auth.signin.passkey'))),
      ] : null),
    h('section', { class: 'card', 'aria-labelledby': 'up-h' },
      h('h2', { id: 'up-h' }, t('auth.signup.h')),
      h('form', { id: 'signup-form', novalidate: true, onsubmit: (e) => { e.preventDefault(); signup(); } },
        labelled(upName, 'auth.username'),
        h('p', { class: 'muted small', id: 'up-name-hint' }, t('auth.username.hint')),
        labelled(upPassword, 'auth.password'),
        h('p', { class: 'muted small', id: 'up-password-hint' }, t('auth.password.hint')),
        ps.upError ? errorLine('up-error', ps.upError) : null,
        h('p', { class: 'actions' },
          h('button', { type: 'submit', class: 'primary big', id: 'signup', disabled: busy },
            ps.busy === 'up' ? t('auth.signup.busy') : t('auth.signup.go')))),
      passkeys ? [
        h('p', { class: 'or' }, t('auth.or')),
        h('p', { class: 'actions' },
          h('button', { type: 'button', class: 'big', id: 'signup-passkey', disabled: busy, onclick: signupPasskey, 'aria-describedby': 'up-passkey-hint' },
            ps.busy === 'up-passkey' ? t('auth.passkey.adding') : t('auth.signup.passkey'))),
        h('p', { class: 'muted small', id: 'up-passkey-hint' }, t('auth.signup.passkey.hint')),
      ] : null));
  for (const [input, err] of [[inName, ps.inError], [inPassword, ps.inError], [upName, ps.upError], [upPassword, ps.upError]]) {
    if (err) input.setAttribute('aria-invalid', 'true'); else input.removeAttribute('aria-invalid');
  }
  if (focused) document.getElementById(focused)?.focus();
}

// run does one request with the page marked busy; where says which error
// line shows a failure.
async function run(busy, where, f) {
  ps.busy = busy;
  ps.inError = ps.upError = '';
  render();
  try {
    await f();
    location.assign(nextPage());
    return;
  } catch (e) {
    ps[where] = e instanceof DOMException ? passkeyError(e) : authError(e);
  }
  ps.busy = '';
  render();
  $(where === 'inError' ? '#in-error' : '#up-error')?.focus?.();
}

function signin() {
  const name = inName.value.trim();
  if (!name || !inPassword.value) {
    ps.inError = t('auth.missing');
    render();
    (name ? inPassword : inName).focus();
    return;
  }
  run('in', 'inError', async () => signedIn((await api.signin(name, inPassword.value)).account));
}

function signup() {
  const name = upName.value.trim();
  if (!name || !upPassword.value) {
    ps.upError = t('auth.missing');
    render();
    (name ? upPassword : upName).focus();
    return;
  }
  run('up', 'upError', async () => signedIn((await api.signup(name, upPassword.value)).account));
}

function signinPasskey() {
  run('in-passkey', 'inError', passkeySignin);
}

function signupPasskey() {
  const name = upName.value.trim();
  if (!name) {
    ps.upError = t('auth.missing.name');
    render();
    upName.focus();
    return;
  }
  run('up-passkey', 'upError', () => passkeySignup(name));
}

onLangChange(render);
render();
whoami().then((me) => { ps.me = me; render(); });
