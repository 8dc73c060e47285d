// Insect chess (issue #32) end to end against the real server: two players create and join a room from the lobby
// while a third watches; south (the creator) plays from the bottom, north's board is turned half round; a piece is
// chosen, its destinations are marked (the wasp's flight over the pond too), a tiger beetle takes a wasp and the
// pieces taken show by the clocks; a takeback; south's wasp flies over the pond and walks through north's mud
// onto north's food to win. The record replays the game and exports the moves. Screenshots at desktop and phone
// widths, English and Chinese, light and dark, go to target/screenshots/insect-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserAndServer, newPerson, shot } from './harness.js';

let browser;
let server;

const setup = browserAndServer({}, (b, s) => {
  browser = b;
  server = s;
});

const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };
const SMALL = { width: 320, height: 640 };

const person = (t, label, options) => newPerson(t, browser, server.url, label, options);

/** Switches a page's width, theme and language (the room relabels itself in place). */
async function look(page, viewport, scheme, lang) {
  await page.setViewportSize(viewport);
  await page.emulateMedia({ colorScheme: scheme });
  await page.evaluate(async (l) => (await import('/js/i18n.js')).setLang(l), lang);
}

/** Screenshots of a page in four looks covering both widths, both languages and both themes; back to desktop. */
async function shots(page, name, looks = [[DESKTOP, 'light', 'en'], [DESKTOP, 'dark', 'zh'], [PHONE, 'dark', 'en'], [SMALL, 'light', 'zh']]) {
  for (const [viewport, scheme, lang] of looks) {
    await look(page, viewport, scheme, lang);
    await page.waitForTimeout(150);
    const width = viewport === DESKTOP ? 'desktop' : viewport === PHONE ? 'phone' : 'phone320';
    await shot(page, `insect-${name}-${width}-${lang}-${scheme}`);
  }
  await look(page, DESKTOP, 'light', 'en');
}

