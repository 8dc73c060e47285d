// End to end against the real server binary: two registered players play a
// Renju game with swap after three to a five by clicking the board, a third browser watches it live and sees
// the same final position, and a player whose connection drops mid-game resumes from the last version seen.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserAndServer, newPerson, shot, clickPoint, stones } from './harness.js';

let browser;
let server;

/** Starts Chromium and the server once for this file; a test that cannot run says why and fails. */
// The leaderboard check plays many rated games between the same two accounts, which the repeated-pairing
// rule (docs/accounts.md, tested in server/tests/rooms/rated_integrity.rs) would leave unrated: lifted here.
const setup = browserAndServer({ args: ['--rated-repeat-limit', '1000'] }, (b, s) => {
  browser = b;
  server = s;
}, async (server) => {
  const index = await fetch(`${server.url}/`);
  const body = await index.text();
  assert.ok(index.ok && body.includes('js/main.js'), `the server does not serve web-client/ at / (HTTP ${index.status})`);
  // The rated half of this test needs the accounts API: it must answer, never quietly skip that half.
  const lb = await fetch(`${server.url}/api/leaderboard?pool=renju&limit=1&offset=0`);
  assert.equal(lb.status, 200, 'the accounts API answers');
});

/** A new registered player in a browser context of its own; page errors and console lines are collected. */
const player = (t, label) => newPerson(t, browser, server.url, label, { register: true });

/** Waits until a page's room has had `ply` actions (stones, and the opening's decisions). */
async function plies(page, ply) {
  await page.waitForSelector(`#room[data-ply="${ply}"]`, { timeout: 15_000 });
}

/** Plays `point` on `page` as the ply-th action and waits until every page shows it. */
async function play(page, point, ply, everyone) {
  await page.waitForSelector('.board-wrap.playable', { timeout: 15_000 });
  await clickPoint(page, point);
  for (const p of everyone) await plies(p, ply);
}

