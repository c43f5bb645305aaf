// Accounts in the browser: who is signed in, the header's account link,
// and the passkey ceremonies (WebAuthn through navigator.credentials; the
// server sends and takes binary fields as unpadded base64url).

import { h } from '/static/dom.js';
import { t, has, onLangChange, currentLang } from '/static/i18n.js';
import { api, saveName } from '/static/api.js';

let mePromise = null;

// whoami resolves to the signed-in account ({id, name, passkeys, …}) or
// null for a guest; asked once per page.
export function whoami() {
  mePromise ??= api.account().then((r) => r.account || null, () => null);
  return mePromise;
}

// signedIn notes a new sign-in: the name typed at tables is the account's.
export function signedIn(account) {
  mePromise = Promise.resolve(account);
  if (account) saveName(account.name);
  return account;
}

// accountLink is the header's link: "Sign in", or the username leading to
// the account page.
export function accountLink() {
  const a = h('a', { class: 'account-link', href: '/signin', 'data-testid': 'account-link' });
  let me = null;
  const draw = () => {
    if (me) {
      a.href = '/account';
      a.textContent = me.name;
      a.title = t('auth.link.account');
      a.setAttribute('aria-label', t('auth.link.named', { name: me.name }));
      a.classList.add('signed-in');
    } else {
      a.href = '/signin?next=' + encodeURIComponent(location.pathname);
      a.textContent = t('auth.link.signin');
      a.removeAttribute('title');
      a.removeAttribute('aria-label');
      a.classList.remove('signed-in');
    }
  };
  draw();
  onLangChange(draw);
  whoami().then((acct) => { me = acct; draw(); });
  return a;
}

// nextPage is where to go after signing in: the ?next= path of this site,
// else the lobby.
export function nextPage() {
  const n = new URLSearchParams(location.search).get('next') || '';
  return /^\/(?![/\\])/.test(n) ? n : '/';
}

// ---- passkeys

export function passkeysAvailable() {
  return Boolean(window.PublicKeyCredential && navigator.credentials && window.isSecureContext);
}

function toBuf(s) {
  let b = s.replace(/-/g, '+').replace(/_/g, '/');
  while (b.length % 4) b += '=';
  const bin = atob(b);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out.buffer;
}

function fromBuf(buf) {
  let bin = '';
  for (const b of new Uint8Array(buf)) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const withIDs = (list) => (list || []).map((c) => ({ ...c, id: toBuf(c.id) }));

function creationOptions(pk) {
  return { ...pk, challenge: toBuf(pk.challenge), user: { ...pk.user, id: toBuf(pk.user.id) }, excludeCredentials: withIDs(pk.excludeCredentials) };
}

function requestOptions(pk) {
  return { ...pk, challenge: toBuf(pk.challenge), allowCredentials: withIDs(pk.allowCredentials) };
}

// credentialJSON is a new or asserted credential as the server reads it.
function credentialJSON(cred) {
  const r = cred.response;
  const response = { clientDataJSON: fromBuf(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = fromBuf(r.attestationObject);
    if (r.getTransports) response.transports = r.getTransports();
  } else {
    response.authenticatorData = fromBuf(r.authenticatorData);
    response.signature = fromBuf(r.signature);
    if (r.userHandle) response.userHandle = fromBuf(r.userHandle);
  }
  return {
    id: cred.id, rawId: fromBuf(cred.rawId), type: cred.type, response,
    authenticatorAttachment: cred.authenticatorAttachment || undefined,
    clientExtensionResults: cred.getClientExtensionResults ? cred.getClientExtensionResults() : {},
  };
}

async function create(begun) {
  const cred = await navigator.credentials.create({ publicKey: creationOptions(begun.options.publicKey) });
  return credentialJSON(cred);
}

// addPasskey registers a passkey for the signed-in account; resolves to
// the account.
export async function addPasskey() {
  const begun = await api.passkeyBegin();
  return (await api.passkeyFinish(begun.ceremony, await create(begun))).account;
}

// passkeySignin signs in with a passkey the authenticator offers.
export async function passkeySignin() {
  const begun = await api.passkeySigninBegin();
  const cred = await navigator.credentials.get({ publicKey: requestOptions(begun.options.publicKey) });
  return signedIn((await api.passkeySigninFinish(begun.ceremony, credentialJSON(cred))).account);
}

// passkeySignup makes an account with a passkey and no password.
export async function passkeySignup(name) {
  const begun = await api.passkeySignupBegin(name);
  return signedIn((await api.passkeySignupFinish(begun.ceremony, await create(begun))).account);
}

// passkeyError says what went wrong with a passkey: the browser's
// refusals (cancelled, timed out, an existing passkey) in the page's
// words, the server's in its own.
export function passkeyError(e) {
  switch (e && e.name) {
    case 'NotAllowedError': case 'AbortError': return t('auth.passkey.cancelled');
    case 'InvalidStateError': return t('auth.passkey.exists');
    case 'SecurityError': case 'NotSupportedError': return t('auth.passkey.unsupported');
  }
  return (e && e.message) || String(e);
}

// authError says why the server refused: in English its own sentence, in
// French ours for its code when we have one.
export function authError(e) {
  const key = 'auth.err.' + (e && e.code);
  if (currentLang() === 'en' || !has(key)) return (e && e.message) || String(e);
  return t(key, { n: Math.max(1, Math.ceil((e.retryAfter || 60) / 60)) });
}

// formatDate is a date in the page's language ("3 May 2026").
export function formatDate(iso, lang) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleDateString(lang, { day: 'numeric', month: 'long', year: 'numeric' });
}
