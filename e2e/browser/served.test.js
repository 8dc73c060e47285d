// End to end against the real server binary, for the games beyond Gomoku and the computer opponent: an Othello
// game to its wipe-out through clicks while a spectator watches, then a rematch to a forced pass, a takeback and a
// resignation; a short draughts game with a mandatory triple capture and a choice between two capture routes
// (picked on the drawn line, then, after a takeback, square by square), ended by an agreed draw; and a Gomoku game
// against the computer at level 1 played through clicks to a five. Screenshots at desktop and phone widths, in
// English and Chinese, light and dark, go to target/screenshots/served-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserAndServer, newPerson, shot, clickPoint, stones } from './harness.js';

let browser;
let server;

/** Starts Chromium and the server (the computer seeded, so its replies are the documented ones) once for this file. */
const setup = browserAndServer({ args: ['--computer-seed', '17'] }, (b, s) => {
  browser = b;
  server = s;
});

const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };

/** A browser context as a guest (or, with `register`, a new account) on the lobby; page errors are collected. */
const person = (t, label, options) => newPerson(t, browser, server.url, label, options);

/** Creates a room of `game` through the lobby's form; returns its id. */
async function createRoom(page, game, fields = {}) {
  await page.goto(page.url().replace(/#.*$/, '#/'));
  await page.click('#new-game');
  await page.check(`#create-form input[name="game"][value="${game}"]`, { force: true });
  for (const [name, value] of Object.entries(fields)) await page.check(`#create-form input[name="${name}"][value="${value}"]`, { force: true });
  await shot(page, `served-create-${game}`);
  await page.click('#create-submit');
  await page.waitForURL(/#\/room\/[^/]+$/);
  await page.waitForSelector('#room[data-state="waiting"]');
  return decodeURIComponent(page.url().split('#/room/')[1]);
}

/** Joins `room` from the lobby list (which names the game) and waits for the game to start on both pages. */
async function joinFromLobby(page, room, gameWords) {
  await page.goto(`${server.url}/#/`);
  const row = page.locator(`#waiting-rooms [data-room="${room}"]`);
  await row.waitFor({ timeout: 15_000 });
  assert.match(await row.textContent(), gameWords, 'the lobby row names the game');
  await shot(page, `served-lobby-${room}`);
  await row.locator('a.btn').click();
  await page.waitForSelector('#room[data-state="playing"]', { timeout: 15_000 });
}

async function watch(page, room) {
  await page.goto(`${server.url}/#/room/${encodeURIComponent(room)}/watch`);
  await page.waitForSelector('#room[data-role="spectator"]', { timeout: 15_000 });
}

/** Clicks the middle of a square of a grid board (an Othello square "d3", a draughts square 32) as a player would. */
async function clickSquare(page, square) {
  const box = await page.locator(`.board-wrap svg [data-square="${square}"]`).first().boundingBox();
  assert.ok(box, `square ${square} is drawn`);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

async function plies(pages, n) {
  for (const [i, p] of pages.entries()) {
    try {
      await p.waitForSelector(`#room[data-ply="${n}"]`, { timeout: 15_000 });
    } catch (e) {
      await shot(p, `served-failed-${i}`);
      throw new Error(`page ${i} never showed ply ${n} (it shows ${await p.getAttribute('#room', 'data-ply')}): ${e.message}`);
    }
  }
}

/** Switches a page's width, theme and language (the room relabels itself in place). */
async function look(page, viewport, scheme, lang) {
  await page.setViewportSize(viewport);
  await page.emulateMedia({ colorScheme: scheme });
  await page.evaluate(async (l) => (await import('/js/i18n.js')).setLang(l), lang);
}

/** Screenshots of one page in four looks that cover both widths, both languages and both themes; back to desktop. */
async function shots(page, name) {
  // Let the last move's animation finish first (a relabelled board draws it again while it lasts).
  await page.waitForTimeout(800);
  for (const [viewport, scheme, lang] of [[DESKTOP, 'light', 'en'], [DESKTOP, 'dark', 'zh'], [PHONE, 'dark', 'en'], [PHONE, 'light', 'zh']]) {
    await look(page, viewport, scheme, lang);
    await page.waitForTimeout(150);
    await shot(page, `served-${name}-${viewport === DESKTOP ? 'desktop' : 'phone'}-${lang}-${scheme}`);
  }
  await look(page, DESKTOP, 'light', 'en');
}

/** The discs of an Othello board on a page as the 64-character text the view uses. */
async function othelloDiscs(page) {
  return page.$$eval('.board.othello .disc', (els) => els.map((e) => `${e.dataset.square}:${e.classList.contains('black') ? 'b' : 'w'}`).sort().join(' '));
}

test('Othello: a game to its wipe-out through clicks with a spectator, then a rematch to a forced pass, a takeback and a resignation', async (t) => {
  if (!(await setup(t))) return;
  const a = await person(t, 'ann');
  const b = await person(t, 'bob');
  const s = await person(t, 'sue');
  const room = await createRoom(a.page, 'othello', { scoring: 'european' });
  assert.match(await a.page.textContent('#room-rules'), /Othello · European scoring/);
  await joinFromLobby(b.page, room, /Othello/);
  await a.page.waitForSelector('#room[data-state="playing"]');
  await watch(s.page, room);
  const all = [a.page, b.page, s.page];

  // Black (ann, the creator) moves first: her legal squares are dotted, nobody else's board has dots.
  await a.page.waitForSelector('.board-wrap.playable');
  assert.deepEqual((await a.page.$$eval('.board.othello .legal', (els) => els.map((e) => e.dataset.square))).sort(), ['c4', 'd3', 'e6', 'f5']);
  assert.equal(await b.page.locator('.board.othello .legal').count(), 0, 'the side not to move sees no dots');
  assert.equal(await s.page.locator('.board.othello .legal').count(), 0, 'a spectator sees no dots');
  assert.equal(await a.page.textContent('[data-discs="black"]'), '2');

  // The shortest game: black wipes white out in nine plies.
  const line = ['d3', 'c3', 'b3', 'd2', 'e1', 'd6', 'd7', 'e3', 'f4'];
  for (let i = 0; i < line.length; i++) {
    const mover = i % 2 ? b.page : a.page;
    await mover.waitForSelector(`.board.othello .legal[data-square="${line[i]}"]`, { timeout: 15_000 });
    await clickSquare(mover, line[i]);
    await plies(all, i + 1);
    if (i === 0) {
      // The disc d3 outflanked turns on every board, the spectator's too.
      await s.page.waitForSelector('.board.othello .disc.flip[data-square="d4"]', { timeout: 5000 });
      assert.equal(await s.page.textContent('[data-discs="black"]'), '4');
      assert.equal(await s.page.textContent('[data-discs="white"]'), '1');
    }
    if (i === 4) await shots(s.page, 'othello');
  }
  for (const p of all) await p.waitForSelector('#game-over', { timeout: 15_000 });
  assert.match(await a.page.textContent('#game-over'), /You win/);
  assert.match(await b.page.textContent('#game-over'), /You lose/);
  assert.match(await s.page.textContent('#result-sentence'), /wins \d+–\d+ \(no discs left\)/);
  assert.equal(await othelloDiscs(s.page), await othelloDiscs(a.page), 'the spectator sees the same final position');
  assert.equal(await s.page.locator('.board.othello .disc.white').count(), 0);
  assert.deepEqual(await s.page.$$eval('#moves .mv', (els) => els.map((e) => e.textContent)), line, 'the move list in Othello notation');
  await shot(s.page, 'served-othello-over');

  // The record replays the game and offers its export in the usual move-list form.
  const recordHref = await a.page.getAttribute('#game-over a.link', 'href');
  await s.page.goto(`${server.url}/${recordHref}`);
  await s.page.waitForSelector('#record-result', { timeout: 15_000 });
  assert.equal(await s.page.textContent('#record-transcript'), line.join(''));
  const exported = await (await fetch(`${server.url}${await s.page.getAttribute('#record-export', 'href')}`)).text();
  // A PGN-like header (players, date, result, scoring, final discs), a blank line, then the move list.
  const [tags, moves] = exported.split('\n\n');
  assert.match(tags, /^\[Event "Casual game"\]\n/);
  assert.match(tags, /\[Result "1-0"\]/);
  assert.match(tags, /\[Scoring "european"\]/);
  assert.equal(moves.trim(), line.join(''));
  assert.equal(await s.page.locator('#record-moves li').count(), 9);
  await shot(s.page, 'served-othello-record');

  // A rematch exchanges the colours: bob is black now. Eight discs lead to a position where black (bob) has no move.
  await a.page.click('#rematch');
  await b.page.waitForSelector('[data-offer="rematch"]', { timeout: 15_000 });
  await b.page.click('[data-offer="rematch"] .btn.primary');
  await a.page.waitForSelector('#room[data-state="playing"][data-ply="0"]', { timeout: 15_000 });
  await b.page.waitForSelector('#room[data-state="playing"][data-ply="0"]', { timeout: 15_000 });
  const toPass = ['d3', 'c3', 'b3', 'b2', 'f5', 'a3', 'a1', 'c1'];
  for (let i = 0; i < toPass.length; i++) {
    const mover = i % 2 ? a.page : b.page;
    await mover.waitForSelector(`.board.othello .legal[data-square="${toPass[i]}"]`, { timeout: 15_000 });
    await clickSquare(mover, toPass[i]);
  }
  // The room passed for black at once: nine actions, white to move again, and everyone is told.
  await plies([a.page, b.page], 9);
  for (const p of [a.page, b.page]) await p.waitForSelector('#pass-notice', { timeout: 15_000 });
  assert.match(await b.page.textContent('#pass-notice'), new RegExp(`${b.name} has no move and passes: ${a.name} plays again`));
  assert.equal(await a.page.locator('#prompt .turn').count(), 1, 'white is to move again');
  assert.equal((await a.page.$$eval('#moves .mv', (els) => els.map((e) => e.textContent))).at(-1), 'pass');
  await shots(b.page, 'othello-pass');

  // White takes back c1 (and the pass after it); black accepts: eight actions, c1 legal again for white.
  await a.page.click('#takeback');
  await b.page.waitForSelector('[data-offer="takeback"]', { timeout: 15_000 });
  await b.page.click('[data-offer="takeback"] .btn.primary');
  await plies([a.page, b.page], 7);
  await a.page.waitForSelector('.board.othello .legal[data-square="c1"]', { timeout: 15_000 });
  assert.equal(await a.page.locator('#pass-notice').count(), 0);

  // White resigns.
  a.page.once('dialog', (d) => d.accept());
  await a.page.click('#resign');
  for (const p of [a.page, b.page]) await p.waitForSelector('#game-over', { timeout: 15_000 });
  assert.match(await b.page.textContent('#game-over'), /You win/);
  assert.deepEqual([...a.errors, ...b.errors, ...s.errors], []);
});

/** The midpoint of the last stretch of a drawn draughts route, on screen (routes part there). */
async function routeEnd(page, move) {
  return page.evaluate((mv) => {
    const line = document.querySelector(`.board.draughts .route[data-move="${mv}"] .line`);
    const pts = line.getAttribute('points').split(' ').map((p) => p.split(',').map(Number));
    const [p, q] = [pts[pts.length - 2], pts[pts.length - 1]];
    const m = line.ownerSVGElement.getScreenCTM();
    const at = new DOMPoint((p[0] + q[0]) / 2, (p[1] + q[1]) / 2).matrixTransform(m);
    return { x: at.x, y: at.y };
  }, move);
}

test('draughts: a mandatory triple capture and a choice of two routes through clicks with a spectator, a takeback and an agreed draw', async (t) => {
  if (!(await setup(t))) return;
  const a = await person(t, 'ann');
  const b = await person(t, 'bob');
  const s = await person(t, 'sue');
  // Ann creates and takes black (the default); bob holds white and moves first.
  const room = await createRoom(a.page, 'draughts');
  await joinFromLobby(b.page, room, /draughts/);
  await a.page.waitForSelector('#room[data-state="playing"]');
  await watch(s.page, room);
  const all = [a.page, b.page, s.page];
  await b.page.waitForSelector('.board-wrap.playable');
  assert.equal(await b.page.locator('.board.draughts .dark.movable').count(), 5, 'white may move the men of 31–35');

  const quiet = ['31-26', '16-21', '33-29', '19-23', '35-30', '17-22'];
  for (let i = 0; i < quiet.length; i++) {
    const mover = i % 2 ? a.page : b.page;
    const [from, to] = quiet[i].split('-');
    await mover.waitForSelector(`.board.draughts .dark.movable`, { timeout: 15_000 });
    await clickSquare(mover, from);
    await mover.waitForSelector('.board.draughts .target-dot', { timeout: 5000 });
    await clickSquare(mover, to);
    await plies(all, i + 1);
  }
  // White must capture: only 26 may move, and its route over 21, 22 and 23 is drawn once 26 is chosen.
  await b.page.waitForSelector('.board.draughts .dark.movable');
  assert.deepEqual(await b.page.$$eval('.board.draughts .dark.movable', (els) => els.map((e) => e.closest('[data-square]').dataset.square)), ['26']);
  await clickSquare(b.page, 26);
  await b.page.waitForSelector('.board.draughts .route[data-move="26x17x28x19"]');
  assert.equal(await b.page.locator('.board.draughts .taken').count(), 3, 'the three pieces it takes are crossed');
  // Its end square alone is enough: one route ends there.
  await clickSquare(b.page, 19);
  await plies(all, 7);
  assert.equal((await s.page.$$eval('#moves .mv', (els) => els.map((e) => e.textContent))).at(-1), '26x17x28x19');
  assert.equal(await s.page.textContent('[data-pieces="black"]'), '17');

  // Black takes back on 19 in two ways, 13x24x33 or 13x24x35: both routes are drawn, with a button each.
  await a.page.waitForSelector('.board-wrap.playable');
  await clickSquare(a.page, 13);
  await a.page.waitForSelector('.board.draughts .route[data-move="13x24x35"]');
  assert.deepEqual((await a.page.$$eval('.board.draughts .route', (els) => els.map((e) => e.dataset.move))).sort(), ['13x24x33', '13x24x35']);
  assert.match(await a.page.textContent('#routes-hint'), /2 capture routes/);
  await shots(a.page, 'draughts-routes');
  // A click on the drawn line of one route is that move.
  const end = await routeEnd(a.page, '13x24x35');
  await a.page.mouse.click(end.x, end.y);
  await plies(all, 8);
  assert.equal((await s.page.$$eval('#moves .mv', (els) => els.map((e) => e.textContent))).at(-1), '13x24x35');
  assert.match(await s.page.textContent('#moves'), /4\.\s*26x17x28x19/, 'the move list in PDN, numbered by pairs');

  // Black takes it back (white accepts) and picks the other route square by square.
  await a.page.click('#takeback');
  await b.page.waitForSelector('[data-offer="takeback"]', { timeout: 15_000 });
  await b.page.click('[data-offer="takeback"] .btn.primary');
  await plies(all, 7);
  await a.page.waitForSelector('.board-wrap.playable');
  for (const sq of [13, 24]) await clickSquare(a.page, sq);
  assert.match(await a.page.textContent('#path-prompt'), /13–24/);
  await clickSquare(a.page, 33);
  await plies(all, 8);
  assert.equal((await s.page.$$eval('#moves .mv', (els) => els.map((e) => e.textContent))).at(-1), '13x24x33');
  await shots(s.page, 'draughts');

  // White offers a draw, black accepts.
  await b.page.click('#offer-draw');
  await a.page.waitForSelector('[data-offer="draw"]', { timeout: 15_000 });
  await a.page.click('[data-offer="draw"] .btn.primary');
  for (const p of all) await p.waitForSelector('#game-over', { timeout: 15_000 });
  assert.match(await s.page.textContent('#game-over'), /Draw/i);

  // The record replays it and exports PDN.
  const livePieces = await s.page.locator('.board.draughts .piece').count();
  const recordHref = await s.page.getAttribute('#game-over a.link', 'href');
  await s.page.goto(`${server.url}/${recordHref}`);
  await s.page.waitForSelector('#record-result', { timeout: 15_000 });
  const pdn = await (await fetch(`${server.url}${await s.page.getAttribute('#record-export', 'href')}`)).text();
  assert.match(pdn, /\[GameType "20"\]/);
  assert.match(pdn, /4\. 26x17x28x19 13x24x33/);
  await s.page.click('#record-moves li:nth-child(8)');
  assert.equal(await s.page.locator('.board.draughts .piece').count(), livePieces, 'the record after 8 moves shows the final position');
  assert.equal(livePieces, 35, '40 pieces less the 3 and 2 taken');
  await shot(s.page, 'served-draughts-record');
  assert.deepEqual([...a.errors, ...b.errors, ...s.errors], []);
});

// The documented game against the computer (docs/protocol.md, "A game against the computer"): with the server's
// --computer-seed 17 the computer's replies are these, whatever the machine.
const COMPUTER_GAME = [
  ['h8', 'f7'], ['g9', 'i7'], 'takeback', ['g9', 'j6'], ['h9', 'd6'], 'draw', ['h10', 'h11'], ['i9', 'j9'],
  ['g7', 'j10'], ['h6', 'h7'], ['e9', 'f9'], ['f8', 'i8'], ['i5', null],
];

test('the computer at level 1: a Gomoku game from the lobby through clicks to a five, its seat labelled, thinking shown, the game unrated on the profile', async (t) => {
  if (!(await setup(t))) return;
  const a = await person(t, 'ann', { register: true });
  const levels = await (await fetch(`${server.url}/api/computer`)).json();
  assert.equal(levels.levels.length, 8);

  await a.page.click('#play-computer');
  await a.page.waitForSelector('#computer-form');
  // The level labels are the server's, in the page's language.
  await a.page.waitForFunction(() => document.querySelector('#computer-level option')?.textContent === 'Computer · level 1');
  assert.equal(await a.page.locator('#computer-form input[name="rated"]').count(), 0, 'never rated');
  // The game choice holds the games GET /api/computer lists (every game now).
  await a.page.waitForSelector('#computer-form input[name="game"]', { state: 'attached' });
  assert.deepEqual(await a.page.$$eval('#computer-form input[name="game"]', (els) => els.map((e) => e.value)), ['gomoku', 'othello', 'draughts', 'insect']);
  await shot(a.page, 'served-computer-form-desktop-en-light');
  // In Chinese the labels are the server's Chinese ones (the lobby is drawn again, so the form opened again).
  await look(a.page, PHONE, 'dark', 'zh');
  await a.page.click('#play-computer');
  await a.page.waitForFunction(() => document.querySelector('#computer-level option')?.textContent === '电脑 · 1级');
  await shot(a.page, 'served-computer-form-phone-zh-dark');
  await look(a.page, DESKTOP, 'light', 'en');
  await a.page.click('#play-computer');
  await a.page.waitForFunction(() => document.querySelector('#computer-level option')?.textContent === 'Computer · level 1');
  await a.page.check('#computer-form input[name="rule_set"][value="freestyle"]', { force: true });
  await a.page.check('#computer-form input[name="opening"][value="none"]', { force: true });
  await a.page.check('#computer-form input[name="tc"][value="none"]', { force: true });
  await a.page.check('#computer-form input[name="colour"][value="black"]', { force: true });
  await a.page.selectOption('#computer-level', '1');
  // Every moment the computer's "thinking…" shows is counted, however short its searches are.
  await a.page.evaluate(() => {
    window.__thinking = 0;
    new MutationObserver(() => {
      if (document.querySelector('.thinking')) window.__thinking++;
    }).observe(document.body, { childList: true, subtree: true });
  });
  await a.page.click('#computer-submit');
  await a.page.waitForSelector('#room[data-state="playing"]', { timeout: 15_000 });
  assert.equal(await a.page.textContent('.pcard.top .pname'), 'Computer · level 1');
  assert.match(await a.page.textContent('#vs-computer'), /vs computer · unrated/);

  let ply = 0;
  for (const step of COMPUTER_GAME) {
    if (step === 'takeback') {
      await a.page.click('#takeback');
      ply -= 2;
      await plies([a.page], ply);
      continue;
    }
    if (step === 'draw') {
      await a.page.click('#offer-draw');
      // The computer declines a draw on a nearly empty board, and the page says so.
      await a.page.waitForFunction(() => /Computer · level 1 declined your draw offer/.test(document.querySelector('#toasts')?.textContent || ''), null, { timeout: 15_000 });
      continue;
    }
    const [mine, reply] = step;
    await a.page.waitForSelector('.board-wrap.playable', { timeout: 15_000 });
    await clickPoint(a.page, mine);
    ply += 1;
    if (reply) {
      ply += 1;
      await plies([a.page], ply);
      assert.equal((await stones(a.page))[reply], 'white', `the computer answered ${reply}`);
      if (ply === 8) await shots(a.page, 'computer');
    }
  }
  await a.page.waitForSelector('#game-over', { timeout: 15_000 });
  assert.match(await a.page.textContent('#game-over'), /You win/);
  assert.match(await a.page.textContent('#result-sentence'), /wins with five in a row/);
  assert.equal(await a.page.textContent('.pcard.top .pname'), 'Computer · level 1');
  assert.ok(await a.page.evaluate(() => window.__thinking) > 0, '"thinking…" showed on the computer\'s card');
  await shot(a.page, 'served-computer-over');

  // The profile lists the game as one against the computer, unrated.
  await a.page.goto(`${server.url}/#/player/${encodeURIComponent(a.name)}`);
  await a.page.waitForSelector('.game-row', { timeout: 15_000 });
  assert.match(await a.page.textContent('.game-row'), /Computer · level 1/);
  assert.match(await a.page.textContent('.game-row .vs-computer'), /unrated/);
  await shot(a.page, 'served-computer-profile');
  assert.deepEqual(a.errors, []);
});

test("the computer invited into one's waiting Gomoku room takes the free seat and the game starts; Othello and draughts rooms offer it at their levels", async (t) => {
  if (!(await setup(t))) return;
  const a = await person(t, 'ann');
  await a.page.click('#new-game');
  await a.page.check('#create-form input[name="rule_set"][value="freestyle"]', { force: true });
  await a.page.check('#create-form input[name="opening"][value="none"]', { force: true });
  await a.page.click('#create-submit');
  await a.page.waitForSelector('#room[data-state="waiting"]');
  await a.page.selectOption('#invite-level', '3');
  await a.page.click('#invite-computer');
  await a.page.waitForSelector('#room[data-state="playing"]', { timeout: 15_000 });
  assert.equal(await a.page.textContent('.pcard.top .pname'), 'Computer · level 3');
  assert.match(await a.page.textContent('#vs-computer'), /unrated/);
  // The games the server's computer plays (GET /api/computer, every game now) are offered it too, at their own
  // levels: Othello's and draughts' 1–8 (a game it did not play would offer none: the unit tests of computerGames).
  await createRoom(a.page, 'othello');
  await a.page.waitForSelector('#invite-computer');
  assert.equal(await a.page.locator('#invite-level option').count(), 8);
  await createRoom(a.page, 'draughts');
  await a.page.waitForSelector('#invite-computer');
  assert.equal(await a.page.locator('#invite-level option').count(), 8);
  // Every game's pool has its leaderboard tab; the pool's slash survives the link.
  await a.page.goto(`${server.url}/#/leaderboard`);
  await a.page.click('.tabs a:has-text("Othello")');
  await a.page.waitForSelector('.tabs a.active:has-text("Othello")');
  assert.match(a.page.url(), /#\/leaderboard\/othello%2Fstandard$/);
  await a.page.waitForSelector('.lb-status .empty', { timeout: 15_000 });
  assert.deepEqual(await a.page.$$eval('.tabs a', (els) => els.map((e) => e.textContent)), ['Renju', 'Freestyle', 'Standard', 'Othello', 'Draughts', 'Insect chess']);
  await shot(a.page, 'served-leaderboard-othello');
  assert.deepEqual(a.errors, []);
});
