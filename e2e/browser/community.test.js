// End to end against the real server binary (issue #38): a player reports another's chat line from the room; a
// moderator (made with `server admin grant NAME --role moderator`) finds the report with the line attached in the
// console, mutes the player for 30 minutes, and the audit log shows it; the muted player's next chat line is
// refused with a clear message; the moderator then removes the line for everyone and it leaves the other players'
// open room views live. Screenshots of the console (desktop and phone, English and Chinese) and of a room after
// the removal (desktop light, phone dark, English and Chinese) go to target/screenshots/community-*.png.

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

/** The database the server printed it uses ("Database: …"). */
function databaseOf(log) {
  const m = /Database: SQLite file (.+)/.exec(log);
  assert.ok(m, `the server names its database:\n${log}`);
  return m[1].trim();
}

test('a reported chat line leads to a mute from the console, kept in the audit log', async (t) => {
  if (!(await setup(t))) return;
  const bob = await newPerson(t, browser, server.url, 'bob', { register: true });
  const ann = await newPerson(t, browser, server.url, 'ann', { register: true });
  const mona = await newPerson(t, browser, server.url, 'mona', { register: true });
  const granted = spawnSync(buildServer(), ['--database-url', databaseOf(server.log()), 'admin', 'grant', mona.name, '--role', 'moderator'], { encoding: 'utf8' });
  assert.equal(granted.status, 0, granted.stderr);

  // Bob opens a room and says something rude; Ann watches it.
  const reply = await bob.page.evaluate(() => window.__app.conn.request({ t: 'create_room', rules: { rule_set: 'freestyle' }, public: true }));
  const room = reply.room.id;
  await bob.page.goto(`${server.url}/#/room/${room}`);
  await ann.page.goto(`${server.url}/#/room/${room}`);
  await bob.page.waitForSelector('.chatform input[name=chat]');
  await bob.page.fill('.chatform input[name=chat]', 'you are a terrible player');
  await bob.page.press('.chatform input[name=chat]', 'Enter');

  // Ann reports the line from the room.
  await ann.page.waitForSelector('#chat-log .msg:has-text("terrible") .chat-report');
  await ann.page.click('#chat-log .msg:has-text("terrible") .chat-report');
  await ann.page.selectOption('#report-reason', 'chat_abuse');
  await ann.page.fill('#report-details', 'insults in chat');
  await ann.page.click('#report-send');
  await ann.page.waitForSelector('.toast:has-text("Report sent")');

  // Mona finds it in the console, with the line, and mutes Bob for 30 minutes.
  await mona.page.goto(`${server.url}/#/mod`);
  const report = mona.page.locator('.mod-report').first();
  await report.locator('.mod-evidence .mod-line:has-text("terrible player")').waitFor();
  await report.locator('select.mod-action').selectOption('mute');
  await report.locator('input.mod-minutes').fill('30');
  await report.locator('input.mod-reason').fill('insults');
  await report.locator('button[type=submit]').click();
  const logged = mona.page.locator('#mod-log tr[data-action="mute"]');
  await logged.waitFor();
  const row = await logged.innerText();
  assert.match(row, new RegExp(mona.name));
  assert.match(row, new RegExp(bob.name));
  assert.match(row, /insults/);
  assert.match(row, /30 minutes/);

  // The console at desktop and phone widths, in English and Chinese.
  await mona.page.click('.mod-console nav a:has-text("All")');
  await mona.page.locator('.mod-report .report-status.resolved').first().waitFor();
  await shot(mona.page, 'community-console-desktop-en');
  await mona.page.setViewportSize({ width: 390, height: 844 });
  await shot(mona.page, 'community-console-phone-en');
  await mona.page.click('#lang');
  await mona.page.waitForSelector('h1:has-text("管理控制台")');
  await mona.page.locator('#mod-log tr[data-action="mute"]').waitFor();
  await shot(mona.page, 'community-console-phone-zh');
  await mona.page.setViewportSize({ width: 1280, height: 860 });
  await shot(mona.page, 'community-console-desktop-zh');

  // Mona removes the line for everyone from the report's evidence: it leaves Ann's and Bob's open room views at
  // once, with no reload, and the audit log keeps the removal.
  assert.equal(await ann.page.locator('#chat-log .msg:has-text("terrible")').count(), 1);
  await ann.page.fill('.chatform input[name=chat]', 'please stay polite');
  await ann.page.press('.chatform input[name=chat]', 'Enter');
  await bob.page.waitForSelector('#chat-log .msg:has-text("stay polite")');
  // (The language switch remounted the console on its first tab; the resolved report is under "all".)
  await mona.page.click('.mod-console nav a:last-child');
  mona.page.once('dialog', (d) => d.accept('insults'));
  await mona.page.locator('.mod-report .mod-evidence .mod-remove').first().click();
  await mona.page.locator('#mod-log tr[data-action="remove_chat"]').waitFor();
  assert.match(await mona.page.locator('#mod-log tr[data-action="remove_chat"]').innerText(), /terrible player/);
  await ann.page.waitForSelector('#chat-log .msg:has-text("terrible")', { state: 'detached' });
  await bob.page.waitForSelector('#chat-log .msg:has-text("terrible")', { state: 'detached' });
  await shot(ann.page, 'community-line-removed-desktop-en');
  await ann.page.emulateMedia({ colorScheme: 'dark' });
  await ann.page.setViewportSize({ width: 390, height: 844 });
  await ann.page.locator('#chat-log').scrollIntoViewIfNeeded();
  await shot(ann.page, 'community-line-removed-phone-en-dark');
  await ann.page.click('#lang');
  await ann.page.waitForSelector('html[lang="zh-CN"]');
  await ann.page.locator('#chat-log').scrollIntoViewIfNeeded();
  await shot(ann.page, 'community-line-removed-phone-zh-dark');
  // A reload shows the room as the server keeps it: the line is gone there too.
  await ann.page.reload();
  await ann.page.waitForSelector('#chat-log .msg:has-text("stay polite")');
  assert.equal(await ann.page.locator('#chat-log .msg:has-text("terrible")').count(), 0);

  // Bob's next line is refused, and he is told why.
  await bob.page.fill('.chatform input[name=chat]', 'sorry');
  await bob.page.press('.chatform input[name=chat]', 'Enter');
  const toast = bob.page.locator('.toast.error');
  await toast.waitFor();
  assert.match(await toast.innerText(), /muted you/);
  assert.equal(await bob.page.locator('#chat-log .msg:has-text("sorry")').count(), 0);
  assert.deepEqual([...bob.errors, ...ann.errors, ...mona.errors], []);
});

