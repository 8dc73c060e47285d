// Sign in and registration. Success sets the session cookie; the socket then reconnects so the server
// knows us by our account instead of the guest token.

import { h, mount } from '../dom.js';
import { t, errorText } from '../i18n.js';
import { href } from '../router.js';
import { accounts } from '../api.js';
import { checkNewPassword } from '../password.js';

/** Chinese, Japanese or Korean characters that stand for a syllable or more (as `is_cjk` in username.rs). */
const CJK = /^[\u3040-\u30FF\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7A3\uF900-\uFAFF\u{20000}-\u{3134F}]+$/u;
/** Letters, decimal digits and combining marks by general category, `_` and `-`. */
const NAME_CHARS = /^[\p{L}\p{Nd}\p{M}_-]+$/u;

/**
 * Client-side checks mirroring the server's rules (issues 4 and #36: server/src/accounts/username.rs), so obvious
 * mistakes are caught before a round trip and told in the page's language, never by the browser's own bubble.
 * Lengths count characters (code points after NFC), not bytes or UTF-16 units: 3–20, or 2 for a name made only of
 * Chinese, Japanese or Korean characters. Scripts, look-alikes and reserved names are the server's to judge.
 */
export function validate(mode, username, password) {
  const name = username.normalize('NFC');
  const length = [...name].length;
  const min = CJK.test(name) ? 2 : 3;
  if (length < min || length > 20 || !NAME_CHARS.test(name)) return 'invalid_username';
  if (mode === 'register' && [...password].length < 8) return 'weak_password';
  if (!password) return 'invalid_credentials';
  return null;
}

/** Mounts the login/register page (or the password reset form, `mode` `reset`); returns its cleanup. */
export function render(view, params, app) {
  const mode = params.mode;
  if (mode === 'reset') return renderReset(view, app);
  const err = h('p', { class: 'form-error', role: 'alert', id: 'auth-error' });
  // No minlength/maxlength: the browser would count UTF-16 units and answer in its own language, not the page's;
  // validate() says what is wrong instead (the form is novalidate).
  const user = h('input', { name: 'username', id: 'username', autocomplete: 'username', required: true, 'aria-describedby': 'auth-error' });
  const pass = h('input', { name: 'password', id: 'password', type: 'password', autocomplete: mode === 'register' ? 'new-password' : 'current-password', required: true });
  const submit = h('button', { class: 'btn primary big', type: 'submit', id: 'auth-submit' }, mode === 'register' ? t('auth.register') : t('auth.login'));
  const form = h('form', { class: 'card auth', id: 'auth-form', novalidate: true },
    h('h1', {}, mode === 'register' ? t('auth.register') : t('auth.login')),
    h('label', { class: 'field' }, h('span', { class: 'flabel' }, t('auth.username')), user, mode === 'register' ? h('small', { class: 'muted' }, t('auth.username_hint')) : null),
    h('label', { class: 'field' }, h('span', { class: 'flabel' }, t('auth.password')), pass, mode === 'register' ? h('small', { class: 'muted' }, t('auth.password_hint')) : null),
    err, submit,
    h('p', {}, h('a', { href: href(mode === 'register' ? 'login' : 'register') }, mode === 'register' ? t('auth.have_account') : t('auth.need_account'))),
    mode === 'login' ? h('p', {}, h('a', { href: href('reset'), id: 'auth-forgot' }, t('auth.forgot'))) : null,
    h('p', { class: 'muted small' }, t('auth.guest_note')));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    // Each sending starts clean: an answer to an earlier attempt never stays under the form.
    err.textContent = '';
    const bad = validate(mode, user.value.trim(), pass.value);
    if (bad) {
      err.textContent = errorText(bad);
      return;
    }
    submit.disabled = true;
    try {
      const name = user.value.trim().normalize('NFC');
      const res = mode === 'register' ? await accounts.register(name, pass.value) : await accounts.login(name, pass.value);
      // The session rides in the HttpOnly cookie; the body names the user and never carries the token.
      if (mode === 'register' && !res?.user) {
        // Some servers register without a session: sign in right away.
        await accounts.login(name, pass.value).catch(() => {});
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

/**
 * The reset form: name, the operator's one-time code and a new password. On success every session of the account
 * has ended; the page signs in with the new password.
 */
function renderReset(view, app) {
  const err = h('p', { class: 'form-error', role: 'alert', id: 'auth-error' });
  const user = h('input', { name: 'username', id: 'username', autocomplete: 'username', required: true, minlength: 3, maxlength: 20 });
  const code = h('input', { name: 'code', id: 'reset-code', autocomplete: 'one-time-code', required: true, spellcheck: 'false' });
  const pass = h('input', { name: 'new_password', id: 'password', type: 'password', autocomplete: 'new-password', required: true, minlength: 8 });
  const submit = h('button', { class: 'btn primary big', type: 'submit', id: 'auth-submit' }, t('auth.reset'));
  const form = h('form', { class: 'card auth', id: 'reset-form' },
    h('h1', {}, t('auth.reset')),
    h('p', { class: 'muted small' }, t('auth.reset_note')),
    h('label', { class: 'field' }, h('span', { class: 'flabel' }, t('auth.username')), user),
    h('label', { class: 'field' }, h('span', { class: 'flabel' }, t('auth.code')), code),
    h('label', { class: 'field' }, h('span', { class: 'flabel' }, t('auth.new_password')), pass, h('small', { class: 'muted' }, t('auth.password_hint'))),
    err, submit,
    h('p', {}, h('a', { href: href('login') }, t('auth.have_account'))));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    err.textContent = '';
    const bad = validate('login', user.value.trim(), pass.value) ?? checkNewPassword(pass.value);
    if (bad) {
      err.textContent = errorText(bad);
      return;
    }
    submit.disabled = true;
    try {
      await accounts.resetPassword(user.value.trim(), code.value.trim(), pass.value);
      await accounts.login(user.value.trim(), pass.value).catch(() => {});
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
