// The Othello and draughts members in the real room and record pages, against a scripted server (the real one
// does not serve those rooms yet): each board is drawn from a fixed snapshot's view, and a click, a tap or the
// keyboard becomes the generic `act` intention; screenshots at desktop and phone widths, light and dark, English
// and Chinese go to target/screenshots/.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { browserOrSkip, launch, serveClient, shot, watchedPage, waitFor } from './harness.js';
import { GAMES } from '../../web-client/js/games/index.js';

const ORIGIN = 'http://gomoku.test';
let browser;
after(async () => {
  await browser?.close();
});

const seat = (name, extra = {}) => ({ id: name, name, guest: false, rating: 1540, provisional: false, tier: 'Club Player', connected: true, ...extra });
const fischer = { kind: 'fischer', base_ms: 600_000, increment_ms: 5000 };
const clocks = (first, second, running) => ({ [first]: { remaining_ms: 431_000 }, [second]: { remaining_ms: 502_000 }, running });

// Othello after f5 d6 c3 d3 c4: white to move. Row 1 is the top (a1 first).
const OTHELLO_BOARD = [
  '........',
  '........',
  '..bw....',
  '..bbb...',
  '...wbb..',
  '...w....',
  '........',
  '........',
].join('');
const othelloView = {
  game: 'othello', board: OTHELLO_BOARD, black: 6, white: 3, to_act: 'white', phase: 'place',
  legal: ['b3', 'f3', 'f4', 'b5', 'g5', 'g6'], last: 'c4', actions: ['f5', 'd6', 'c3', 'd3', 'c4'],
};
const OTHELLO = {
  id: 'o1', version: 12, game: { game: 'othello', scoring: 'japanese' }, time_control: fischer, rated: false, public: true, game_id: 5,
  state: 'playing', seats: { black: seat('lin_yue'), white: seat('kenta') }, phase: 'place', to_act: 'white',
  clocks: clocks('black', 'white', 'white'), offers: [], spectators: 2, result: null, view: othelloView,
};
const OTHELLO_START = {
  ...OTHELLO, id: 'o2', to_act: 'black',
  view: { game: 'othello', board: `${'.'.repeat(27)}wb${'.'.repeat(6)}bw${'.'.repeat(27)}`, black: 2, white: 2, to_act: 'black', phase: 'place', legal: ['d3', 'c4', 'f5', 'e6'], last: null, actions: [] },
  clocks: clocks('black', 'white', 'black'),
};
const OTHELLO_PASS = { ...OTHELLO, id: 'o3', to_act: 'white', phase: 'pass', view: { ...othelloView, phase: 'pass', legal: [] } };

// Draughts: white (us) to move with a capture of two steps and two routes through 23, and a black king on 3.
const draughtsBoard = (pieces) => {
  const cells = Array(50).fill('.');
  for (const [n, c] of Object.entries(pieces)) cells[n - 1] = c;
  return cells.join('');
};
const DRAUGHTS = {
  id: 'd1', version: 30, game: { game: 'draughts', variant: 'international' }, time_control: fischer, rated: false, public: true, game_id: 6,
  state: 'playing', seats: { white: seat('lin_yue'), black: seat('kenta') }, phase: 'move', to_act: 'white',
  clocks: clocks('white', 'black', 'white'), offers: [], spectators: 0, result: null,
  view: {
    game: 'draughts', board: draughtsBoard({ 32: 'w', 37: 'w', 41: 'w', 44: 'W', 28: 'b', 18: 'b', 19: 'b', 3: 'B', 12: '.', 8: 'b', 9: 'b' }), to_act: 'white',
    legal: [
      { move: '32x23x12', path: [32, 23, 12], captured: [28, 18], crowned: false },
      { move: '32x23x14', path: [32, 23, 14], captured: [28, 19], crowned: false },
    ],
    counters: { king_plies: 0, endgame: null, repetitions: 1 }, ply: 24,
  },
};

