// End to end against the real server binary (issue #18): games seeded over the WebSocket protocol (from a page,
// as any client would) show on the profile page filtered by rule set, rated and result, page with "More games",
// and keep their filters in the address across a reload; a seek with a rating range that leaves a guest (1500) out
// is greyed in the lobby with the reason and refuses the join in words (English and Chinese), while one that
// includes 1500 seats the guest. Screenshots (desktop and phone, en and zh, light and dark) go to
// target/screenshots/filters-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserAndServer, shot } from './harness.js';

let browser;
let server;
let seeded = null;

const PASSWORD = 'correct horse battery';
const suffix = Date.now().toString(36).slice(-4);
const ANN = `ann${suffix}`;
const BOB = `bob${suffix}`;

// The seed plays many short games between the same two accounts quickly: let every rated one count, and let
// one socket send that fast.
const setup = browserAndServer({ env: { RATED_REPEAT_LIMIT: '1000', MSG_RATE: '1000', MSG_BURST: '1000' } }, (b, s) => {
  browser = b;
  server = s;
});

const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };

/**
 * The games the seed plays, in order: who creates (holding black), who joins (white), the room's game, rated, and
 * how it ends (`black` or `white` wins by the other's resignation, or an agreed `draw`), after one move each.
 */
const GAMES = [
  ...Array.from({ length: 22 }, () => ({ black: ANN, white: BOB, rules: { rule_set: 'freestyle' }, rated: true, end: 'black' })),
  { black: BOB, white: ANN, rules: { rule_set: 'freestyle' }, rated: true, end: 'black' },
  { black: ANN, white: BOB, rules: { rule_set: 'renju' }, rated: false, end: 'white' },
  { black: BOB, white: ANN, rules: { rule_set: 'renju' }, rated: false, end: 'draw' },
  { black: ANN, white: BOB, rules: { rule_set: 'renju' }, rated: false, end: 'white' },
  { black: BOB, white: ANN, game: { game: 'othello', scoring: 'japanese' }, rated: false, end: 'white' },
];