test('a followed player starting a public game is announced with a link to watch, and listed among friends online', async (t) => {
  if (!(await setup(t))) return;
  const ann = await newPerson(t, browser, server.url, 'ann', { register: true });
  const bob = await newPerson(t, browser, server.url, 'bob', { register: true });
  const cat = await newPerson(t, browser, server.url, 'cat', { register: true });
  // Ann follows Bob (as the profile's button does) and waits in the lobby.
  const followed = await ann.page.evaluate((name) => fetch(`/api/me/follows/${name}`, { method: 'PUT' }).then((r) => r.status), bob.name);
  assert.equal(followed, 204);
  await ann.page.goto(`${server.url}/#/`);
  await ann.page.locator('#friends-online').waitFor();

  // Bob opens a public room and Cat takes the other seat: the game starts.
  const reply = await bob.page.evaluate(() => window.__app.conn.request({ t: 'create_room', rules: { rule_set: 'freestyle' }, public: true }));
  const room = reply.room.id;
  await cat.page.goto(`${server.url}/#/room/${room}`);

  const notice = ann.page.locator('.toast .friend-notice');
  await notice.waitFor();
  assert.match(await notice.innerText(), new RegExp(`${bob.name} started a game against ${cat.name}`));
  assert.equal(await notice.locator("a").getAttribute("href"), `#/room/${room}/watch`);
  const watch = ann.page.locator(`#friends-online li[data-friend="${bob.name}"] .friend-watch`);
  await watch.waitFor();
  await ann.page.locator('#friends-online').scrollIntoViewIfNeeded();
  await shot(ann.page, 'community-friends-lobby-desktop-en');
  await ann.page.emulateMedia({ colorScheme: 'dark' });
  await ann.page.setViewportSize({ width: 390, height: 844 });
  await ann.page.click('#lang');
  await ann.page.waitForSelector('html[lang="zh-CN"]');
  await ann.page.locator('#friends-online').scrollIntoViewIfNeeded();
  await shot(ann.page, 'community-friends-lobby-phone-zh-dark');

  // One click to watch.
  await ann.page.locator(`#friends-online li[data-friend="${bob.name}"] .friend-watch`).click();
  await ann.page.waitForFunction((id) => location.hash.startsWith(`#/room/${id}`), room);
  await ann.page.locator('.board-wrap svg').first().waitFor();
  assert.deepEqual([...ann.errors, ...bob.errors, ...cat.errors], []);
});