const OTHELLO_OVER = {
  ...OTHELLO, id: 'o4', state: 'over', phase: 'none', to_act: null, clocks: clocks('black', 'white', null),
  result: { winner: 'black', winner_name: 'lin_yue', reason: 'board_full', detail: { game: 'othello', discs: { black: 40, white: 24 }, scored: { black: 40, white: 24 }, scoring: 'japanese' } },
  view: { ...othelloView, to_act: null, phase: null, legal: [] },
};
const DRAUGHTS_OVER = {
  ...DRAUGHTS, id: 'd2', state: 'over', phase: 'none', to_act: null, clocks: clocks('white', 'black', null),
  result: { winner: null, reason: 'threefold' }, view: { ...DRAUGHTS.view, to_act: null, legal: [] },
};

const ROOMS = { o1: OTHELLO, o2: OTHELLO_START, o3: OTHELLO_PASS, o4: OTHELLO_OVER, d1: DRAUGHTS, d2: DRAUGHTS_OVER };

/** A scripted server: hello, join from ROOMS, an `act` answered with the event `answer(m)` gives; every frame kept. */
async function scripted(context, me, answer = () => null) {
  const sent = [];
  await context.routeWebSocket(`ws://gomoku.test/ws`, (ws) => {
    ws.onMessage((text) => {
      const m = JSON.parse(text);
      sent.push(m);
      const reply = (msg) => ws.send(JSON.stringify({ ...msg, rid: m.rid }));
      if (m.t === 'hello') reply({ t: 'welcome', you: { id: me, name: me, guest: false }, token: 'tok', server_version: 'test' });
      else if (m.t === 'join') reply(ROOMS[m.room] ? { t: 'room', room: ROOMS[m.room] } : { t: 'error', code: 'unknown_room', message: 'no such room' });
      else if (m.t === 'act') {
        const event = answer(m);
        reply(event ? { t: 'event', room: m.room, version: ROOMS[m.room].version + 1, event } : { t: 'ack' });
      } else if (m.rid !== undefined) reply({ t: 'ack' });
    });
  });
  return sent;
}

async function open(t, { viewport = { width: 1280, height: 860 }, scheme = 'light', lang = 'en', me = 'kenta', answer, api = {} } = {}) {
  if (!browser) {
    const chromium = await browserOrSkip(t);
    if (!chromium) return null;
    browser = await launch(chromium);
  }
  const touch = viewport.width < 600;
  const context = await browser.newContext({ viewport, colorScheme: scheme, hasTouch: touch, isMobile: touch });
  await serveClient(context, ORIGIN, api);
  if (lang === 'zh') await context.addInitScript(() => localStorage.setItem('gomoku.lang', 'zh'));
  const sent = await scripted(context, me, answer);
  const { page: p } = await watchedPage(t, context);
  return { p, sent };
}

/** Page coordinates of the centre of a grid square (column and row from 0, top left) of the board shown. */
async function cellPosition(page, col, row) {
  const svg = page.locator('.board-wrap svg').first();
  const box = await svg.boundingBox();
  const extent = Number((await svg.getAttribute('viewBox')).split(' ')[2]);
  const game = await svg.getAttribute('data-game');
  const g = game === 'othello' ? { x0: 34, cell: 50 } : { x0: 12, cell: 46 };
  return { x: box.x + ((g.x0 + (col + 0.5) * g.cell) / extent) * box.width, y: box.y + ((g.x0 + (row + 0.5) * g.cell) / extent) * box.height };
}
const othelloCell = (sq) => ['abcdefgh'.indexOf(sq[0]), Number(sq.slice(1)) - 1];
const draughtsCell = (n) => {
  const row = Math.floor((n - 1) / 5);
  const k = (n - 1) % 5;
  return [row % 2 === 0 ? 2 * k + 1 : 2 * k, row];
};
async function tap(page, [col, row], touch = false) {
  const at = await cellPosition(page, col, row);
  if (touch) await page.touchscreen.tap(at.x, at.y);
  else await page.mouse.click(at.x, at.y);
}