/** Registers the players and plays GAMES over two WebSockets, inside a page of the server's origin. */
async function seed() {
  if (!seeded) {
    seeded = (async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${server.url}/#/`);
      await page.evaluate(async ({ players, games, password }) => {
        const sockets = {};
        for (const name of players) {
          // Without cookies: a registration over the page's session cookie would sign the previous player out.
          const r = await fetch('/api/register', { method: 'POST', credentials: 'omit', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: name, password, issue_token: true }) });
          if (!r.ok) throw new Error(`register ${name}: ${r.status} ${await r.text()}`);
          const { token } = await r.json();
          const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/ws`);
          await new Promise((ok, bad) => { ws.onopen = ok; ws.onerror = bad; });
          const waiting = new Map();
          let rid = 0;
          ws.onmessage = (e) => {
            const m = JSON.parse(e.data);
            const w = m.rid != null && waiting.get(m.rid);
            if (!w) return;
            waiting.delete(m.rid);
            if (m.t === 'error') w.bad(new Error(`${name}: ${m.code} ${m.message}`));
            else w.ok(m);
          };
          // A request the server never answers fails the seed with its name instead of hanging the test.
          const request = (msg) => new Promise((ok, bad) => {
            rid += 1;
            const mine = rid;
            const guard = setTimeout(() => bad(new Error(`${name}: no answer to ${JSON.stringify(msg)}`)), 10_000);
            waiting.set(mine, { ok: (m) => { clearTimeout(guard); ok(m); }, bad: (e) => { clearTimeout(guard); bad(e); } });
            ws.send(JSON.stringify({ ...msg, rid: mine }));
          });
          await request({ t: 'hello', version: 1, token });
          sockets[name] = { ws, request };
        }
        for (const g of games) {
          const b = sockets[g.black];
          const w = sockets[g.white];
          const spec = g.rules ? { rules: g.rules } : { game: g.game };
          const created = await b.request({ t: 'create_room', ...spec, rated: g.rated, public: true, colour: 'black', time_control: { kind: 'none' } });
          const room = created.room.id;
          await w.request({ t: 'join', room });
          if (g.rules) {
            await b.request({ t: 'place', room, point: 'h8', ply: 1 });
            await w.request({ t: 'place', room, point: 'h9', ply: 2 });
          } else {
            await b.request({ t: 'act', room, action: 'f5', at: 0 });
            await w.request({ t: 'act', room, action: 'd6', at: 1 });
          }
          if (g.end === 'draw') {
            await b.request({ t: 'offer_draw', room });
            await w.request({ t: 'answer_draw', room, accept: true });
          } else {
            await (g.end === 'black' ? w : b).request({ t: 'resign', room });
          }
          await b.request({ t: 'leave', room });
          await w.request({ t: 'leave', room });
        }
        for (const s of Object.values(sockets)) s.ws.close();
      }, { players: [ANN, BOB], games: GAMES, password: PASSWORD });
      await context.close();
    })();
  }
  return seeded;
}

/** A browser context on the lobby, as a guest or signed in as `login`; page errors are collected. */
async function person(t, { login = null, lang = 'en' } = {}) {
  const context = await browser.newContext({ viewport: DESKTOP, colorScheme: 'light' });
  if (lang === 'zh') await context.addInitScript(() => localStorage.setItem('gomoku.lang', 'zh'));
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  t.after(() => context.close());
  await page.goto(`${server.url}/#/`);
  await page.waitForFunction(() => window.__app?.you?.name);
  if (login) {
    await page.goto(`${server.url}/#/login`);
    await page.fill('#username', login);
    await page.fill('#password', PASSWORD);
    await page.click('#auth-submit');
    await page.waitForFunction((n) => window.__app?.you?.name === n && !window.__app.you.guest, login, { timeout: 15_000 });
  }
  return { page, errors };
}

async function look(page, viewport, scheme, lang) {
  await page.setViewportSize(viewport);
  await page.emulateMedia({ colorScheme: scheme });
  await page.evaluate(async (l) => (await import('/js/i18n.js')).setLang(l), lang);
}

/** Four looks covering both widths, both languages and both themes; back to desktop, light, English. */
async function shots(page, name, ready) {
  for (const [viewport, scheme, lang] of [[DESKTOP, 'light', 'en'], [DESKTOP, 'dark', 'zh'], [PHONE, 'dark', 'en'], [PHONE, 'light', 'zh']]) {
    await look(page, viewport, scheme, lang);
    if (ready) await ready();
    await page.waitForTimeout(150);
    await shot(page, `filters-${name}-${viewport === DESKTOP ? 'desktop' : 'phone'}-${lang}-${scheme}`);
  }
  await look(page, DESKTOP, 'light', 'en');
  if (ready) await ready();
}

/** Waits for `selector` in the profile's game list and scrolls the list's heading to the top, for a screenshot. */
async function toGames(page, selector) {
  await page.waitForSelector(selector);
  await page.evaluate(() => document.querySelector('.games-head').scrollIntoView());
}

/** The profile's game rows as [opponent text, outcome class], once the list shows `n` of them. */
async function rows(page, n) {
  await page.waitForFunction((k) => document.querySelectorAll('#profile-games .game-row').length === k, n, { timeout: 15_000 });
  return page.$$eval('#profile-games .game-row', (els) => els.map((e) => e.querySelector('.outcome')?.classList[1] ?? null));
}

test('the profile filters games by rule set, rated and result, pages them, and keeps the filters over a reload', async (t) => {
  if (!(await setup(t))) return;
  await seed();
  const { page, errors } = await person(t);
  await page.goto(`${server.url}/#/player/${ANN}`);
  // All 27 games: 20 at first, the rest behind "More games".
  assert.equal((await rows(page, 20)).length, 20);
  assert.equal(await page.isVisible('#more-games'), true);
  await page.click('#more-games');
  await rows(page, 27);
  await page.waitForSelector('#more-games', { state: 'hidden' });
  assert.equal(await page.textContent('#games-shown'), 'Showing 27');
  // The pool choice lists the pool the player has standings in first, then the others.
  const pools = await page.$$eval('#filter-pool option', (els) => els.map((e) => e.value));
  assert.deepEqual(pools.slice(0, 2), ['', 'freestyle']);
  assert.ok(pools.includes('renju') && pools.includes('othello/standard'));

  // Renju: three casual games, two lost and one drawn.
  await page.selectOption('#filter-pool', 'renju');
  assert.deepEqual((await rows(page, 3)).sort(), ['draw', 'loss', 'loss']);
  assert.match(page.url(), /#\/player\/[^?]+\?pool=renju$/);
  await page.selectOption('#filter-result', 'loss');
  assert.deepEqual(await rows(page, 2), ['loss', 'loss']);
  assert.match(page.url(), /\?pool=renju&result=loss$/);
  await shots(page, 'profile', () => toGames(page, '#profile-games .game-row'));
  // A reload keeps the filters, in the controls and in the list.
  await page.reload();
  assert.deepEqual(await rows(page, 2), ['loss', 'loss']);
  assert.equal(await page.inputValue('#filter-pool'), 'renju');
  assert.equal(await page.inputValue('#filter-result'), 'loss');
  // None of them rated: a clear line says nothing matches.
  await page.selectOption('#filter-rated', 'true');
  await page.waitForSelector('#no-match');
  assert.equal(await page.textContent('#no-match'), 'No games match these filters.');
  assert.equal(await page.locator('#profile-games .game-row').count(), 0);
  await shots(page, 'profile-empty', () => toGames(page, '#no-match'));
  await look(page, DESKTOP, 'light', 'zh');
  await page.waitForSelector('#no-match');
  assert.equal(await page.textContent('#no-match'), '没有符合筛选条件的对局。');
  await look(page, DESKTOP, 'light', 'en');

  // Rated freestyle wins: 22, paged 20 and 2; the one lost (as white) is not among them.
  await page.selectOption('#filter-pool', 'freestyle');
  await page.selectOption('#filter-result', 'win');
  assert.equal((await rows(page, 20)).every((o) => o === 'win'), true);
  await page.click('#more-games');
  assert.equal((await rows(page, 22)).every((o) => o === 'win'), true);
  await page.waitForSelector('#more-games', { state: 'hidden' });
  assert.match(page.url(), /\?pool=freestyle&rated=true&result=win$/);
  await page.selectOption('#filter-result', 'loss');
  assert.deepEqual(await rows(page, 1), ['loss']);
  // Casual games, any pool: the four renju and Othello ones; the Othello one was won as white.
  await page.selectOption('#filter-pool', '');
  await page.selectOption('#filter-rated', 'false');
  await page.selectOption('#filter-result', '');
  assert.deepEqual((await rows(page, 4)).sort(), ['draw', 'loss', 'loss', 'win']);
  await page.selectOption('#filter-pool', 'othello/standard');
  assert.deepEqual(await rows(page, 1), ['win']);
  assert.match(page.url(), /\?pool=othello%2Fstandard&rated=false$/);
  // Clearing shows everything again, and the address loses its query.
  await page.click('#filter-clear');
  await rows(page, 20);
  assert.match(page.url(), new RegExp(`#/player/${ANN}$`));
  assert.equal(await page.isVisible('#filter-clear'), false);
  // A link with filters opens filtered.
  await page.goto(`${server.url}/#/player/${ANN}?result=draw`);
  await page.reload();
  assert.deepEqual(await rows(page, 1), ['draw']);
  assert.deepEqual(errors, []);
});

test('a seek whose rating range leaves a guest out refuses the join in words, one that includes 1500 seats them', async (t) => {
  if (!(await setup(t))) return;
  await seed();
  const ann = await person(t, { login: ANN });
  const guest = await person(t);
  // Ann's own freestyle rating is what "±" is around; an explicit range is sent as typed.
  await ann.page.click('#new-game');
  await ann.page.waitForSelector('#create-form');
  await ann.page.check('#create-form input[name="rule_set"][value="freestyle"]', { force: true });
  await ann.page.check('#create-form input[name="range"][value="200"]', { force: true });
  const freestyle = await ann.page.evaluate(async () => (await (await fetch('/api/me')).json()).ratings.find((r) => r.pool === 'freestyle'));
  const mine = Math.round(freestyle.rating);
  // The lobby marks a provisional rating as the room does (1739?).
  const shown = `${mine}${freestyle.provisional ? '?' : ''}`;
  assert.ok(mine > 1700, `Ann's freestyle rating (${mine}) is well above a guest's`);
  await ann.page.waitForFunction((r) => document.getElementById('range-hint')?.textContent.includes(`Admits ${r - 200}–${r + 200}`), mine);
  await ann.page.check('#create-form input[name="range"][value="custom"]', { force: true });
  await ann.page.fill('#create-form input[name="range_min"]', '1800');
  await ann.page.fill('#create-form input[name="range_max"]', '1200');
  await ann.page.click('#create-submit');
  await ann.page.waitForFunction(() => /rating range is not valid/.test(document.querySelector('#create-form .form-error')?.textContent || ''));
  await ann.page.fill('#create-form input[name="range_min"]', '1600');
  await ann.page.fill('#create-form input[name="range_max"]', '2600');
  await ann.page.waitForFunction(() => document.getElementById('range-hint')?.textContent.includes('Admits 1600–2600'));
  // A language change rebuilds the lobby, form and all: each look opens it again with the same choices.
  await shots(ann.page, 'create-range', async () => {
    if (!(await ann.page.$('#create-form'))) {
      await ann.page.click('#new-game');
      await ann.page.check('#create-form input[name="rule_set"][value="freestyle"]', { force: true });
      await ann.page.check('#create-form input[name="range"][value="custom"]', { force: true });
      await ann.page.fill('#create-form input[name="range_min"]', '1600');
      await ann.page.fill('#create-form input[name="range_max"]', '2600');
    }
    await ann.page.locator('#range-field').scrollIntoViewIfNeeded();
  });
  await ann.page.click('#create-submit');
  await ann.page.waitForURL(/#\/room\//, { timeout: 15_000 });
  const high = decodeURIComponent(ann.page.url().split('#/room/')[1]);

  // The guest's lobby shows the range and Ann's rating and tier, greyed with the reason.
  const row = guest.page.locator(`#waiting-rooms [data-room="${high}"]`);
  await row.waitFor({ timeout: 15_000 });
  assert.match(await row.locator('.badge.range').textContent(), /^Rating 1600–2600$/);
  assert.equal(await row.locator('.rating').textContent(), shown);
  assert.equal(await row.locator('.tier').count(), 1);
  await guest.page.waitForSelector(`#waiting-rooms [data-room="${high}"].outside`);
  assert.equal(await row.locator('.range-reason').textContent(), 'Your rating here (1500) is outside 1600–2600');
  await shots(guest.page, 'lobby-ranged', async () => {
    await guest.page.waitForSelector(`#waiting-rooms [data-room="${high}"].outside`);
    await guest.page.evaluate(() => document.getElementById('waiting-rooms').scrollIntoView());
  });
  // Joining anyway is refused, in words, in either language; watching stays open.
  await row.locator('a.btn').click();
  await guest.page.waitForSelector('#room-gone');
  assert.equal(await guest.page.textContent('#room-gone p'), 'This seek is for players rated inside its range, and yours is outside it.');
  await guest.page.waitForSelector('#watch-instead');
  await shots(guest.page, 'join-refused', () => guest.page.waitForSelector('#room-gone'));
  await guest.page.evaluate(async () => (await import('/js/i18n.js')).setLang('zh'));
  await guest.page.waitForSelector('#room-gone');
  assert.equal(await guest.page.textContent('#room-gone p'), '这个约战只接受等级分在其范围内的玩家，你的等级分不在范围内。');
  await guest.page.evaluate(async () => (await import('/js/i18n.js')).setLang('en'));
  await guest.page.click('#watch-instead');
  await guest.page.waitForSelector('#room[data-role="spectator"]', { timeout: 15_000 });

  // A range that includes 1500 takes the guest.
  await ann.page.goto(`${server.url}/#/`);
  await ann.page.click('#new-game');
  await ann.page.check('#create-form input[name="rule_set"][value="renju"]', { force: true });
  await ann.page.check('#create-form input[name="range"][value="custom"]', { force: true });
  await ann.page.fill('#create-form input[name="range_min"]', '1400');
  await ann.page.fill('#create-form input[name="range_max"]', '1500');
  await ann.page.click('#create-submit');
  await ann.page.waitForURL(/#\/room\//, { timeout: 15_000 });
  const open = decodeURIComponent(ann.page.url().split('#/room/')[1]);
  assert.notEqual(open, high);
  await guest.page.goto(`${server.url}/#/`);
  const ok = guest.page.locator(`#waiting-rooms [data-room="${open}"]`);
  await ok.waitFor({ timeout: 15_000 });
  assert.match(await ok.locator('.badge.range').textContent(), /^Rating 1400–1500$/);
  assert.equal(await guest.page.locator(`#waiting-rooms [data-room="${open}"].outside`).count(), 0);
  await ok.locator('a.btn').click();
  await guest.page.waitForSelector('#room[data-role="player"][data-state="playing"]', { timeout: 15_000 });
  await ann.page.waitForSelector('#room[data-state="playing"]', { timeout: 15_000 });
  assert.deepEqual([...ann.errors, ...guest.errors], []);
});
