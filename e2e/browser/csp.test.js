// The web client under the server's own Content-Security-Policy: the real server binary sends the policy, and
// a page that walks the lobby, the leaderboard, a new room's board (hovering it) and the sign-in form must not
// cause a single violation — no inline script, style or handler slipped in, no socket or fetch to elsewhere.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { browserOrSkip, launch, buildServer, startServer } from './harness.js';

let browser;
let server;

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('the web client runs under the content security policy without a violation', async (t) => {
  const chromium = await browserOrSkip(t);
  if (!chromium) return;
  const bin = buildServer();
  assert.ok(bin, 'cargo build -p server failed');
  server = await startServer(bin);

  const index = await fetch(`${server.url}/`);
  const csp = index.headers.get('content-security-policy') || '';
  assert.match(csp, /script-src 'self'/, `the page is served with a CSP: "${csp}"`);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  assert.equal(index.headers.get('x-content-type-options'), 'nosniff');

  browser = await launch(chromium);
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  t.after(() => context.close());
  const page = await context.newPage();
  const violations = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => violations.push(`page error: ${e}`));
  // Reported by the document itself; scripts added this way run outside the page's policy.
  await context.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
  });

  await page.goto(`${server.url}/#/`);
  await page.waitForFunction(() => window.__app?.you?.name, null, { timeout: 15_000 });
  await page.goto(`${server.url}/#/leaderboard`);
  await page.waitForLoadState('networkidle');
  await page.goto(`${server.url}/#/`);
  await page.click('#new-game');
  await page.click('#create-submit');
  await page.waitForURL(/#\/room\/[^/]+$/);
  await page.waitForSelector('#room[data-state="waiting"] .board-wrap svg');
  const board = await page.locator('.board-wrap svg').first().boundingBox();
  await page.mouse.move(board.x + board.width / 2, board.y + board.height / 2);
  await page.goto(`${server.url}/#/login`);
  await page.waitForLoadState('networkidle');

  const reported = await page.evaluate(() => window.__csp);
  assert.deepEqual([...violations, ...reported], [], 'no CSP violations');
  // The policy was in force: an inline script the page tries to run is refused and reported.
  await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__inline = true';
    document.body.append(s);
  });
  await page.waitForFunction(() => window.__csp.length > 0, null, { timeout: 5_000 });
  assert.equal(await page.evaluate(() => window.__inline), undefined, 'inline scripts do not run');
});