/** Clicks the middle of a square of the insect board as a player would. */
async function clickSquare(page, square) {
  const box = await page.locator(`.board-wrap svg.insect .sq[data-square="${square}"]`).boundingBox();
  assert.ok(box, `square ${square} is drawn`);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

async function plies(pages, n) {
  for (const [i, p] of pages.entries()) {
    try {
      await p.waitForSelector(`#room[data-ply="${n}"]`, { timeout: 15_000 });
    } catch (e) {
      await shot(p, `insect-failed-${i}`);
      throw new Error(`page ${i} never showed ply ${n} (it shows ${await p.getAttribute('#room', 'data-ply')}): ${e.message}`);
    }
  }
}

/** Plays `move` ("e2-e3") on `page`: the piece, then (once its destinations are marked) the destination. */
async function play(page, move) {
  const [from, to] = move.split('-');
  await page.waitForSelector(`.board.insect .piece.movable[data-square="${from}"]`, { timeout: 15_000 });
  await clickSquare(page, from);
  await page.waitForSelector(`.board.insect .target[data-target="${to}"]`, { timeout: 5000 });
  await clickSquare(page, to);
}

const pieceAt = (page, square) => page.$eval(`.board.insect .piece[data-square="${square}"]`, (e) => `${e.dataset.side} ${e.dataset.kind}`).catch(() => null);

// South: the wasp and the tiger beetle step out, the beetle takes north's wasp on c4, south's wasp flies e4-e8 and
// walks d8, d9, through north's mud on d10 onto north's food d11. North: its wasp flies c8-c4 into the beetle's
// reach, then its scorpion walks down the g file.
const LINE = ['e2-e3', 'c10-c9', 'c2-c3', 'c9-c8', 'e3-e4', 'c8-c4', 'c3-c4', 'g11-g10', 'e4-e8', 'g10-g9', 'e8-d8', 'g9-g8', 'd8-d9', 'g8-g7', 'd9-d10', 'g7-g6', 'd10-d11'];

test('insect chess: two players through the lobby with a spectator, a capture, a takeback, a win on the food, the record', async (t) => {
  if (!(await setup(t))) return;
  const a = await person(t, 'ann');
  const b = await person(t, 'bob');
  const s = await person(t, 'sue');

  // The create form offers insect chess with its rules summary; the colours read South and North.
  const openForm = async () => {
    if (!(await a.page.locator('#create-form').count())) await a.page.click('#new-game');
    await a.page.check('#create-form input[name="game"][value="insect"]', { force: true });
  };
  for (const [viewport, scheme, lang] of [[PHONE, 'dark', 'zh'], [DESKTOP, 'light', 'en']]) {
    await look(a.page, viewport, scheme, lang);
    await openForm();
    if (!(await a.page.$('#insect-rules[open]'))) await a.page.click('#insect-rules summary');
    await a.page.waitForTimeout(150);
    await shot(a.page, `insect-create-${viewport === DESKTOP ? 'desktop' : 'phone'}-${lang}-${scheme}`);
  }
  assert.match(await a.page.textContent('#create-form input[name="colour"][value="black"] + span'), /South/);
  assert.match(await a.page.textContent('#create-form input[name="colour"][value="white"] + span'), /North/);
  assert.match(await a.page.textContent('#insect-rules'), /diving beetle takes the scorpion/);
  // Another game's colours are black and white again.
  await a.page.check('#create-form input[name="game"][value="othello"]', { force: true });
  assert.match(await a.page.textContent('#create-form input[name="colour"][value="black"] + span'), /^Black$/);
  await a.page.check('#create-form input[name="game"][value="insect"]', { force: true });
  await a.page.click('#create-submit');
  await a.page.waitForURL(/#\/room\/[^/]+$/);
  await a.page.waitForSelector('#room[data-state="waiting"]');
  const room = decodeURIComponent(a.page.url().split('#/room/')[1]);
  assert.match(await a.page.textContent('#room-rules'), /Insect chess/);

  // Bob joins from the lobby, whose row names the game.
  await b.page.goto(`${server.url}/#/`);
  const row = b.page.locator(`#waiting-rooms [data-room="${room}"]`);
  await row.waitFor({ timeout: 15_000 });
  assert.match(await row.textContent(), /Insect chess/);
  await row.locator('a.btn').click();
  for (const p of [a.page, b.page]) await p.waitForSelector('#room[data-state="playing"]', { timeout: 15_000 });
  await s.page.goto(`${server.url}/#/room/${encodeURIComponent(room)}/watch`);
  await s.page.waitForSelector('#room[data-role="spectator"]', { timeout: 15_000 });
  const all = [a.page, b.page, s.page];

  // South (ann) at the bottom of her board, north (bob) at the bottom of his: his board is turned half round.
  assert.equal(await a.page.locator('.board.insect.flipped').count(), 0);
  assert.equal(await b.page.locator('.board.insect.flipped').count(), 1);
  const firstSquare = (p) => p.$eval('.board.insect .sq', (e) => e.dataset.square);
  assert.equal(await firstSquare(a.page), 'a11', "south's view: a11 top left");
  assert.equal(await firstSquare(b.page), 'g1', "north's view: g1 top left");
  await a.page.waitForSelector('.board-wrap.playable');
  assert.match(await a.page.textContent('#prompt'), /Your move \(South\)/);
  assert.match(await b.page.textContent('#prompt'), /Waiting for .* \(South\)/);
  assert.match(await s.page.textContent('#prompt'), /South to move/);
  assert.doesNotMatch(await s.page.textContent('#prompt'), /Black|White/);
  assert.deepEqual((await a.page.$$eval('.board.insect .piece.movable', (els) => els.map((e) => e.dataset.square))).sort(), ['a1', 'b1', 'c2', 'e2', 'f1', 'g1']);
  assert.equal(await b.page.locator('.board.insect .piece.movable').count(), 0, 'the side not to move sees nothing to move');
  assert.equal(await s.page.locator('.board.insect .piece.movable').count(), 0, 'a spectator sees nothing to move');
  // Choosing the wasp marks its two steps; choosing it again lets it go.
  await clickSquare(a.page, 'e2');
  await a.page.waitForSelector('.board.insect .piece.chosen[data-square="e2"]');
  assert.deepEqual((await a.page.$$eval('.board.insect .target', (els) => els.map((e) => e.dataset.target))).sort(), ['e3', 'f2']);
  assert.match(await a.page.textContent('#prompt'), /Your wasp on e2/);
  await shots(a.page, 'chosen', [[DESKTOP, 'light', 'en'], [PHONE, 'dark', 'zh']]);
  await clickSquare(a.page, 'e2');
  assert.equal(await a.page.locator('.board.insect .target').count(), 0);

  for (let i = 0; i < LINE.length; i++) {
    const mover = i % 2 ? b.page : a.page;
    if (i === 5) {
      // North's wasp on c8 may fly over the pond to c4: the flight is marked and drawn.
      await clickSquare(b.page, 'c8');
      await b.page.waitForSelector('.board.insect .target[data-target="c4"]');
      assert.equal(await b.page.locator('.board.insect .flight').count(), 1, 'the flight over the pond is drawn');
      await shots(b.page, 'flight-north', [[DESKTOP, 'dark', 'en'], [PHONE, 'light', 'zh']]);
      await clickSquare(b.page, 'c4');
    } else {
      await play(mover, LINE[i]);
    }
    await plies(all, i + 1);
    if (i === 1) {
      // North takes back its first move (south accepts) and plays it again.
      await b.page.click('#takeback');
      await a.page.waitForSelector('[data-offer="takeback"]', { timeout: 15_000 });
      await a.page.click('[data-offer="takeback"] .btn.primary');
      await plies(all, 1);
      assert.equal(await pieceAt(s.page, 'c10'), 'north wasp', 'the wasp is back on c10');
      await play(b.page, LINE[1]);
      await plies(all, 2);
    }
    if (i === 6) {
      // The tiger beetle took the wasp: on every board, and by south's clock.
      assert.equal(await pieceAt(s.page, 'c4'), 'south tiger_beetle');
      await s.page.waitForSelector('[data-taken="black"] .taken-piece[data-kind="wasp"]');
      assert.equal(await s.page.locator('[data-taken="white"] .taken-piece').count(), 0);
      assert.match(await s.page.textContent('#insect-last'), /South tiger beetle c3-c4 took the wasp/);
      assert.equal(await s.page.locator('.board.insect .piece').count(), 11);
      await shots(s.page, 'capture');
      await shots(b.page, 'north', [[DESKTOP, 'light', 'en'], [PHONE, 'dark', 'zh']]);
    }
  }
  for (const p of all) await p.waitForSelector('#game-over', { timeout: 15_000 });
  assert.match(await a.page.textContent('#game-over'), /You win/);
  assert.match(await b.page.textContent('#game-over'), /You lose/);
  assert.match(await s.page.textContent('#game-over .go-head'), /South wins/);
  assert.match(await s.page.textContent('#result-sentence'), /\(South\) wins: reached .*'s food/);
  assert.equal(await pieceAt(s.page, 'd11'), 'south wasp');
  assert.deepEqual(await s.page.$$eval('#moves .mv', (els) => els.map((e) => e.textContent)), LINE, 'the move list in the notation');
  await shots(s.page, 'over');
  await shots(a.page, 'over-south', [[PHONE, 'light', 'en']]);

  // The record replays the game and exports the moves.
  const recordHref = await s.page.getAttribute('#game-over a.link', 'href');
  await s.page.goto(`${server.url}/${recordHref}`);
  await s.page.waitForSelector('#record-result', { timeout: 15_000 });
  assert.match(await s.page.textContent('#record-result'), /reached .*food/);
  const exported = await (await fetch(`${server.url}${await s.page.getAttribute('#record-export', 'href')}`)).text();
  assert.ok(exported.includes(LINE.join(' ')), `the export holds the moves: ${exported}`);
  assert.match(await s.page.getAttribute('#record-export', 'download'), /\.txt$/);
  await s.page.click('#record-moves li:nth-child(7)');
  assert.equal(await s.page.locator('.board.insect .piece').count(), 11, 'after the capture');
  assert.equal(await pieceAt(s.page, 'c4'), 'south tiger_beetle');
  await s.page.keyboard.press('End');
  assert.equal(await pieceAt(s.page, 'd11'), 'south wasp');
  await s.page.keyboard.press('Home');
  assert.equal(await s.page.locator('.board.insect .piece').count(), 12);
  await s.page.click('#record-moves li:nth-child(9)');
  await shots(s.page, 'record');
  assert.deepEqual([...a.errors, ...b.errors, ...s.errors], []);
});

test('insect chess: a resignation, the keyboard, the leaderboard pool, the landing page and its rules link, and the computer invited into a waiting room', async (t) => {
  if (!(await setup(t))) return;
  const a = await person(t, 'ann');
  const b = await person(t, 'bob');
  await a.page.click('#new-game');
  await a.page.check('#create-form input[name="game"][value="insect"]', { force: true });
  // Ann takes north this time: bob, joining, is south and moves first.
  await a.page.check('#create-form input[name="colour"][value="white"]', { force: true });
  await a.page.click('#create-submit');
  await a.page.waitForURL(/#\/room\/[^/]+$/);
  const room = decodeURIComponent(a.page.url().split('#/room/')[1]);
  await b.page.goto(`${server.url}/#/room/${encodeURIComponent(room)}`);
  for (const p of [a.page, b.page]) await p.waitForSelector('#room[data-state="playing"]', { timeout: 15_000 });
  assert.equal(await a.page.locator('.board.insect.flipped').count(), 1, 'north (ann) sees the board turned');
  // Bob plays by keyboard: the cursor starts by his pieces; Enter chooses, arrows move.
  await b.page.waitForSelector('.board-wrap.playable');
  await b.page.focus('.board-wrap');
  // The cursor starts on d2 (screen column 3, row 9); left to c2 chooses the tiger beetle, up to c3 moves it.
  await b.page.keyboard.press('ArrowLeft');
  await b.page.keyboard.press('Enter');
  await b.page.waitForSelector('.board.insect .piece.chosen[data-square="c2"]');
  await b.page.keyboard.press('ArrowUp');
  await b.page.keyboard.press('Enter');
  await plies([a.page, b.page], 1);
  assert.equal(await pieceAt(a.page, 'c3'), 'south tiger_beetle');
  a.page.once('dialog', (d) => d.accept());
  await a.page.click('#resign');
  for (const p of [a.page, b.page]) await p.waitForSelector('#game-over', { timeout: 15_000 });
  assert.match(await b.page.textContent('#game-over'), /You win/);
  assert.match(await b.page.textContent('#result-sentence'), /\(South\) wins: .*resigned/);
  assert.doesNotMatch(await b.page.textContent('#result-sentence'), /Black|White/);
  await shots(a.page, 'resigned', [[DESKTOP, 'dark', 'zh'], [PHONE, 'light', 'en']]);
  await a.page.goto(`${server.url}/#/leaderboard/${encodeURIComponent('insect/standard')}`);
  await a.page.waitForTimeout(500);
  await shot(a.page, 'insect-leaderboard');

  // Issue #36: the landing page is every game's: a neutral name, and each game named with its rules a click away.
  await a.page.goto(`${server.url}/#/`);
  await a.page.waitForSelector('#lobby-games .game-card[data-game="insect"]');
  assert.equal(await a.page.textContent('.topbar .brand span'), 'Board Game Hall');
  assert.equal(await a.page.textContent('.hero h1'), 'Board Game Hall');
  assert.doesNotMatch(await a.page.textContent('.hero'), /Gomoku|Five in a row/);
  assert.deepEqual(await a.page.$$eval('#lobby-games .game-card', (els) => els.map((e) => e.dataset.game)), ['gomoku', 'othello', 'draughts', 'insect']);
  await shots(a.page, 'landing', [[DESKTOP, 'light', 'en'], [DESKTOP, 'dark', 'zh'], [PHONE, 'dark', 'en'], [SMALL, 'light', 'zh']]);
  await a.page.click('#lobby-games .game-card[data-game="insect"] .rules-link');
  await a.page.waitForSelector('#rules-page[data-game="insect"] figure[data-figure="cycle"] svg');
  assert.ok(await a.page.isVisible('figure[data-figure="cycle"] svg'), 'the strength cycle is drawn');

  // A waiting casual insect room offers the computer, at insect chess's levels (1–4); it sits down and answers.
  await a.page.goto(`${server.url}/#/`);
  await a.page.click('#new-game');
  await a.page.check('#create-form input[name="game"][value="insect"]', { force: true });
  await a.page.click('#create-submit');
  await a.page.waitForSelector('#room[data-state="waiting"]');
  await a.page.waitForSelector('#invite-computer');
  assert.match(await a.page.textContent('#room-rules-link'), /How to play/);
  assert.equal(await a.page.getAttribute('#room-rules-link', 'href'), '#/rules/insect');
  assert.equal(await a.page.locator('#invite-level option').count(), 4);
  await a.page.selectOption('#invite-level', '2');
  await a.page.click('#invite-computer');
  await a.page.waitForSelector('#room[data-state="playing"]', { timeout: 15_000 });
  assert.equal(await a.page.textContent('.pcard.top .pname'), 'Computer · level 2');
  await play(a.page, 'e2-e3');
  await plies([a.page], 2);
  assert.deepEqual([...a.errors, ...b.errors], []);
});
