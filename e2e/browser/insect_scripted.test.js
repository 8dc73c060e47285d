// Insect chess's member in the real room and record pages against a scripted server (issue #32's wire forms):
// the board drawn from a fixed snapshot's view, a piece and a destination (a wasp's flight over the pond) become
// the generic `act` with the notation and the ply, north's board is turned half round, the keyboard plays, the
// captured pieces and the no-capture warning show, and a record replays. No server needed.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { browserOrSkip, launch, serveClient, shot, watchedPage, waitFor } from './harness.js';
import { START_BOARD, applyMove } from '../../web-client/js/games/insect/board.js';

const ORIGIN = 'http://gomoku.test';
let browser;
after(async () => {
  await browser?.close();
});

const seat = (name) => ({ id: name, name, guest: false, rating: 1500, provisional: true, connected: true });
const MOVES = ['e2-e3', 'c10-c9', 'c2-c3', 'c9-c8', 'e3-e4', 'c8-c4', 'c3-c4', 'g11-g10'];
const BOARD = MOVES.reduce((b, m) => applyMove(b, ...m.split('-')), START_BOARD);
const ROOM = {
  id: 'i1', version: 20, game: { game: 'insect' }, time_control: { kind: 'fischer', base_ms: 600_000, increment_ms: 5000 }, rated: false, public: true, game_id: 5,
  state: 'playing', seats: { black: seat('ann'), white: seat('bob') }, phase: 'none', to_act: 'black',
  clocks: { black: { remaining_ms: 500_000 }, white: { remaining_ms: 480_000 }, running: 'black' }, offers: [], spectators: 1, result: null,
  view: { game: 'insect', board: BOARD, to_act: 'black', phase: 'move', legal: ['a1-a2', 'b1-b2', 'c4-b4', 'c4-c3', 'c4-c5', 'c4-d4', 'e4-d4', 'e4-e3', 'e4-e8', 'e4-f4', 'f1-f2', 'g1-g2'], last: 'g11-g10', no_capture: 84, repetitions: 1, ply: 8, actions: MOVES },
};
const GAME = {
  id: 5, public_id: 'rec5', game: { game: 'insect' }, black: { name: 'ann' }, white: { name: 'bob' }, notation: MOVES,
  actions: MOVES.map((m) => ({ notation: m, used_ms: 2100 })), result: { winner: 'white', winner_name: 'bob', reason: 'resign' },
};

async function open(t, { viewport = { width: 1280, height: 860 }, scheme = 'light', lang = 'en', me = 'ann', hash = '#/room/i1' } = {}) {
  if (!browser) {
    const chromium = await browserOrSkip(t);
    if (!chromium) return null;
    browser = await launch(chromium);
  }
  const touch = viewport.width < 600;
  const context = await browser.newContext({ viewport, colorScheme: scheme, hasTouch: touch, isMobile: touch });
  await serveClient(context, ORIGIN, { '/api/games/rec5': (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(GAME) }) });
  if (lang === 'zh') await context.addInitScript(() => localStorage.setItem('gomoku.lang', 'zh'));
  const sent = [];
  await context.routeWebSocket('ws://gomoku.test/ws', (ws) => {
    ws.onMessage((text) => {
      const m = JSON.parse(text);
      sent.push(m);
      const reply = (msg) => ws.send(JSON.stringify({ ...msg, rid: m.rid }));
      if (m.t === 'hello') reply({ t: 'welcome', you: { id: me, name: me, guest: false }, token: 'tok', server_version: 'test' });
      else if (m.t === 'join') reply({ t: 'room', room: ROOM });
      else if (m.rid !== undefined) reply({ t: 'ack' });
    });
  });
  const { page } = await watchedPage(t, context);
  await page.goto(`${ORIGIN}/${hash}`);
  return { page, sent };
}

