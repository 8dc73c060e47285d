// End to end against the real server binary (issues #35 and #36): in Chinese, a two-character Chinese name
// registers and its profile opens by its encoded link; a staff name's look-alike (`adm1n`) is refused with the
// reserved-name message in Chinese, a name too short for the rules gets the page's words (not the browser's
// English bubble), and each sending clears the answer to the last. Screenshots go to
// target/screenshots/usernames-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserAndServer, shot, watchedPage } from './harness.js';

let browser;
let server;
const setup = browserAndServer({}, (b, s) => {
  browser = b;
  server = s;
});

const PASSWORD = 'correct horse battery';

/** A page in Chinese of a fresh browser context, on the registration form. */
async function registrationInChinese(t, viewport = { width: 1280, height: 860 }) {
  const context = await browser.newContext({ viewport, colorScheme: 'light' });
  await context.addInitScript(() => localStorage.setItem('gomoku.lang', 'zh'));
  const { page } = await watchedPage(t, context);
  await page.goto(`${server.url}/#/register`);
  await page.waitForSelector('#auth-form');
  return page;
}

/** Fills the form and sends it; resolves once the error line has changed from `before` (or the page left). */
async function send(page, name, before = '') {
  await page.fill('#username', name);
  await page.fill('#password', PASSWORD);
  await page.click('#auth-submit');
  await page.waitForFunction(
    (old) => !document.querySelector('#auth-error') || document.querySelector('#auth-error').textContent !== old,
    before,
  );
}

test('a two-character Chinese name registers and its profile opens by its link', async (t) => {
  if (!(await setup(t))) return;
  const page = await registrationInChinese(t);

  await send(page, '李雷');
  await page.waitForFunction(() => window.__app?.you?.name === '李雷' && !window.__app.you.guest, null, { timeout: 15_000 });
  await page.goto(`${server.url}/#/player/${encodeURIComponent('李雷')}`);
  await page.waitForSelector('.card-head h1');

  assert.equal(await page.textContent('.card-head h1'), '李雷');
  await shot(page, 'usernames-profile-zh');
});

test('a reserved name gets its own message in Chinese and every sending clears the last answer', async (t) => {
  if (!(await setup(t))) return;
  const page = await registrationInChinese(t, { width: 390, height: 844 });

  await send(page, 'adm1n');
  const reserved = await page.textContent('#auth-error');
  await shot(page, 'usernames-reserved-zh');
  await send(page, '李', reserved);
  const tooShort = await page.textContent('#auth-error');
  await send(page, '韩梅梅', tooShort);

  assert.equal(reserved, '该用户名是保留名：它看起来像游客、电脑、管理人员或系统的名字。请换一个。');
  assert.equal(tooShort, '用户名为 3–20 个同一种文字的字或字母、数字、_ 或 -（中文、日文或韩文 2 个字即可），不能有空格。');
  await page.waitForFunction(() => window.__app?.you?.name === '韩梅梅' && !window.__app.you.guest, null, { timeout: 15_000 });
  assert.equal(await page.$('#auth-error'), null, 'the form is gone, and its errors with it');
});