async function createRoom(page, { rule = 'renju', opening = 'swap_after_three', rated = false, size = null } = {}) {
  await page.goto(page.url().replace(/#.*$/, '#/'));
  await page.click('#new-game');
  await page.check(`#create-form input[name="rule_set"][value="${rule}"]`, { force: true });
  await page.check(`#create-form input[name="opening"][value="${opening}"]`, { force: true });
  if (size) await page.check(`#create-form input[name="size"][value="${size}"]`, { force: true });
  await page.check('#create-form input[name="tc"][value="fischer"]', { force: true });
  await page.check(`#create-form input[name="rated"][value="${rated ? 'rated' : 'casual'}"]`, { force: true });
  await page.click('#create-submit');
  await page.waitForURL(/#\/room\/[^/]+$/);
  await page.waitForSelector('#room[data-state="waiting"]');
  return decodeURIComponent(page.url().split('#/room/')[1]);
}

test('two players play renju with swap after three to a five while a spectator watches the same game', async (t) => {
  if (!(await setup(t))) return;
  const a = await player(t, 'ann');
  const b = await player(t, 'bob');
  const s = await player(t, 'sue');

  // Registered players play it rated, so the result carries both rating changes.
  const room = await createRoom(a.page, { rated: true });
  await b.page.goto(`${server.url}/#/`);
  const join = b.page.locator(`#waiting-rooms [data-room="${room}"] a.btn`);
  await join.waitFor({ timeout: 15_000 });
  // Ann, Bob and Sue are connected: the lobby counts at least the three of them as online.
  await b.page.waitForFunction(() => Number(/\d+/.exec(document.querySelector('#online-count')?.textContent || '')?.[0]) >= 3, null, { timeout: 15_000 });
  await shot(b.page, 'lobby');
  await join.click();
  await a.page.waitForSelector('#room[data-state="playing"]', { timeout: 15_000 });
  await b.page.waitForSelector('#room[data-state="playing"]', { timeout: 15_000 });
  await s.page.goto(`${server.url}/#/room/${encodeURIComponent(room)}/watch`);
  await s.page.waitForSelector('#room[data-role="spectator"]');
  assert.equal(await s.page.locator('#actions button').count(), 0, 'a spectator has no action controls');
  // Exactly one spectator: the count as a whole number (a bare /1/ would also match 10 or 21).
  await a.page.waitForFunction(() => /(^|\D)1(\D|$)/.test(document.querySelector('#spectators')?.textContent || ''));

  const all = [a.page, b.page, s.page];
  await play(a.page, 'h8', 1, all);
  await play(b.page, 'h9', 2, all);
  await play(a.page, 'i8', 3, all);
  // After move 3 the player holding white (bob) decides; he keeps white.
  await b.page.waitForSelector('#swap-prompt', { timeout: 15_000 });
  assert.equal(await a.page.locator('#swap-prompt').count(), 0, 'only white is asked');
  await b.page.click('#swap-no');
  // The decision is an action of the game too (the page's ply counts actions): stone 4 is action 5.
  await play(b.page, 'b2', 5, all);
  await play(a.page, 'j8', 6, all);
  await play(b.page, 'b4', 7, all);
  await shot(a.page, 'room-mid-game');
  await play(a.page, 'k8', 8, all);
  await play(b.page, 'b6', 9, all);
  await play(a.page, 'l8', 10, all);

  for (const p of all) await p.waitForSelector('#game-over', { timeout: 15_000 });
  assert.match(await a.page.textContent('#game-over'), /You win/);
  assert.match(await b.page.textContent('#game-over'), /You lose/);
  assert.match(await s.page.textContent('#game-over'), /Black wins/);
  const final = await stones(a.page);
  assert.equal(Object.keys(final).length, 9);
  assert.deepEqual(await stones(b.page), final);
  assert.deepEqual(await stones(s.page), final, 'the spectator sees the same final position');
  assert.equal(await s.page.locator('.board .stone.win').count(), 5, 'the winning line is highlighted');
  await shot(a.page, 'game-finished');
  await shot(s.page, 'game-finished-spectator');

  // The finished game's record replays to the same position.
  await a.page.click('#game-over a.link');
  await a.page.waitForSelector('#record-result', { timeout: 15_000 });
  assert.deepEqual(await stones(a.page), final);

  {
    assert.equal(await s.page.locator('#game-over .delta').count(), 2, 'both rating changes are shown');
    assert.match(await s.page.textContent('#game-over'), new RegExp(`${b.name}.*-\\d+`));
    // The seat cards follow the result at once (they used to keep the pre-game 1500 until a new snapshot).
    const after = await s.page.$$eval('#game-over .delta .rating', (els) => els.map((e) => e.textContent.trim()).sort());
    const cards = await s.page.$$eval('.pcard .rating', (els) => els.map((e) => e.textContent.replace('?', '').trim()).sort());
    assert.deepEqual(cards, after, "the spectator's seat cards show the ratings the game left");
    await a.page.goto(`${server.url}/#/player/${encodeURIComponent(a.name)}`);
    await a.page.waitForSelector('.game-row', { timeout: 15_000 });
    assert.match(await a.page.textContent('[data-pool="renju"]'), /\d+\?/, 'one game leaves a provisional renju rating');
    // Its tier shows at once (issue #36), marked provisional like the number.
    assert.match(await a.page.textContent('[data-pool="renju"] .tier.provisional'), /^\S.*\?$/);
    await a.page.waitForSelector('.chart .line');
    await shot(a.page, 'profile');

    // The leaderboard lists established players with three different established opponents (issue #35): Ann and
    // Bob play 15 more rated games over their own sockets, which makes both established in this new pool, but
    // each has one established opponent only, so the board stays empty and each profile says what is missing.
    await playRatedGames(a.page, b.page, 15);
    const board = await (await fetch(`${server.url}/api/leaderboard?pool=renju&limit=50&offset=0`)).json();
    assert.deepEqual(board.entries, [], `leaderboard: ${JSON.stringify(board)}`);
    const mine = (await (await fetch(`${server.url}/api/players/${encodeURIComponent(a.name)}`)).json()).ratings.find((r) => r.pool === 'renju');
    assert.equal(mine.leaderboard.established, true, JSON.stringify(mine));
    assert.equal(mine.leaderboard.established_opponents, 1, JSON.stringify(mine));
    await a.page.goto(`${server.url}/#/leaderboard/renju`);
    await a.page.waitForSelector('.lb-status .empty', { timeout: 15_000 });
    assert.match(await a.page.textContent('.lb-status'), /established players/);
    await shot(a.page, 'leaderboard');
    await a.page.goto(`${server.url}/#/player/${encodeURIComponent(a.name)}`);
    await a.page.waitForFunction(() => /established opponents/.test(document.querySelector('[data-pool="renju"] .lb-progress')?.textContent ?? ''), null, { timeout: 15_000 });
    assert.equal(await a.page.textContent('[data-pool="renju"] .lb-progress'), 'Leaderboard: still needs 1 of 3 different established opponents.');
  }
  assert.deepEqual([...a.errors, ...b.errors, ...s.errors], []);
});

/**
 * Opens a second socket in each page (the session cookie names the player) and plays `games` quick rated renju
 * games between them in one private room, black winning each and colours exchanged by rematch every time.
 */
async function playRatedGames(pageA, pageB, games) {
  const open = () => {
    const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/ws`);
    const waiting = new Map();
    let rid = 0;
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.rid && waiting.has(m.rid)) {
        waiting.get(m.rid)(m);
        waiting.delete(m.rid);
      }
    };
    // One request at a time, paced under the server's message rate limit.
    window.__bot = (msg) => new Promise((resolve) => {
      const id = ++rid;
      waiting.set(id, resolve);
      setTimeout(() => ws.send(JSON.stringify({ ...msg, rid: id })), 60);
    });
    return new Promise((resolve) => { ws.onopen = () => window.__bot({ t: 'hello', version: 1 }).then(resolve); });
  };
  const send = async (page, msg) => {
    const reply = await page.evaluate((m) => window.__bot(m), msg);
    assert.notEqual(reply.t, 'error', `${JSON.stringify(msg)} -> ${JSON.stringify(reply)}`);
    return reply;
  };
  await pageA.evaluate(open);
  await pageB.evaluate(open);
  const created = await send(pageA, { t: 'create_room', rules: { rule_set: 'renju' }, rated: true, public: false, colour: 'black' });
  const room = created.room.id;
  await send(pageB, { t: 'join', room });
  const blackStones = ['h8', 'i8', 'j8', 'k8', 'l8'];
  const whiteStones = ['a1', 'a3', 'a5', 'a7'];
  for (let game = 0; game < games; game++) {
    const [black, white] = game % 2 === 0 ? [pageA, pageB] : [pageB, pageA];
    for (let ply = 1; ply <= 9; ply++) {
      const mover = ply % 2 === 1 ? black : white;
      const point = ply % 2 === 1 ? blackStones[(ply - 1) / 2] : whiteStones[ply / 2 - 1];
      await send(mover, { t: 'place', room, point, ply });
    }
    if (game + 1 < games) {
      await send(white, { t: 'offer_rematch', room });
      await send(black, { t: 'answer_rematch', room, accept: true });
    }
  }
}

test('a player whose connection drops mid-game comes back and catches up on the moves played meanwhile', async (t) => {
  if (!(await setup(t))) return;
  const a = await player(t, 'cat');
  const b = await player(t, 'dan');
  const room = await createRoom(a.page, { rule: 'freestyle', opening: 'none' });
  await b.page.goto(`${server.url}/#/room/${encodeURIComponent(room)}`);
  await a.page.waitForSelector('#room[data-state="playing"]', { timeout: 15_000 });
  await play(a.page, 'h8', 1, [a.page, b.page]);
  await play(b.page, 'g7', 2, [a.page, b.page]);

  // Cut bob off: the socket closes and reconnect attempts fail until the network "returns". The dead address is
  // on this origin (a path that is no socket), since the page's CSP lets it open sockets to nowhere else.
  await b.page.evaluate(() => {
    const conn = window.__app.conn;
    conn.realUrl = conn.url;
    conn.url = conn.url.replace(/\/ws$/, '/ws-offline');
    conn.drop();
  });
  await b.page.waitForSelector('.banner:not([hidden])');
  await shot(b.page, 'room-reconnecting');
  await a.page.waitForFunction(() => /\d+s/.test(document.querySelector('[data-grace="white"]')?.textContent || ''), null, { timeout: 15_000 });
  await shot(a.page, 'room-opponent-disconnected');
  await play(a.page, 'j9', 3, [a.page]);
  await b.page.evaluate(() => {
    window.__app.conn.url = window.__app.conn.realUrl;
  });

  await plies(b.page, 3);
  await b.page.waitForSelector('.banner[hidden]', { state: 'attached' });
  await a.page.waitForFunction(() => (document.querySelector('[data-grace="white"]')?.textContent || '') === '');
  await play(b.page, 'g8', 4, [a.page, b.page]);
  assert.deepEqual(await stones(b.page), await stones(a.page));

  // A reload is the harshest drop: the page comes back as the same player, in the same seat.
  await b.page.reload();
  await b.page.waitForSelector('#room[data-role="player"][data-ply="4"]', { timeout: 15_000 });
  await play(a.page, 'j10', 5, [a.page, b.page]);
  await play(b.page, 'g9', 6, [a.page, b.page]);
  assert.deepEqual(await stones(b.page), await stones(a.page));
  assert.deepEqual([...a.errors, ...b.errors], []);
});

test('takeback, draw offer, chat, resignation and rematch go through the opponent', async (t) => {
  if (!(await setup(t))) return;
  const a = await player(t, 'eve');
  const b = await player(t, 'fay');
  // On Gomocup's 20x20 board (#37): offered for freestyle, and its far corner t20 is a point like any other.
  const room = await createRoom(a.page, { rule: 'freestyle', opening: 'none', size: 20 });
  // Bob arrives through a watch link while the room still waits, and takes the empty seat.
  await b.page.goto(`${server.url}/#/room/${encodeURIComponent(room)}/watch`);
  await b.page.click('#take-seat');
  await a.page.waitForSelector('#room[data-state="playing"]', { timeout: 15_000 });
  await b.page.waitForSelector('#room[data-role="player"]', { timeout: 15_000 });
  const both = [a.page, b.page];
  await play(a.page, 'h8', 1, both);
  await play(b.page, 'h9', 2, both);

  // Bob asks to take back h9; Ann sees the prompt and accepts.
  await b.page.click('#takeback');
  await a.page.click('[data-offer="takeback"] .btn.primary');
  for (const p of both) await plies(p, 1);
  await play(b.page, 'j9', 2, both);
  await play(a.page, 't20', 3, both);
  await play(b.page, 'a20', 4, both);
  assert.equal(await a.page.locator('.board .stone[data-point="t20"]').count(), 1, 'a stone on the 20x20 board\'s far corner');
  assert.equal(await a.page.$$eval('.board .stone', (els) => els.length), 4);
  await shot(a.page, 'room-20x20');

  // Ann offers a draw; Bob declines and sees the game go on.
  await a.page.click('#offer-draw');
  await b.page.click('[data-offer="draw"] .btn:not(.primary)');
  await a.page.waitForSelector('#offer-draw:not([disabled])');

  await b.page.fill('.chatform input', 'good luck 你好');
  await b.page.press('.chatform input', 'Enter');
  await a.page.waitForFunction(() => document.querySelector('#chat-log')?.textContent.includes('good luck 你好'));

  a.page.once('dialog', (d) => d.accept());
  await a.page.click('#resign');
  for (const p of both) await p.waitForSelector('#game-over', { timeout: 15_000 });
  assert.match(await a.page.textContent('#game-over'), /You lose/);
  assert.equal(await b.page.textContent('#game-over .go-reason'), `${b.name} wins: ${a.name} resigned`);

  // A rematch starts a new game with colours exchanged.
  await b.page.click('#rematch');
  await a.page.click('[data-offer="rematch"] .btn.primary');
  for (const p of both) await p.waitForSelector('#room[data-state="playing"][data-ply="0"]', { timeout: 15_000 });
  await b.page.waitForSelector('.pcard.bottom[data-colour="black"]');
  await play(b.page, 'h8', 1, both);
  assert.deepEqual([...a.errors, ...b.errors], []);
});

test("the spectators' chat reaches a player only after the player shows it", async (t) => {
  if (!(await setup(t))) return;
  const a = await player(t, 'gil');
  const b = await player(t, 'hue');
  const s = await player(t, 'ida');
  const room = await createRoom(a.page, { rule: 'freestyle', opening: 'none' });
  await b.page.goto(`${server.url}/#/room/${encodeURIComponent(room)}`);
  await a.page.waitForSelector('#room[data-state="playing"]', { timeout: 15_000 });
  await s.page.goto(`${server.url}/#/room/${encodeURIComponent(room)}/watch`);
  await s.page.waitForSelector('#room[data-role="spectator"]');
  assert.equal(await s.page.isVisible('#show-spectator-chat'), false, 'spectators always see their chat');
  const say = async (page, text) => {
    await page.fill('.chatform input', text);
    await page.press('.chatform input', 'Enter');
    await page.waitForFunction((x) => document.querySelector('#chat-log')?.textContent.includes(x), text, { timeout: 15_000 });
  };
  const log = (page) => page.textContent('#chat-log');

  await say(s.page, 'black is better');
  // Ann's own message comes after anything the server sent her before it.
  await say(a.page, 'thanks for watching');
  assert.doesNotMatch(await log(a.page), /black is better/, 'hidden from the players until they ask');
  await s.page.waitForFunction(() => document.querySelector('#chat-log')?.textContent.includes('thanks for watching'));

  await a.page.check('#show-spectator-chat input');
  // The same socket carries the choice and then this message: once it is back, the server has the choice.
  await say(a.page, 'now I listen');
  await say(s.page, 'nice shape');
  await a.page.waitForFunction(() => [...document.querySelectorAll('#chat-log .msg.spec')].some((m) => m.textContent.includes('nice shape')), null, { timeout: 15_000 });
  // Showing it brought what the spectators said before (the answer is a snapshot with their history), in order.
  const spec = await a.page.$$eval('#chat-log .msg.spec', (ms) => ms.map((m) => m.textContent));
  assert.deepEqual(spec.map((x) => x.replace(/^\S+ /, '')), ['black is better', 'nice shape']);
  await say(b.page, 'ready');
  assert.doesNotMatch(await log(b.page), /nice shape/, 'Bob did not ask');

  // Bob mutes the room: nothing is shown until he unmutes, then the players' chat is there again.
  await b.page.check('#mute-chat input');
  await say(a.page, 'still there?');
  await b.page.waitForSelector('#chat-muted');
  assert.doesNotMatch(await log(b.page), /still there/);
  await b.page.uncheck('#mute-chat input');
  await b.page.waitForFunction(() => document.querySelector('#chat-log')?.textContent.includes('still there?'), null, { timeout: 15_000 });
  assert.deepEqual([...a.errors, ...b.errors, ...s.errors], []);
});

// Issue #14 item 20: every sign-in logged "WebSocket is already in CLOSING or CLOSED state" (the page sent on the
// socket it had just closed to reconnect as the account).
test('signing out and in again logs nothing about a closing socket', async (t) => {
  if (!(await setup(t))) return;
  const a = await player(t, 'cid');
  await a.page.goto(`${server.url}/#/player/${a.name}`);
  await a.page.click('#profile-signout');
  await a.page.waitForFunction(() => window.__app?.you?.guest === true, null, { timeout: 15_000 });
  assert.equal(await a.page.locator('#profile-signout').count(), 0, 'no "Sign out" once signed out');
  await a.page.goto(`${server.url}/#/login`);
  await a.page.fill('#username', a.name);
  await a.page.fill('#password', 'correct horse battery');
  await a.page.click('#auth-submit');
  await a.page.waitForFunction((n) => window.__app?.you?.name === n, a.name, { timeout: 15_000 });
  await a.page.waitForSelector('#waiting-rooms');
  // The lobby's subscription went out on the new socket and was answered.
  await a.page.waitForSelector('#online-count', { timeout: 15_000 });
  assert.deepEqual(a.console.filter((l) => /CLOSING or CLOSED/.test(l)), []);
  assert.deepEqual(a.errors, []);
});

// Issue #14 item 16: the server keeps the room's chat and sends it in every snapshot. This test needs that server
// part (the `chat` field of the room snapshot); until it is merged it fails, as it should.
test('the chat survives a reload and a late spectator reads the players\' history', async (t) => {
  if (!(await setup(t))) return;
  const a = await player(t, 'rex');
  const b = await player(t, 'roy');
  const room = await createRoom(a.page);
  await b.page.goto(`${server.url}/#/room/${encodeURIComponent(room)}`);
  await a.page.waitForSelector('#room[data-state="playing"]', { timeout: 15_000 });
  const say = async (page, text) => {
    await page.fill('.chatform input', text);
    await page.press('.chatform input', 'Enter');
    await page.waitForFunction((x) => document.querySelector('#chat-log')?.textContent.includes(x), text, { timeout: 15_000 });
  };
  await say(a.page, 'hello from rex');
  await say(b.page, 'hi rex');
  const lines = (page) => page.$$eval('#chat-log .msg', (els) => els.map((e) => e.textContent));
  await a.page.reload();
  await a.page.waitForSelector('#room[data-state="playing"]', { timeout: 15_000 });
  await a.page.waitForFunction(() => document.querySelectorAll('#chat-log .msg').length >= 2, null, { timeout: 15_000 });
  assert.deepEqual(await lines(a.page), [`${a.name} hello from rex`, `${b.name} hi rex`]);
  const s = await player(t, 'rio');
  await s.page.goto(`${server.url}/#/room/${encodeURIComponent(room)}/watch`);
  await s.page.waitForSelector('#room[data-role="spectator"]');
  await s.page.waitForFunction(() => document.querySelectorAll('#chat-log .msg').length >= 2, null, { timeout: 15_000 });
  assert.deepEqual(await lines(s.page), [`${a.name} hello from rex`, `${b.name} hi rex`]);
  await shot(s.page, 'room-chat-history-spectator');
});
