// End to end against the real server binary (issue #33): a finished Gomoku game in which white lets black's
// open three stand (allowing a VCF) and black then plays elsewhere (missing it) is analysed on request from its
// record page: the evaluation graph appears with its marked blunders, the marked moves say why, and the engine's
// best move and line follow the position shown. The analysis board's engine answers the position on the board
// when turned on, for every game: Othello's, draughts' and insect chess's boards show the engine's best move and
// line, and play it as a variation beside the record. Screenshots (desktop and phone, English and Chinese) go to
// target/screenshots/analysis-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserAndServer, shot } from './harness.js';

let browser;
let server;

const PASSWORD = 'correct horse battery';
const suffix = Date.now().toString(36).slice(-4);
const ANN = `ann${suffix}`;
const BOB = `bob${suffix}`;
/** Black's open three h8 i8 j8 stands after white's a12; black's o1 misses the four. */
const MOVES = ['h8', 'a15', 'i8', 'a14', 'j8', 'a12', 'o1'];

const setup = browserAndServer({ env: { ANALYSIS_MS_PER_POSITION: '150', ANALYSIS_EVALUATES_PER_MINUTE: '1000', MSG_RATE: '1000', MSG_BURST: '1000' } }, (b, s) => {
  browser = b;
  server = s;
});

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

/** Registers both players, plays MOVES over two WebSockets (generic `act`), black resigns; the record's id. */
async function playGame(page) {
  return page.evaluate(async ({ players, moves, password }) => {
    const sockets = {};
    for (const name of players) {
      const r = await fetch('/api/register', { method: 'POST', credentials: 'omit', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: name, password, issue_token: true }) });
      if (!r.ok) throw new Error(`register ${name}: ${r.status}`);
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
      const request = (msg) => new Promise((ok, bad) => {
        rid += 1;
        const guard = setTimeout(() => bad(new Error(`${name}: no answer to ${JSON.stringify(msg)}`)), 10_000);
        waiting.set(rid, { ok: (m) => { clearTimeout(guard); ok(m); }, bad: (e) => { clearTimeout(guard); bad(e); } });
        ws.send(JSON.stringify({ ...msg, rid }));
      });
      await request({ t: 'hello', version: 1, token });
      sockets[name] = { ws, request };
    }
    const [b, w] = players.map((p) => sockets[p]);
    const created = await b.request({ t: 'create_room', rules: { rule_set: 'freestyle' }, rated: false, public: true, colour: 'black', time_control: { kind: 'none' } });
    const room = created.room.id;
    await w.request({ t: 'join', room });
    for (let i = 0; i < moves.length; i++) await (i % 2 ? w : b).request({ t: 'act', room, action: moves[i], at: i });
    await b.request({ t: 'resign', room });
    for (const s of Object.values(sockets)) s.ws.close();
    const games = await (await fetch(`/api/players/${players[0]}/games`)).json();
    return games.games[0].public_id;
  }, { players: [ANN, BOB], moves: MOVES, password: PASSWORD });
}

async function signIn(page, name) {
  await page.goto(`${server.url}/#/login`);
  await page.fill('#username', name);
  await page.fill('#password', PASSWORD);
  await page.click('#auth-submit');
  await page.waitForFunction((n) => window.__app?.you?.name === n && !window.__app.you.guest, name, { timeout: 15_000 });
}

async function looks(page, name, lang, ready) {
  await page.evaluate(async (l) => (await import('/js/i18n.js')).setLang(l), lang);
  // The page is drawn again in the language: wait for its parts to be back.
  await page.waitForSelector(ready, { timeout: 30_000 });
  for (const [viewport, label] of [[DESKTOP, 'desktop'], [PHONE, 'phone']]) {
    await page.setViewportSize(viewport);
    await shot(page, `analysis-${name}-${label}-${lang}`);
  }
  await page.setViewportSize(DESKTOP);
}

test('a requested analysis draws the graph and marks the VCF allowed and missed', async (t) => {
  if (!(await setup(t))) return;
  const context = await browser.newContext({ viewport: DESKTOP });
  t.after(() => context.close());
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${server.url}/#/`);
  const id = await playGame(page);
  await signIn(page, ANN);
  await page.goto(`${server.url}/#/game/${id}/6`);
  await page.waitForSelector('#analysis-request');
  await page.click('#analysis-request');
  await page.waitForSelector('#analysis-graph svg .mark.blunder', { timeout: 60_000 });
  const marks = await page.locator('#analysis-marks li').allTextContents();
  assert.ok(marks.some((m) => /6\. a12\?\?.*VCF/.test(m)), marks.join(' | '));
  assert.ok(marks.some((m) => /7\. o1\?\?.*VCF/.test(m)), marks.join(' | '));
  // Position 6 (before black's seventh stone): the engine's best is the four, the VCF.
  assert.match(await page.textContent('#analysis-best'), /^(g8|k8)$/);
  assert.equal(await page.locator('#analysis-graph svg .mark').count(), 2);
  // The move list marks the blunders too.
  assert.equal(await page.locator('#record-moves .judgment.blunder').count(), 2);
  await looks(page, 'record', 'en', '#record-moves .judgment.blunder');
  await looks(page, 'record', 'zh', '#record-moves .judgment.blunder');
  // A second look is instant: the stored analysis comes with the page.
  await page.reload();
  await page.waitForSelector('#analysis-graph svg .mark.blunder', { timeout: 5_000 });
  assert.deepEqual(errors, []);
});

