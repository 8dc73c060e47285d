// End to end against the real server binary (issue #18): two browsers quick-pair on a preset tile and play a few
// moves, then pair again on an Othello tile (#33: every game has tiles, grouped under its name); a registered player
// challenges another to Othello from the profile page and the other accepts from the notice (#36 item 13); a
// decline with a reason reaches the challenger, and the challenged player's setting refuses challenges; a game's
// .psq download imports back into the analysis board showing the same position, which then plays a variation and
// shows renju's forbidden points. Screenshots (desktop and phone, en and zh, light and dark) go to
// target/screenshots/pairing-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserAndServer, newPerson, shot, clickPoint, stones } from './harness.js';

let browser;
let server;

const setup = browserAndServer({}, (b, s) => {
  browser = b;
  server = s;
});

const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };

/** A browser context on the lobby as a guest, or with `register` as a new account; page errors are collected. */
const person = (t, label, options) => newPerson(t, browser, server.url, label, options);

/** Switches a page's width, theme and language. */
async function look(page, viewport, scheme, lang) {
  await page.setViewportSize(viewport);
  await page.emulateMedia({ colorScheme: scheme });
  await page.evaluate(async (l) => (await import('/js/i18n.js')).setLang(l), lang);
}

/** Four looks covering both widths, both languages and both themes; back to desktop, light, English. */
async function shots(page, name) {
  for (const [viewport, scheme, lang] of [[DESKTOP, 'light', 'en'], [DESKTOP, 'dark', 'zh'], [PHONE, 'dark', 'en'], [PHONE, 'light', 'zh']]) {
    await look(page, viewport, scheme, lang);
    await page.waitForTimeout(150);
    await shot(page, `pairing-${name}-${viewport === DESKTOP ? 'desktop' : 'phone'}-${lang}-${scheme}`);
  }
  await look(page, DESKTOP, 'light', 'en');
}

/** The room id of a page showing a room. */
const roomOf = (page) => decodeURIComponent(page.url().split('#/room/')[1]);

/** Plays Othello `squares` in turn, each by whichever page may play, waiting until both pages show it. */
async function playSquares(pages, squares) {
  for (const [i, sq] of squares.entries()) {
    const mover = await Promise.any(pages.map((p) => p.waitForSelector('.board-wrap.playable', { timeout: 15_000 }).then(() => p)));
    await mover.click(`.board.othello .legal[data-square="${sq}"]`);
    for (const p of pages) await p.waitForSelector(`#room[data-ply="${i + 1}"]`, { timeout: 15_000 });
  }
}

/** Plays `points` in turn: each by whichever page may play, waiting until both pages show it. */
async function playMoves(pages, points) {
  for (const [i, point] of points.entries()) {
    const mover = await Promise.any(pages.map((p) => p.waitForSelector('.board-wrap.playable', { timeout: 15_000 }).then(() => p)));
    await clickPoint(mover, point);
    for (const p of pages) await p.waitForSelector(`#room[data-ply="${i + 1}"]`, { timeout: 15_000 });
  }
}

