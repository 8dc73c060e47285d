// End to end against the real server binary (issue #33): a finished Gomoku game in which white lets black's
// open three stand (allowing a VCF) and black then plays elsewhere (missing it) is analysed on request from its
// record page: the evaluation graph appears with its marked blunders, the marked moves say why, and the engine's
// best move and line follow the position shown. The analysis board's engine answers the position on the board
// when turned on. Screenshots (desktop and phone, English and Chinese) go to target/screenshots/analysis-*.png.

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

const setup = browserAndServer({ env: { ANALYSIS_MS_PER_POSITION: '150', MSG_RATE: '1000', MSG_BURST: '1000' } }, (b, s) => {
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
