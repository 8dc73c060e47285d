// End to end against the real server binary (issue #34): two registered players play a match of two Othello games
// proposed by a challenge; the room starts the second game by itself with the colours exchanged, the room links
// to its match, and the match page shows both games, the score and the result, in English and Chinese, at
// desktop and phone widths. Screenshots go to target/screenshots/match-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserAndServer, newPerson, shot } from './harness.js';

let browser;
let server;
const setup = browserAndServer({}, (b, s) => {
  browser = b;
  server = s;
});

test('a two-game match is played in one room and its page shows the score and the result', async (t) => {
  if (!(await setup(t))) return;
  const alice = await newPerson(t, browser, server.url, 'alice', { register: true });
  const bob = await newPerson(t, browser, server.url, 'bob', { register: true });
  const paired = (p) => p.page.evaluate(() => new Promise((ok) => { const off = window.__app.conn.on('paired', (m) => { off(); ok(m.room); }); }));
  const roomA = paired(alice);
  const challenge = await alice.page.evaluate((to) => window.__app.conn.request({
    t: 'challenge', to, game: { game: 'othello', scoring: 'japanese' }, time_control: { kind: 'none' }, rated: false, colour: 'black', games: 2,
  }), bob.name);
  assert.equal(challenge.challenge.games, 2);
  await bob.page.evaluate((id) => window.__app.conn.request({ t: 'answer_challenge', id, accept: true }), challenge.challenge.id);
  const room = await roomA;

  // Game 1: alice (black) plays f5 and bob resigns. Game 2 starts by itself with bob at black: he plays f5 and
  // alice resigns.
  const next = alice.page.evaluate((r) => new Promise((ok) => {
    const off = window.__app.conn.on('event', (m) => { if (m.room === r && m.event.kind === 'game_started') { off(); ok(m.event.black.name); } });
  }), room);
  await alice.page.evaluate((r) => window.__app.conn.request({ t: 'act', room: r, action: 'f5', at: 0 }), room);
  await bob.page.evaluate((r) => window.__app.conn.request({ t: 'resign', room: r }), room);
  assert.equal(await next, bob.name, 'colours alternate');
  await bob.page.evaluate((r) => window.__app.conn.request({ t: 'act', room: r, action: 'f5', at: 0 }), room);
  await alice.page.evaluate((r) => window.__app.conn.request({ t: 'resign', room: r }), room);

  // The room names its match; the match page says 1–1, drawn.
  await alice.page.goto(`${server.url}/#/room/${room}`);
  await alice.page.waitForSelector('#room-match');
  await alice.page.click('#room-match');
  await alice.page.waitForFunction(() => document.querySelector('#match')?.dataset.result === 'draw');
  assert.equal(await alice.page.textContent('#match-points'), '1 – 1');
  assert.equal(await alice.page.textContent('#match-result'), 'The match is drawn.');
  assert.equal(await alice.page.locator('.match-games tbody tr').count(), 2);
  await shot(alice.page, 'match-desktop-en-light');
  await alice.page.setViewportSize({ width: 390, height: 844 });
  await alice.page.emulateMedia({ colorScheme: 'dark' });
  await alice.page.evaluate(async () => (await import('/js/i18n.js')).setLang('zh'));
  await alice.page.waitForFunction(() => document.querySelector('#match-result')?.textContent === '比赛打平。');
  const overflow = await alice.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `the page fits a phone (${overflow} px too wide)`);
  await shot(alice.page, 'match-phone-zh-dark');
  assert.deepEqual([...alice.errors, ...bob.errors], []);
});