test('two browsers quick-pair on a preset tile, play a few moves, and the lobby links back to the game', async (t) => {
  if (!(await setup(t))) return;
  const a = await person(t, 'a');
  const b = await person(t, 'b');
  // A guest seeks casual only: the rated choice is there but cannot be taken.
  assert.equal(await a.page.isDisabled('#quick input[name="quick-mode"][value="rated"]'), true);
  // A custom seek from the small form waits in the custom pool, and a click on its tile cancels it.
  // Every game has its tiles, under its name; each tile names its rule set and opening, or its scoring (#33, #36).
  await a.page.waitForSelector('#quick-grid [data-preset="othello-3+2"]');
  assert.deepEqual(await a.page.$$eval('#quick-grid .quick-game-name', (els) => els.map((e) => e.textContent)), ['Gomoku', 'Othello', 'International draughts', 'Insect chess']);
  assert.equal(await a.page.textContent('#quick-grid .quick-game[data-game="othello"] [data-preset="othello-5+3"] .quick-rule'), 'Japanese scoring');
  assert.equal(await a.page.locator('#quick-grid .quick-game[data-game="draughts"] [data-preset]').count(), 2);
  assert.equal(await a.page.locator('#quick-grid .quick-game[data-game="insect"] [data-preset]').count(), 2);
  // The custom form chooses the game and shows its own options: Othello's scoring, Gomoku's rules.
  await a.page.click('#quick-grid [data-preset="custom"]');
  await a.page.check('#quick-custom input[name="game"][value="othello"]', { force: true });
  assert.equal(await a.page.isVisible('#quick-custom input[name="scoring"][value="european"] + span'), true);
  assert.equal(await a.page.isVisible('#quick-custom input[name="rule_set"][value="renju"] + span'), false);
  await shot(a.page, 'pairing-custom-othello-desktop-en-light');
  await a.page.check('#quick-custom input[name="game"][value="gomoku"]', { force: true });
  assert.equal(await a.page.isChecked('#quick-custom input[name="opening"][value="soosorv"]'), true, 'renju starts at Soosõrv-8');
  await a.page.check('#quick-custom input[name="rule_set"][value="freestyle"]', { force: true });
  assert.equal(await a.page.isChecked('#quick-custom input[name="opening"][value="none"]'), true, 'freestyle without an opening');
  await a.page.fill('#quick-custom input[name="base"]', '1');
  await a.page.fill('#quick-custom input[name="increment"]', '1');
  await a.page.click('#quick-custom-seek');
  await a.page.waitForSelector('#quick-grid [data-preset="custom"].searching');
  assert.match(await a.page.textContent('#quick-grid [data-preset="custom"]'), /1\+1\s*Gomoku · Freestyle/);
  await b.page.waitForFunction(() => /^1 waiting/.test(document.querySelector('[data-counts="custom"]')?.textContent || ''), null, { timeout: 15_000 });
  await a.page.click('#quick-grid [data-preset="custom"]');
  await a.page.waitForSelector('#quick-grid [data-preset="custom"]:not(.searching)');
  await b.page.waitForFunction(() => /^0 waiting/.test(document.querySelector('[data-counts="custom"]')?.textContent || ''), null, { timeout: 15_000 });
  // The renju tiles name their balanced opening (#36): a rated renju game starts with Soosõrv-8.
  assert.equal(await a.page.textContent('#quick-grid [data-preset="renju-5+3"] .quick-rule'), 'Renju · Soosõrv-8');
  assert.equal(await a.page.textContent('#quick-grid [data-preset="freestyle-5+3"] .quick-rule'), 'Freestyle');
  await a.page.click('#quick-grid [data-preset="freestyle-5+3"]');
  await a.page.waitForSelector('#quick-grid [data-preset="freestyle-5+3"].searching');
  // The other lobby hears that someone waits on that tile.
  await b.page.waitForFunction(() => /^1 waiting/.test(document.querySelector('[data-counts="freestyle-5+3"]')?.textContent || ''), null, { timeout: 15_000 });
  await shots(a.page, 'lobby-searching');
  await b.page.click('#quick-grid [data-preset="freestyle-5+3"]');
  await Promise.all([a.page.waitForURL(/#\/room\//, { timeout: 15_000 }), b.page.waitForURL(/#\/room\//, { timeout: 15_000 })]);
  assert.equal(roomOf(a.page), roomOf(b.page), 'both were sent to the same room');
  await playMoves([a.page, b.page], ['h8', 'h9', 'j8', 'j9']);
  assert.deepEqual(await stones(a.page), { h8: 'black', h9: 'white', j8: 'black', j9: 'white' });
  // Black is to move: that tab's title says so, the other's does not.
  const black = (await a.page.locator('.board-wrap.playable').count()) ? a.page : b.page;
  const white = black === a.page ? b.page : a.page;
  assert.match(await black.title(), /Your move/);
  assert.doesNotMatch(await white.title(), /Your move/);
  // Back in the lobby, the running game is one click away.
  const room = roomOf(a.page);
  await a.page.goto(`${server.url}/#/`);
  await a.page.waitForSelector(`#live-games [data-room="${room}"] a`);
  await shots(a.page, 'lobby-in-progress');
  await a.page.click(`#live-games [data-room="${room}"] a`);
  await a.page.waitForSelector(`#room[data-ply="4"]`, { timeout: 15_000 });
  // An Othello tile pairs the same two into an Othello room (#33).
  await Promise.all([a.page.goto(`${server.url}/#/`), b.page.goto(`${server.url}/#/`)]);
  await a.page.click('#quick-grid [data-preset="othello-3+2"]');
  await a.page.waitForSelector('#quick-grid [data-preset="othello-3+2"].searching');
  await b.page.waitForFunction(() => /^1 waiting/.test(document.querySelector('[data-counts="othello-3+2"]')?.textContent || ''), null, { timeout: 15_000 });
  await b.page.click('#quick-grid [data-preset="othello-3+2"]');
  await Promise.all([
    a.page.waitForURL((u) => u.hash.startsWith('#/room/') && !u.hash.includes(room), { timeout: 15_000 }),
    b.page.waitForURL((u) => u.hash.startsWith('#/room/') && !u.hash.includes(room), { timeout: 15_000 }),
  ]);
  assert.equal(roomOf(a.page), roomOf(b.page), 'both were sent to the same Othello room');
  await Promise.all([a.page.waitForSelector('.board.othello .disc'), b.page.waitForSelector('.board.othello .disc')]);
  await playSquares([a.page, b.page], ['f5', 'd6']);
  assert.deepEqual([...a.errors, ...b.errors], []);
});

test('a player challenges another from the profile page and the other accepts from the notice', async (t) => {
  if (!(await setup(t))) return;
  const a = await person(t, 'chal', { register: true });
  const b = await person(t, 'dest', { register: true });
  await b.page.goto(`${server.url}/#/`);
  await a.page.goto(`${server.url}/#/player/${b.name}`);
  await a.page.click(`[data-challenge="${b.name}"]`);
  await a.page.waitForSelector('#challenge-form');
  // Renju starts with Soosõrv-8 (#36), its forbidden-move rule to choose; this challenge is to Othello instead, with
  // European scoring (#36 item 13: challenges of every game, with their options).
  assert.equal(await a.page.isChecked('#challenge-form input[name="opening"][value="soosorv"]'), true);
  assert.equal(await a.page.isVisible('#challenge-form input[name="forbidden_policy"][value="lose"] + span'), true);
  await shot(a.page, 'pairing-challenge-form-gomoku-desktop-en-light');
  await a.page.setViewportSize(PHONE);
  await shot(a.page, 'pairing-challenge-form-gomoku-phone-en-light');
  await a.page.setViewportSize(DESKTOP);
  await a.page.check('#challenge-form input[name="game"][value="othello"]', { force: true });
  assert.equal(await a.page.isVisible('#challenge-form input[name="opening"][value="none"] + span'), false);
  await a.page.check('#challenge-form input[name="scoring"][value="european"]', { force: true });
  await a.page.check('#challenge-form input[name="colour"][value="black"]', { force: true });
  await a.page.check('#challenge-form input[name="rated"][value="rated"]', { force: true });
  await shots(a.page, 'challenge-form');
  await a.page.click('#challenge-send');
  await a.page.waitForSelector('#challenges .challenge-card.mine');
  const notice = b.page.locator('#challenges .challenge-card:not(.mine)');
  await notice.waitFor({ timeout: 15_000 });
  assert.match(await notice.textContent(), new RegExp(`${a.name} challenges you`));
  assert.match(await notice.textContent(), /Othello · European scoring · 5\+3 · Rated · you play White/i);
  assert.match(await a.page.textContent('#challenges .challenge-card.mine'), /Othello · European scoring · 5\+3 · Rated · you play Black/i);
  assert.match(await b.page.title(), new RegExp(`Challenge from ${a.name}`));
  await shots(b.page, 'challenge-notice');
  await notice.locator('[data-action="accept"]').click();
  await Promise.all([a.page.waitForURL(/#\/room\//, { timeout: 15_000 }), b.page.waitForURL(/#\/room\//, { timeout: 15_000 })]);
  assert.equal(roomOf(a.page), roomOf(b.page));
  // The challenger took black: it is their move.
  await a.page.waitForSelector('.board-wrap.playable', { timeout: 15_000 });
  await a.page.waitForSelector('.board.othello .disc');
  await playSquares([a.page, b.page], ['f5', 'd6']);
  // Mid-game neither seat offers a challenge: not one's own, not the opponent's (#36 item 13).
  assert.equal(await a.page.locator(`#room [data-challenge]`).count(), 0);
  assert.equal(await b.page.locator(`#room [data-challenge]`).count(), 0);
  await shots(a.page, 'room-seat');
  assert.equal(await b.page.locator('#challenges .challenge-card').count(), 0, 'the notice went with the answer');
  assert.doesNotMatch(await b.page.title(), /Challenge/);
  assert.deepEqual([...a.errors, ...b.errors], []);
});

test('a decline with a reason reaches the challenger, and the setting of who may challenge is kept', async (t) => {
  if (!(await setup(t))) return;
  const a = await person(t, 'ask', { register: true });
  const b = await person(t, 'busy', { register: true });
  await a.page.goto(`${server.url}/#/player/${b.name}`);
  await a.page.click(`[data-challenge="${b.name}"]`);
  await a.page.click('#challenge-send');
  const notice = b.page.locator('#challenges .challenge-card:not(.mine)');
  await notice.waitFor({ timeout: 15_000 });
  await notice.locator('select[data-action="reason"]').selectOption('later');
  await notice.locator('[data-action="decline"]').click();
  await a.page.waitForFunction(() => /declined your challenge: “Not now, later”/.test(document.getElementById('toasts')?.textContent || ''), null, { timeout: 15_000 });
  assert.equal(await a.page.locator('#challenges .challenge-card').count(), 0);
  // Asking again at once meets the cooldown, in words.
  await a.page.click(`[data-challenge="${b.name}"]`);
  await a.page.click('#challenge-send');
  await a.page.waitForFunction(() => /wait a minute/.test(document.getElementById('challenge-error')?.textContent || ''));
  await a.page.keyboard.press('Escape');
  // No button for a name nobody has, nor on the computer's page (#36 item 13); a real player's comes.
  await a.page.goto(`${server.url}/#/player/nobody-here`);
  await a.page.waitForSelector('[data-challenge-for="nobody-here"]', { state: 'attached' });
  await a.page.goto(`${server.url}/#/player/computer-3`);
  await a.page.waitForSelector('[data-challenge-for="computer-3"]', { state: 'attached' });
  await a.page.goto(`${server.url}/#/player/${b.name}`);
  await a.page.waitForSelector(`[data-challenge="${b.name}"]`);
  assert.equal(await a.page.evaluate(async () => {
    const { challengeTarget } = await import('/js/challenges.js');
    return [await challengeTarget('nobody-here'), await challengeTarget('computer-3')];
  }).then((r) => r.join()), 'false,false');
  assert.equal(await a.page.locator('[data-challenge="nobody-here"], [data-challenge="computer-3"]').count(), 0);
  // The challenged player refuses everyone from now on: the setting is stored and a new challenger hears it.
  await b.page.goto(`${server.url}/#/player/${b.name}`);
  await b.page.waitForSelector('#challenge-setting input[value="all"]:checked');
  await b.page.check('#challenge-setting input[value="none"]', { force: true });
  await b.page.waitForFunction(() => /Saved/.test(document.getElementById('challenge-setting')?.textContent || ''));
  await shots(b.page, 'profile-setting');
  await b.page.reload();
  await b.page.waitForSelector('#challenge-setting input[value="none"]:checked');
  const c = await person(t, 'third', { register: true });
  await c.page.goto(`${server.url}/#/player/${b.name}`);
  await c.page.click(`[data-challenge="${b.name}"]`);
  await c.page.click('#challenge-send');
  await c.page.waitForFunction(() => /does not take challenges/.test(document.getElementById('challenge-error')?.textContent || ''));
  await c.page.keyboard.press('Escape');
  // A challenge withdrawn before the answer leaves the other player's page, with a word why.
  await c.page.goto(`${server.url}/#/player/${a.name}`);
  await c.page.click(`[data-challenge="${a.name}"]`);
  await c.page.click('#challenge-send');
  await a.page.locator('#challenges .challenge-card:not(.mine)').waitFor({ timeout: 15_000 });
  await c.page.click('#challenges .challenge-card.mine [data-action="withdraw"]');
  await a.page.waitForFunction(() => !document.querySelector('#challenges .challenge-card'), null, { timeout: 15_000 });
  await a.page.waitForFunction((n) => document.getElementById('toasts')?.textContent.includes(`${n} withdrew the challenge`), c.name);
  assert.equal(await c.page.locator('#challenges .challenge-card').count(), 0);
  assert.deepEqual([...a.errors, ...b.errors, ...c.errors], []);
});

test('an exported .psq imports back into the analysis board at the same position, which plays variations', async (t) => {
  if (!(await setup(t))) return;
  const a = await person(t, 'a');
  const b = await person(t, 'b');
  await a.page.click('#quick-grid [data-preset="freestyle-3+2"]');
  await a.page.waitForSelector('#quick-grid [data-preset="freestyle-3+2"].searching');
  await b.page.click('#quick-grid [data-preset="freestyle-3+2"]');
  await Promise.all([a.page.waitForURL(/#\/room\//, { timeout: 15_000 }), b.page.waitForURL(/#\/room\//, { timeout: 15_000 })]);
  await playMoves([a.page, b.page], ['h8', 'g7', 'j9', 'k10', 'g9']);
  const record = await a.page.evaluate((room) => window.__app.live.games().find((g) => g.room === room)?.record, roomOf(a.page));
  assert.ok(record, 'the game has a record');
  await a.page.goto(`${server.url}/#/game/${record}`);
  await a.page.waitForSelector('#record-downloads [data-format="psq"]');
  const want = await stones(a.page);
  assert.equal(Object.keys(want).length, 5);
  const hrefs = await a.page.$$eval('#record-downloads a', (els) => els.map((e) => [e.dataset.format, e.getAttribute('href'), e.getAttribute('download')]));
  assert.deepEqual(hrefs.map((x) => x[0]), ['psq', 'renlib', 'text']);
  const psq = await (await fetch(`${server.url}${hrefs[0][1]}`)).text();
  assert.match(psq, /^Piskvorky 15x15/);
  assert.equal(await (await fetch(`${server.url}${hrefs[1][1]}`)).text(), 'h8 g7 j9 k10 g9\n');
  assert.match(await (await fetch(`${server.url}${hrefs[2][1]}`)).text(), /\[Rules "freestyle/);
  await shots(a.page, 'record-downloads');
  await a.page.setInputFiles('#psq-file', { name: 'game.psq', mimeType: 'text/plain', buffer: Buffer.from(psq) });
  await a.page.waitForURL(/#\/analysis$/);
  await a.page.waitForSelector('#analysis-moves li');
  assert.deepEqual(await stones(a.page), want, 'the same position as the record shows');
  assert.equal(await a.page.textContent('#analysis-ply'), 'Move 5 of 5');
  // A variation from two moves back: the record's line is kept to return to.
  await a.page.click('#a-prev');
  await a.page.click('#a-prev');
  await clickPoint(a.page, 'a1');
  assert.equal(await a.page.textContent('#analysis-ply'), 'Move 4 of 4');
  assert.equal((await stones(a.page)).a1, 'white');
  assert.equal(await a.page.isVisible('#analysis-main'), true);
  await a.page.click('#analysis-main');
  assert.equal(await a.page.textContent('#analysis-ply'), 'Move 3 of 5');
  // The record page opens its own moves there too, at the move it shows.
  await a.page.goto(`${server.url}/#/game/${record}/2`);
  await a.page.click('#record-analyse');
  await a.page.waitForURL(/#\/analysis$/);
  await a.page.waitForSelector('#analysis-moves li');
  assert.equal(await a.page.textContent('#analysis-ply'), 'Move 2 of 5');
  assert.deepEqual([...a.errors, ...b.errors], []);
});

test('the analysis board shows renju forbidden points of an imported file and refuses them for black', async (t) => {
  if (!(await setup(t))) return;
  const a = await person(t, 'a');
  // Black f8 g8 h6 h7 (white far away): h8 makes two open threes.
  const psq = 'Piskvorky 15x15, 11:11, 0\n6,8,0\n1,15,0\n7,8,0\n1,13,0\n8,10,0\n1,11,0\n8,9,0\n1,1,0\n-1\n';
  await a.page.goto(`${server.url}/#/analysis`);
  await a.page.waitForSelector('#import-psq');
  await a.page.setInputFiles('#psq-file', { name: 'three.psq', mimeType: 'text/plain', buffer: Buffer.from(psq) });
  await a.page.waitForSelector('.board .forbidden[data-point="h8"][data-kind="double_three"]');
  await shots(a.page, 'analysis-forbidden');
  await clickPoint(a.page, 'h8');
  await a.page.waitForFunction(() => /h8 is forbidden for black/.test(document.getElementById('toasts')?.textContent || ''));
  assert.equal((await stones(a.page)).h8, undefined);
  // Freestyle has no forbidden points: the same point plays.
  await a.page.check('input[name="analysis-rules"][value="freestyle"]', { force: true });
  assert.equal(await a.page.locator('.board .forbidden').count(), 0);
  await clickPoint(a.page, 'h8');
  assert.equal((await stones(a.page)).h8, 'black');
  // A file that is not a .psq is refused in words.
  await a.page.setInputFiles('#psq-file', { name: 'bad.psq', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await a.page.waitForFunction(() => /not a \.psq file/.test(document.getElementById('psq-error')?.textContent || ''));
  assert.deepEqual(a.errors, []);
});

test('with notifications turned on, a hidden tab is told that its game started and that it is its move', async (t) => {
  if (!(await setup(t))) return;
  // The browser's notifications, recorded; the tab is hidden when the test says so.
  const init = () => {
    window.__notes = [];
    class Note {
      static permission = 'default';
      static requestPermission() {
        Note.permission = 'granted';
        return Promise.resolve('granted');
      }
      constructor(title, options) {
        window.__notes.push(options.body);
      }
    }
    window.Notification = Note;
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (window.__hidden ? 'hidden' : 'visible') });
  };
  const a = await person(t, 'a', { init });
  const b = await person(t, 'b');
  assert.equal(await a.page.getAttribute('#notify', 'data-on'), 'off');
  await a.page.click('#notify');
  await a.page.waitForSelector('#notify[data-on="on"]');
  await a.page.evaluate(() => window.__app.conn.on('paired', (m) => (window.__colour = m.colour)));
  await a.page.click('#quick-grid [data-preset="freestyle-5+3"]');
  await a.page.waitForSelector('#quick-grid [data-preset="freestyle-5+3"].searching');
  await a.page.evaluate(() => (window.__hidden = true));
  await b.page.click('#quick-grid [data-preset="freestyle-5+3"]');
  await a.page.waitForFunction((n) => window.__notes.includes(`Your game against ${n} has started.`), b.name, { timeout: 15_000 });
  await b.page.waitForURL(/#\/room\//, { timeout: 15_000 });
  await b.page.waitForSelector('#room');
  // Whoever holds black moves first: when that is the other player, its move makes it ours.
  if ((await a.page.evaluate(() => window.__colour)) === 'white') await playMoves([b.page, a.page], ['h8']);
  await a.page.waitForFunction(() => window.__notes.includes('Your move'), null, { timeout: 15_000 });
  assert.deepEqual([...a.errors, ...b.errors], []);
});

// A server of its own whose challenges expire after 15 s instead of the default minute: the test waits for the
// expiry, and a minute of it was most of this file's time.
let expiring;
let expiringBrowser;
const setupExpiring = browserAndServer({ args: ['--challenge-expiry-secs', '15'] }, (b, s) => {
  expiringBrowser = b;
  expiring = s;
});

test('an unanswered challenge expires on both pages after its time', async (t) => {
  if (!(await setupExpiring(t))) return;
  const a = await newPerson(t, expiringBrowser, expiring.url, 'late', { register: true });
  const b = await newPerson(t, expiringBrowser, expiring.url, 'away', { register: true });
  await a.page.goto(`${expiring.url}/#/player/${b.name}`);
  await a.page.click(`[data-challenge="${b.name}"]`);
  await a.page.click('#challenge-send');
  await b.page.locator('#challenges .challenge-card:not(.mine)').waitFor({ timeout: 15_000 });
  // The server closes it after 15 s: both pages hear so, whatever they show.
  await Promise.all([
    a.page.waitForFunction((n) => document.getElementById('toasts')?.textContent.includes(`${n} did not answer your challenge in time`), b.name, { timeout: 90_000 }),
    b.page.waitForFunction((n) => document.getElementById('toasts')?.textContent.includes(`The challenge from ${n} expired`), a.name, { timeout: 90_000 }),
  ]);
  assert.equal(await a.page.locator('#challenges .challenge-card').count(), 0);
  assert.equal(await b.page.locator('#challenges .challenge-card').count(), 0);
  assert.doesNotMatch(await b.page.title(), /Challenge/);
  assert.deepEqual([...a.errors, ...b.errors], []);
});