const noSidewaysScroll = (page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

const LOOKS = [
  ['desktop', { width: 1280, height: 860 }, 'light', 'en'],
  ['desktop', { width: 1280, height: 860 }, 'dark', 'zh'],
  ['phone', { width: 390, height: 844 }, 'light', 'zh'],
  ['phone', { width: 390, height: 844 }, 'dark', 'en'],
];

test('an Othello room draws discs, legal dots for the player to move, the last move and both counts', async (t) => {
  for (const [size, viewport, scheme, lang] of LOOKS) {
    const s = await open(t, { viewport, scheme, lang });
    if (!s) return;
    await s.p.goto(`${ORIGIN}/#/room/o1`);
    await s.p.waitForSelector('.board.othello .disc');
    assert.equal(await s.p.locator('.board .disc').count(), 9);
    assert.equal(await s.p.locator('.board .legal').count(), 6, 'white to move (us): six legal squares');
    assert.equal(await s.p.locator('.board .disc.last[data-square="c4"]').count(), 1);
    assert.equal(await s.p.textContent('.board [data-count="black"]'), '6');
    assert.equal(await s.p.textContent('.board [data-count="white"]'), '3');
    assert.match(await s.p.textContent('#room-rules'), lang === 'en' ? /Othello · Japanese scoring/ : /黑白棋 · 日式计分/);
    assert.equal(await s.p.locator('#moves li').count(), 5);
    assert.equal(await s.p.locator('.settings input').count(), 1, 'only the sound: numbers and a confirming tap are Gomoku\'s');
    assert.ok(await noSidewaysScroll(s.p), `${size}: nothing wider than the screen`);
    await shot(s.p, `games-othello-${size}-${scheme}-${lang}`);
  }
});

test('a click on a legal Othello square sends act with its notation and index; the answer flips the discs', async (t) => {
  const s = await open(t, {
    answer: (m) => ({ kind: 'action', at: m.at, by: 'white', action: m.action, change: { game: 'othello', placed: 'f4', flipped: ['e5'], black: 5, white: 5, legal: ['f6', 'e6'] }, to_act: 'black', phase: 'place', clocks: clocks('black', 'white', 'black') }),
  });
  if (!s) return;
  await s.p.goto(`${ORIGIN}/#/room/o1`);
  await s.p.waitForSelector('.board.othello .legal');
  await tap(s.p, othelloCell('a1'));
  await tap(s.p, othelloCell('f4'));
  const act = await waitFor(() => s.sent.find((m) => m.t === 'act'), 'an act frame');
  assert.deepEqual({ room: act.room, action: act.action, at: act.at }, { room: 'o1', action: 'f4', at: 5 });
  assert.equal(s.sent.filter((m) => m.t === 'act').length, 1, 'a square that is not legal sends nothing');
  await s.p.waitForSelector('.board .disc.white.last[data-square="f4"]');
  assert.equal(await s.p.locator('.board .disc.white[data-square="e5"]').count(), 1);
  assert.equal(await s.p.textContent('.board [data-count="white"]'), '5');
  assert.equal(await s.p.locator('.board .legal').count(), 0, 'black to move: no dots for us');
  assert.equal(await s.p.locator('#moves li').count(), 6);
});

test('Othello by keyboard: the arrows move a cursor from the centre and Enter plays the square', async (t) => {
  const s = await open(t, { me: 'lin_yue' });
  if (!s) return;
  await s.p.goto(`${ORIGIN}/#/room/o2`);
  await s.p.waitForSelector('.board.othello .legal');
  await s.p.focus('.board-wrap');
  await s.p.keyboard.press('ArrowRight');
  assert.equal(await s.p.locator('.board .cursor').count(), 1);
  await shot(s.p, 'games-othello-keyboard');
  await s.p.keyboard.press('Enter');
  const act = await waitFor(() => s.sent.find((m) => m.t === 'act'), 'an act frame');
  assert.deepEqual([act.action, act.at], ['f5', 0]);
});

test('an Othello player without a move is asked to pass, and the pass is an act', async (t) => {
  const s = await open(t, { lang: 'zh' });
  if (!s) return;
  await s.p.goto(`${ORIGIN}/#/room/o3`);
  await s.p.waitForSelector('#pass-prompt');
  await s.p.click('#pass');
  const act = await waitFor(() => s.sent.find((m) => m.t === 'act'), 'an act frame');
  assert.deepEqual([act.action, act.at], ['pass', 5]);
});

test('a draughts room numbers the dark squares, draws men and kings and marks the pieces that may move', async (t) => {
  for (const [size, viewport, scheme, lang] of LOOKS) {
    const s = await open(t, { viewport, scheme, lang, me: 'lin_yue' });
    if (!s) return;
    await s.p.goto(`${ORIGIN}/#/room/d1`);
    await s.p.waitForSelector('.board.draughts .piece');
    assert.equal(await s.p.locator('.board .num').count(), 50);
    assert.equal(await s.p.locator('.board .piece').count(), 10);
    assert.equal(await s.p.locator('.board .piece.king').count(), 2);
    assert.equal(await s.p.locator('.board .dark.movable').count(), 1, 'only the man that must capture');
    assert.equal(await s.p.locator('.pcard.bottom').getAttribute('data-colour'), 'white');
    assert.ok(await noSidewaysScroll(s.p), `${size}: nothing wider than the screen`);
    await shot(s.p, `games-draughts-${size}-${scheme}-${lang}`);
  }
});

test('a draughts capture of two steps is chosen square by square and sent as the listed move', async (t) => {
  const s = await open(t, {
    me: 'lin_yue',
    viewport: { width: 390, height: 844 },
    answer: (m) => ({ kind: 'action', at: m.at, by: 'white', action: m.action, change: { game: 'draughts', path: [32, 23, 14], captured: [28, 19], crowned: false, ply: 25, counters: { king_plies: 0, endgame: null, repetitions: 1 }, legal: [] }, to_act: 'black', phase: 'move', clocks: clocks('white', 'black', 'black') }),
  });
  if (!s) return;
  await s.p.goto(`${ORIGIN}/#/room/d1`);
  await s.p.waitForSelector('.board.draughts .piece');
  await tap(s.p, draughtsCell(32), true);
  await s.p.waitForSelector('.board .piece.chosen[data-square="32"]');
  assert.equal(await s.p.locator('.board .target-dot').count(), 1, 'one next square: 23');
  await tap(s.p, draughtsCell(23), true);
  await s.p.waitForSelector('#path-prompt');
  assert.equal(await s.p.locator('.board .target-dot').count(), 2, 'two routes from 23: 12 and 14');
  await shot(s.p, 'games-draughts-path');
  assert.equal(s.sent.filter((m) => m.t === 'act').length, 0, 'nothing sent while the move is open');
  await tap(s.p, draughtsCell(14), true);
  const act = await waitFor(() => s.sent.find((m) => m.t === 'act'), 'an act frame');
  assert.deepEqual({ room: act.room, action: act.action, at: act.at }, { room: 'd1', action: '32x23x14', at: 24 });
  await s.p.waitForSelector('.board .piece.white[data-square="14"]');
  assert.equal(await s.p.locator('.board .piece[data-square="28"], .board .piece[data-square="19"]').count(), 0, 'the captured are gone');
  assert.equal(await s.p.locator('#path-prompt').count(), 0);
});

test('the record page replays an Othello game and a draughts game move by move', async (t) => {
  const json = (body) => (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
  const records = {
    o: { id: 5, public_id: 'o5', game: { game: 'othello', scoring: 'japanese' }, black: 'lin_yue', white: 'kenta', actions: ['f5', 'd6', 'c3', 'd3', 'c4'].map((a, i) => ({ seq: i, action: a, used_ms: 1500, at: i })), result: null },
    d: { id: 6, public_id: 'd6', game: { game: 'draughts', variant: 'international' }, black: 'kenta', white: 'lin_yue', actions: ['32-28', '19-23', '28x19'].map((a, i) => ({ seq: i, action: a, used_ms: 2000, at: i })), result: null },
  };
  const s = await open(t, { api: { '/api/games/': (route, url) => json(records[url.pathname.split('/').pop()[0]])(route) } });
  if (!s) return;
  await s.p.goto(`${ORIGIN}/#/game/o5/1`);
  await s.p.waitForSelector('.board.othello .disc.last[data-square="f5"]');
  assert.equal(await s.p.locator('.board .disc.black').count(), 4);
  await s.p.click('#last');
  await s.p.waitForSelector('.board .disc.last[data-square="c4"]');
  assert.equal(await s.p.textContent('.board [data-count="black"]'), '6');
  assert.equal(await s.p.textContent('.board [data-count="white"]'), '3');
  await shot(s.p, 'games-othello-record');
  await s.p.goto(`${ORIGIN}/#/game/d6`);
  await s.p.reload();
  await s.p.waitForSelector('.board.draughts .piece');
  assert.equal(await s.p.locator('.board .piece.white[data-square="19"]').count(), 1);
  assert.equal(await s.p.locator('.board .piece').count(), 39, 'one black man taken');
  assert.deepEqual(await s.p.$$eval('#record-moves li .n', (els) => els.map((e) => e.textContent)), ['1.', '', '2.']);
  // Move pairs on a line each, the counter counting them (not plies), every capture written whole.
  const rows = await s.p.$$eval('#record-moves li', (els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
  assert.equal(rows[0], rows[1], 'black replies beside white');
  assert.notEqual(rows[1], rows[2]);
  assert.match(await s.p.textContent('#ply-counter'), /^Move 2, White — of 2$/);
  for (const mv of await s.p.$$eval('#record-moves .mv', (els) => els.map((e) => [e.textContent, e.scrollWidth <= e.clientWidth + 1]))) {
    assert.ok(mv[1], `${mv[0]} is shown whole`);
  }
  await shot(s.p, 'games-draughts-record');
});

test('a finished Othello game gives the count, a drawn draughts game its reason, in both languages', async (t) => {
  for (const [lang, othello, draughts] of [['en', 'lin_yue wins 40–24 (the board is full)', 'Drawn: the same position three times'], ['zh', 'lin_yue 以 40–24 获胜（棋盘已满）', '和棋：同一局面出现三次']]) {
    const s = await open(t, { lang, scheme: lang === 'zh' ? 'dark' : 'light' });
    if (!s) return;
    await s.p.goto(`${ORIGIN}/#/room/o4`);
    await s.p.waitForSelector('#game-over');
    assert.equal(await s.p.textContent('#result-sentence'), othello);
    assert.equal(await s.p.locator('.board .legal').count(), 0);
    await shot(s.p, `games-othello-over-${lang}`);
    await s.p.goto(`${ORIGIN}/#/room/d2`);
    await s.p.reload();
    await s.p.waitForSelector('#game-over');
    assert.equal(await s.p.textContent('#result-sentence'), draughts);
    assert.equal(await s.p.locator('.board .dark.movable').count(), 0, 'nothing to move once over');
  }
});

// The renderers alone on a harness page served from here: every member's emblem and each board's record replay at
// a fixed position, so a change to a renderer shows in one picture per theme.
const HARNESS = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/css/app.css"><title>boards</title></head><body><main id="boards" style="display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:16px;padding:16px"></main>
<script type="module">
import { GAMES } from '/js/games/index.js';
const main = document.getElementById('boards');
for (const m of Object.values(GAMES)) {
  const art = document.createElement('div');
  art.className = 'board-wrap';
  art.dataset.emblem = m.name;
  art.innerHTML = m.emblem();
  main.append(art);
}
const fixed = { othello: ['f5', 'd6', 'c3', 'd3', 'c4', 'f4', 'f6'], draughts: ['32-28', '19-23', '28x19', '14x23', '37-32', '20-24'] };
for (const [name, moves] of Object.entries(fixed)) {
  const board = GAMES[name].recordBoard();
  board.el.dataset.replay = name;
  main.append(board.el);
  board.show({ moves }, moves.length);
}
document.body.dataset.ready = '1';
</script></body></html>`;

test('the renderers on a harness page: every emblem and a fixed replay of each board, light and dark, desktop and phone', async (t) => {
  const page = (route) => route.fulfill({ status: 200, contentType: 'text/html', body: HARNESS });
  for (const [size, viewport, scheme] of [['desktop', { width: 1280, height: 860 }, 'light'], ['desktop', { width: 1280, height: 860 }, 'dark'], ['phone', { width: 390, height: 844 }, 'dark']]) {
    const s = await open(t, { viewport, scheme, api: { '/harness': page } });
    if (!s) return;
    await s.p.goto(`${ORIGIN}/harness`);
    await s.p.waitForSelector('body[data-ready="1"]');
    assert.equal(await s.p.locator('[data-emblem] svg').count(), Object.keys(GAMES).length);
    assert.equal(await s.p.locator('[data-replay="othello"] .disc').count(), 11);
    assert.equal(await s.p.locator('[data-replay="draughts"] .piece').count(), 38, 'one man taken by each side');
    assert.ok(await noSidewaysScroll(s.p), `${size}: nothing wider than the screen`);
    await shot(s.p, `games-harness-${size}-${scheme}`);
  }
});
