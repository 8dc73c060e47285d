// End to end against the real server binary (issue #38 item 5): a fair-play flag, as the server's job files it
// (a report with reason `fair_play` by the reserved account `computer-fairplay`, its evidence the statistic's
// summary and the window's games; written here straight into the server's SQLite file, as the job would after
// enough rated games), shows in the moderators' console with its label, the summary sentence and the games'
// table, in English and Chinese. Screenshots (desktop and phone, English and Chinese, light and dark) go to
// target/screenshots/fairplay-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { browserAndServer, buildServer, newPerson, shot } from './harness.js';

let browser;
let server;
const setup = browserAndServer({}, (b, s) => {
  browser = b;
  server = s;
});

function databaseOf(log) {
  const m = /Database: SQLite file (.+)/.exec(log);
  assert.ok(m, `the server names its database:\n${log}`);
  return m[1].trim();
}

function sql(db, statement) {
  const run = spawnSync('sqlite3', ['-cmd', '.timeout 5000', db, statement], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.trim();
}

test('a fair-play flag shows in the console with its evidence', async (t) => {
  if (!(await setup(t))) return;
  const ann = await newPerson(t, browser, server.url, 'ann', { register: true });
  const mona = await newPerson(t, browser, server.url, 'mona', { register: true });
  const db = databaseOf(server.log());
  const granted = spawnSync(buildServer(), ['--database-url', db, 'admin', 'grant', mona.name, '--role', 'moderator'], { encoding: 'utf8' });
  assert.equal(granted.status, 0, granted.stderr);

  sql(db, "INSERT OR IGNORE INTO users (name, name_key, password_hash, created_at) VALUES ('computer-fairplay', 'computer-fairplay', '!fairplay', 0)");
  const games = [[24, 22, 23, 41.5], [21, 20, 21, 12.0], [26, 24, 25, 30.2]].map(([judged, top1, top3, loss], i) => ({
    kind: 'fair_play_game', game: `demo${i}`, judged, top1, top3, average_loss: loss,
  }));
  const summary = { kind: 'fair_play', pool: 'othello/standard', games: 3, judged: 71, top1: 66, rate: 66 / 71, expected: 0.6, rating: 1540, p_value: 3.2e-8, alpha: 1e-4 };
  const evidence = JSON.stringify([summary, ...games]).replaceAll("'", "''");
  sql(db, `INSERT INTO reports (reporter_id, target_id, reason, details, game, evidence, created_at)
    SELECT f.id, a.id, 'fair_play', '', 'demo0', '${evidence}', ${Date.now()}
    FROM users f, users a WHERE f.name = 'computer-fairplay' AND a.name = '${ann.name}'`);

  await mona.page.goto(`${server.url}/#/mod`);
  const report = mona.page.locator('.mod-report').first();
  await report.locator('.mod-fairplay-summary').waitFor();
  assert.match(await report.locator('.badge').innerText(), /Fair play/);
  assert.match(await report.locator('.mod-fairplay-summary').innerText(), /66 of 71 moves \(93\.0\s%\) over 3 rated games/);
  assert.equal(await report.locator('.mod-fairplay-games tbody tr').count(), 3);
  assert.equal(await report.locator('.mod-remove').count(), 0, 'no chat line to remove');
  await shot(mona.page, 'fairplay-console-desktop-en');
  await mona.page.setViewportSize({ width: 390, height: 844 });
  await report.scrollIntoViewIfNeeded();
  await shot(mona.page, 'fairplay-console-phone-en');
  await mona.page.click('#lang');
  await mona.page.waitForSelector('h1:has-text("管理控制台")');
  await mona.page.locator('.mod-fairplay-summary').waitFor();
  assert.match(await mona.page.locator('.mod-report .badge').first().innerText(), /公平竞技/);
  await shot(mona.page, 'fairplay-console-phone-zh');
  await mona.page.emulateMedia({ colorScheme: 'dark' });
  await mona.page.setViewportSize({ width: 1280, height: 860 });
  await shot(mona.page, 'fairplay-console-desktop-zh-dark');
  assert.deepEqual([...ann.errors, ...mona.errors], []);
});
