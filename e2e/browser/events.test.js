// End to end against the real server binary (issue #34): three registered players in a one-minute arena made from
// the events page. Pairs are played out through each player's own connection (the loser resigns; alice wins every
// game she plays); the event page's standings update while it runs, and when the minute is over it shows the
// podium, in English and Chinese, at desktop and phone widths. Screenshots go to target/screenshots/events-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserAndServer, newPerson, shot } from './harness.js';

let browser;
let server;
const setup = browserAndServer({}, (b, s) => {
  browser = b;
  server = s;
});

const eventJson = (page, id) => page.evaluate((i) => fetch(`/api/events/${i}`).then((r) => r.json()), id);

test('three players in an arena: standings update as games end, and a podium when it is over', async (t) => {
  if (!(await setup(t))) return;
  const alice = await newPerson(t, browser, server.url, 'alice', { register: true });
  const bob = await newPerson(t, browser, server.url, 'bob', { register: true });
  const cat = await newPerson(t, browser, server.url, 'cat', { register: true });
  const people = [alice, bob, cat];
  const byName = (n) => people.find((p) => p.name === n);

  // Alice makes a one-minute arena from the events page.
  await alice.page.goto(`${server.url}/#/events`);
  await alice.page.waitForSelector('#event-form');
  await alice.page.fill('#event-form input[name=name]', 'Minute arena');
  await alice.page.selectOption('#event-form select[name=kind]', 'arena');
  await alice.page.fill('#event-form input[name=duration]', '1');
  await alice.page.fill('#event-form input[name=start_in]', '0');
  await shot(alice.page, 'events-list-desktop-en-light');
  await alice.page.click('#event-form button[type=submit]');
  await alice.page.waitForFunction(() => /^#\/event\/\d+$/.test(location.hash));
  const id = await alice.page.evaluate(() => location.hash.split('/')[2]);

  for (const p of people) {
    if (p !== alice) await p.page.goto(`${server.url}/#/event/${id}`);
    await p.page.waitForSelector('#event-join');
    await p.page.click('#event-join');
    await p.page.waitForSelector('#event-leave');
  }

  // Play every game the arena pairs until it ends: each player comes to the room, the loser resigns.
  const done = new Set();
  const started = Date.now();
  let games = 0;
  for (;;) {
    assert.ok(Date.now() - started < 180_000, 'the arena ends');
    const e = await eventJson(alice.page, id);
    if (e.event.status === 'finished') break;
    const name = (n) => e.entrants.find((x) => x.number === n).name;
    for (const p of e.pairings.filter((x) => !x.result && x.room && x.second && !done.has(x.room))) {
      done.add(p.room);
      const names = [name(p.first), name(p.second)];
      const loser = names.includes(alice.name) ? names.find((n) => n !== alice.name) : names[1];
      for (const n of names) {
        await byName(n).page.evaluate((r) => window.__app.conn.request({ t: 'join', room: r, role: 'player' }), p.room);
      }
      await byName(loser).page.evaluate((r) => window.__app.conn.request({ t: 'resign', room: r }), p.room);
      for (const n of names) {
        await byName(n).page.evaluate((r) => window.__app.conn.request({ t: 'leave', room: r }), p.room);
      }
      games += 1;
      if (games === 1) {
        // The page follows the standings while the arena runs: a win shows as 2 points at the top.
        await alice.page.waitForFunction(() => Number(document.querySelector('#event-standings tbody tr .event-score')?.textContent) >= 2);
        await shot(alice.page, 'events-running-desktop-en-light');
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(games >= 2, `the arena paired again after a game (${games} games)`);

  // The podium: alice first (she won every game she played), then the other two.
  await alice.page.waitForSelector('#event-podium li', { timeout: 15_000 });
  const podium = await alice.page.locator('#event-podium li').allTextContents();
  assert.equal(podium.length, 3);
  assert.ok(podium[0].includes(alice.name), podium.join(' / '));
  assert.equal(await alice.page.getAttribute('#event', 'data-status'), 'finished');
  await shot(alice.page, 'events-podium-desktop-en-light');
  await alice.page.setViewportSize({ width: 390, height: 844 });
  await alice.page.emulateMedia({ colorScheme: 'dark' });
  await alice.page.evaluate(async () => (await import('/js/i18n.js')).setLang('zh'));
  await alice.page.waitForFunction(() => document.querySelector('#event-clock')?.textContent === '已结束');
  const overflow = await alice.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `the page fits a phone (${overflow} px too wide)`);
  await shot(alice.page, 'events-podium-phone-zh-dark');
  await alice.page.goto(`${server.url}/#/events`);
  await alice.page.waitForSelector('#events-finished li');
  await shot(alice.page, 'events-list-phone-zh-dark');
  assert.deepEqual(people.flatMap((p) => p.errors), []);
});
