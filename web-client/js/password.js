// The password forms of issue #35: "Change password" on one's own profile (old and new password; the server
// ends the account's other sessions and keeps this one) and the reset form's client-side check.

import { h } from './dom.js';
import { t, errorText } from './i18n.js';
import { accounts } from './api.js';

/** Client-side checks mirroring the server's rules for a new password; the server has the last word. */
export function checkNewPassword(password) {
  if (password.length < 8) return 'weak_password';
  return null;
}

/** The "Change password" form of one's own profile. */
export function changePasswordForm() {
  const status = h('p', { class: 'form-error', role: 'alert', id: 'password-status' });
  const old = h('input', { name: 'old_password', id: 'old-password', type: 'password', autocomplete: 'current-password', required: true });
  const next = h('input', { name: 'new_password', id: 'new-password', type: 'password', autocomplete: 'new-password', required: true, minlength: 8 });
  const submit = h('button', { class: 'btn', type: 'submit', id: 'password-submit' }, t('auth.change_password'));
  const form = h('form', { class: 'password-change', id: 'password-change' },
    h('h2', {}, t('auth.change_password')),
    h('label', { class: 'field' }, h('span', { class: 'flabel' }, t('auth.old_password')), old),
    h('label', { class: 'field' }, h('span', { class: 'flabel' }, t('auth.new_password')), next, h('small', { class: 'muted' }, t('auth.password_hint'))),
    status, submit);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    status.textContent = '';
    status.className = 'form-error';
    const bad = checkNewPassword(next.value);
    if (bad) {
      status.textContent = errorText(bad);
      return;
    }
    submit.disabled = true;
    try {
      await accounts.changePassword(old.value, next.value);
      old.value = '';
      next.value = '';
      status.className = 'form-ok';
      status.textContent = t('auth.password_changed');
    } catch (ex) {
      status.textContent = ex.code === 'unavailable' ? t('err.unavailable') : errorText(ex.code, ex.message);
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}
