// The settings menu of the top bar (a gear): the person's preferences from
// /static/prefs.js — confirm moves, the pace of the others' moves, a sound
// and a browser notification when it becomes your turn unseen. The theme
// follows the system (prefers-color-scheme); nothing to choose here.

import { h, replace } from '/static/dom.js';
import { t, onLangChange } from '/static/i18n.js';
import { pref, setPref, onPrefChange } from '/static/prefs.js';

let seq = 0;

// settingsMenu builds the gear button and its panel. onTry is called with a
// preference name when the person switches a signal on (to let them hear
// the sound once).
export function settingsMenu({ onTry } = {}) {
  const n = ++seq;
  const panelId = `settings-${n}`;
  const wrap = h('div', { class: 'settings' });
  const button = h('button', {
    type: 'button', class: 'icon-btn gear', 'aria-haspopup': 'true', 'aria-expanded': 'false',
    'aria-controls': panelId, 'data-testid': 'settings',
  });
  const panel = h('div', { class: 'settings-panel card', id: panelId, role: 'group', hidden: true });
  const note = h('p', { class: 'small muted', 'aria-live': 'polite' });

  function open(on) {
    panel.hidden = !on;
    button.setAttribute('aria-expanded', String(on));
    if (on) panel.querySelector('input, select')?.focus();
  }
  button.addEventListener('click', () => open(panel.hidden));
  wrap.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !panel.hidden) { e.preventDefault(); open(false); button.focus(); }
  });
  document.addEventListener('pointerdown', (e) => { if (!panel.hidden && !wrap.contains(e.target)) open(false); });

  const check = (name, label, hint) => {
    const id = `${panelId}-${name}`;
    return h('div', { class: 'field check' },
      h('input', {
        type: 'checkbox', id, checked: pref(name), 'data-pref': name,
        onchange: (e) => change(name, e.target.checked, e.target),
      }),
      h('label', { for: id }, label, hint ? h('span', { class: 'small muted block' }, hint) : null));
  };

  async function change(name, value, input) {
    note.textContent = '';
    if (name === 'notify' && value) {
      let ok = false;
      if ('Notification' in window) {
        try { ok = Notification.permission === 'granted' || (await Notification.requestPermission()) === 'granted'; } catch { ok = false; }
      }
      if (!ok) {
        input.checked = false;
        note.textContent = t('settings.notify.denied');
        return;
      }
    }
    setPref(name, value);
    if (value && onTry) onTry(name);
  }

  function speedSelect(id) {
    const sel = h('select', { id, 'data-pref': 'botSpeed', onchange: (e) => setPref('botSpeed', e.target.value) },
      ['slow', 'normal', 'fast'].map((v) => h('option', { value: v }, t('settings.speed.' + v))));
    sel.value = pref('botSpeed');
    return sel;
  }

  function draw() {
    button.setAttribute('aria-label', t('settings.title'));
    button.title = t('settings.title');
    replace(button, h('span', { 'aria-hidden': 'true' }, '⚙'));
    panel.setAttribute('aria-label', t('settings.title'));
    const speedId = `${panelId}-speed`;
    replace(panel,
      h('h2', null, t('settings.title')),
      check('confirm', t('settings.confirm'), t('settings.confirm.hint')),
      h('div', { class: 'field' },
        h('label', { for: speedId }, t('settings.speed')),
        speedSelect(speedId)),
      check('sound', t('settings.sound'), t('settings.sound.hint')),
      check('notify', t('settings.notify'), t('settings.notify.hint')),
      note,
      h('p', { class: 'small muted' }, t('settings.theme')));
  }
  draw();
  onLangChange(draw);
  onPrefChange(() => { if (panel.hidden) draw(); });
  wrap.append(button, panel);
  return wrap;
}
