// Sign in and registration. Success sets the session cookie; the socket then reconnects so the server
// knows us by our account instead of the guest token.

import { h, mount } from '../dom.js';
import { t, errorText } from '../i18n.js';
import { href } from '../router.js';
import { accounts } from '../api.js';

/** Client-side checks mirroring the server's rules (issue 4), so obvious mistakes are caught before a round trip. */
export function validate(mode, username, password) {
  if (!/^[A-Za-z0-9_-]{3,20}$/.test(username)) return 'invalid_username';
  if (mode === 'register' && password.length < 8) return 'weak_password';
  if (!password) return 'invalid_credentials';
  return null;
}

/** Mounts the login/register page; returns its cleanup. */
export function render(view, params, app) {
  const mode = params.mode;
  const err = h('p', { class: 'form-error', role: 'alert', id: 'auth-error' });
  const user = h('input', { name: 'username', id: 'username', autocomplete: 'username', required: true, minlength: 3, maxlength: 20 });
  const pass = h('input', { name: 'password', id: 'password', type: 'password', autocomplete: mode === 'register' ? 'new-password' : 'current-password', required: true, minlength: mode === 'register' ? 8 : 1 });
  const submit = h('button', { class: 'btn primary big', type: 'submit', id: 'auth-submit' }, mode === 'register' ? t('auth.register') : t('auth.login'));
  const form = h('form', { class: 'card auth', id: 'auth-form' },
    h('h1', {}, mode === 'register' ? t('auth.register') : t('auth.login')),
    h('label', { class: 'field' }, h('span', { class: 'flabel' }, t('auth.username')), user, mode === 'register' ? h('small', { class: 'muted' }, t('auth.username_hint')) : null),
    h('label', { class: 'field' }, h('span', { class: 'flabel' }, t('auth.password')), pass, mode === 'register' ? h('small', { class: 'muted' }, t('auth.password_hint')) : null),
    err, submit,
    h('p', {}, h('a', { href: href(mode === 'register' ? 'login' : 'register') }, mode === 'register' ? t('auth.have_account') : t('auth.need_account'))),
    h('p', { class: 'muted small' }, t('auth.guest_note')));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    err.textContent = '';
    const bad = validate(mode, user.value.trim(), pass.value);
    if (bad) {
      err.textContent = errorText(bad);
      return;
    }
    submit.disabled = true;
    try {
      const res = mode === 'register' ? await accounts.register(user.value.trim(), pass.value) : await accounts.login(user.value.trim(), pass.value);
      // The session rides in the HttpOnly cookie; the body names the user and never carries the token.
      if (mode === 'register' && !res?.user) {
        // Some servers register without a session: sign in right away.
        await accounts.login(user.value.trim(), pass.value).catch(() => {});
      }
      app.conn.forgetToken();
      app.conn.drop();
      app.navigate('#/');
    } catch (ex) {
      err.textContent = ex.code === 'unavailable' ? t('err.unavailable') : errorText(ex.code, ex.message);
    } finally {
      submit.disabled = false;
    }
  });
  mount(view, form);
  user.focus();
  return () => {};
}