async function clickSquare(page, square) {
  const box = await page.locator(`.board.insect .sq[data-square="${square}"]`).boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

test('south chooses its wasp and flies it over the pond: `act` with the notation and the ply', async (t) => {
  const o = await open(t);
  if (!o) return;
  const { page, sent } = o;
  await page.waitForSelector('.board-wrap.playable');
  assert.equal(await page.locator('.board.insect.flipped').count(), 0);
  assert.deepEqual((await page.$$eval('.board.insect .piece.movable', (els) => els.map((e) => e.dataset.square))).sort(), ['a1', 'b1', 'c4', 'e4', 'f1', 'g1']);
  // By south's clock, the wasp it took; the no-capture count is near its limit.
  assert.equal(await page.locator('[data-taken="black"] .taken-piece[data-kind="wasp"]').count(), 1);
  assert.match(await page.textContent('#insect-no-capture'), /No capture for 84 plies/);
  await clickSquare(page, 'e4');
  await page.waitForSelector('.board.insect .target[data-target="e8"]');
  assert.deepEqual((await page.$$eval('.board.insect .target', (els) => els.map((e) => e.dataset.target))).sort(), ['d4', 'e3', 'e8', 'f4']);
  assert.equal(await page.locator('.board.insect .flight').count(), 1);
  await shot(page, 'insect-scripted-flight');
  // A tap beside the destinations lets the wasp go and sends nothing.
  await clickSquare(page, 'a9');
  assert.equal(await page.locator('.board.insect .target').count(), 0);
  await clickSquare(page, 'e4');
  await clickSquare(page, 'e8');
  const act = await waitFor(() => sent.find((m) => m.t === 'act'), 'the act frame');
  assert.deepEqual({ ...act, rid: undefined }, { t: 'act', room: 'i1', action: 'e4-e8', at: 8, rid: undefined });
});

test("north's player sees the board turned half round and waits for South, in Chinese on a phone", async (t) => {
  const o = await open(t, { me: 'bob', viewport: { width: 360, height: 740 }, scheme: 'dark', lang: 'zh' });
  if (!o) return;
  const { page } = o;
  await page.waitForSelector('.board.insect.flipped');
  assert.equal(await page.$eval('.board.insect .sq', (e) => e.dataset.square), 'g1');
  assert.match(await page.textContent('#prompt'), /等待 ann（南方）走棋/);
  await shot(page, 'insect-scripted-north-phone-zh-dark');
});

test('the keyboard: arrows move a cursor, Enter chooses the piece and then its destination', async (t) => {
  const o = await open(t);
  if (!o) return;
  const { page, sent } = o;
  await page.waitForSelector('.board-wrap.playable');
  await page.focus('.board-wrap');
  // The cursor starts on d2; left and up twice reach c4 (the tiger beetle); left again is b4.
  for (const k of ['ArrowLeft', 'ArrowUp', 'ArrowUp', 'Enter']) await page.keyboard.press(k);
  await page.waitForSelector('.board.insect .piece.chosen[data-square="c4"]');
  for (const k of ['ArrowLeft', 'Enter']) await page.keyboard.press(k);
  const act = await waitFor(() => sent.find((m) => m.t === 'act'), 'the act frame');
  assert.equal(act.action, 'c4-b4');
});

test('the record replays the moves, the result in South and North', async (t) => {
  const o = await open(t, { hash: '#/game/rec5', scheme: 'dark' });
  if (!o) return;
  const { page } = o;
  await page.waitForSelector('#record-result');
  assert.match(await page.textContent('#record-result'), /bob \(North\) wins: ann resigned/);
  assert.equal(await page.locator('.board.insect .piece').count(), 11, 'the record opens at its end, the wasp taken');
  await page.keyboard.press('Home');
  assert.equal(await page.locator('.board.insect .piece').count(), 12);
  await page.keyboard.press('ArrowRight');
  assert.match(await page.$eval('.board.insect .piece[data-square="e3"]', (e) => e.dataset.kind), /wasp/);
  assert.match(await page.getAttribute('#record-export', 'download'), /rec5\.txt/);
  await shot(page, 'insect-scripted-record-dark');
});