test('the analysis board\'s engine gives the best move and line of the position on the board', async (t) => {
  if (!(await setup(t))) return;
  const context = await browser.newContext({ viewport: DESKTOP });
  t.after(() => context.close());
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${server.url}/#/`);
  await page.evaluate((moves) => sessionStorage.setItem('gomoku.analysis', JSON.stringify({ size: 15, moves, title: 'vcf', rule_set: 'freestyle', ply: 6 })), MOVES);
  await page.goto(`${server.url}/#/analysis`);
  await page.waitForSelector('#engine-toggle');
  await page.check('#engine-toggle');
  await page.waitForSelector('#engine-best', { timeout: 30_000 });
  assert.match(await page.textContent('#engine-best'), /^(g8|k8)$/);
  const line = (await page.textContent('#engine-line')).split(' ');
  assert.ok(line.length >= 1 && ['g8', 'k8'].includes(line[0]), line.join(' '));
  await looks(page, 'board', 'en', '#engine-best');
  await looks(page, 'board', 'zh', '#engine-best');
  assert.deepEqual(errors, []);
});

/** A record of each other game for the analysis board: a few moves in the game's notation, the last one shown. */
const RECORDS = {
  othello: ['f5', 'd6', 'c3', 'd3'],
  draughts: ['32-28', '19-23', '28x19', '14x23'],
  insect: ['e2-e3', 'c10-c9', 'c2-c3', 'c9-c8'],
};

for (const [game, moves] of Object.entries(RECORDS)) {
  test(`the analysis board's engine gives ${game}'s best move and line and plays it as a variation beside the record`, async (t) => {
    if (!(await setup(t))) return;
    const context = await browser.newContext({ viewport: DESKTOP });
    t.after(() => context.close());
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${server.url}/#/`);
    await page.evaluate(({ game: g, moves: m }) => sessionStorage.setItem('gomoku.analysis', JSON.stringify({ game: g, moves: m, title: g, ply: 2 })), { game, moves });
    await page.goto(`${server.url}/#/analysis`);
    await page.waitForSelector('#engine-toggle');
    // The game's own board, at the second move, with the record in the list.
    assert.equal(await page.getAttribute('.analysis', 'data-game'), game);
    assert.equal(await page.locator('#analysis-moves > li:not(.varline)').count(), moves.length);
    assert.equal(await page.textContent('#analysis-moves li.current .mv'), moves[1]);
    await page.check('#engine-toggle');
    await page.waitForSelector('#engine-best', { timeout: 30_000 });
    const best = await page.textContent('#engine-best');
    const line = (await page.textContent('#engine-line')).split(' ');
    assert.equal(line[0], best, line.join(' '));
    // The server vouched for it: the best move is legal after the first two moves.
    const checked = await page.evaluate(async ({ g, m, b }) => (await fetch('/api/analysis/evaluate', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ game: g, actions: [...m.slice(0, 2), b], ms: 1 }) })).status, { g: game, m: moves, b: best });
    assert.equal(checked, 200);
    await looks(page, `board-${game}`, 'en', '#engine-best');
    await looks(page, `board-${game}`, 'zh', '#engine-best');
    // And dark (the theme follows the system's until chosen).
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, `analysis-board-${game}-desktop-dark-zh`);
    await page.emulateMedia({ colorScheme: 'light' });
    // The language switches asked the engine again: play from its settled answer.
    await page.waitForSelector('#engine-best', { timeout: 30_000 });
    if (best !== moves[2]) {
      // Playing the engine's move branches a variation: the record stays whole and the new move is the one marked.
      await page.click('#engine-play');
      await page.waitForSelector('#analysis-variation .vmove.current');
      assert.equal(await page.textContent('#analysis-variation .vmove.current .mv'), best);
      assert.equal(await page.locator('#analysis-moves > li:not(.varline)').count(), moves.length);
      assert.equal(await page.locator('#analysis-moves > li.current').count(), 0);
      // Back to the record: its move is marked again and the variation is kept.
      await page.click('#analysis-main');
      assert.equal(await page.textContent('#analysis-moves li.current .mv'), moves[1]);
      assert.equal(await page.locator('#analysis-variation .vmove').count(), 1);
    }
    // A typed move the rules refuse is named and does not join the board.
    await page.fill('#analysis-move-input', 'zz9');
    await page.click('#analysis-move-play');
    await page.waitForFunction(() => /zz9/.test(document.querySelector('#analysis-move-error')?.textContent || ''), null, { timeout: 30_000 });
    assert.equal(await page.locator('#analysis-moves > li:not(.varline)').count(), moves.length);
    assert.deepEqual(errors, []);
  });
}
