// Shared by the browser tests: finding and launching Debian's Chromium, serving the web client, starting the
// real server, and helpers that click board points the way a player would.

import { after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, extname, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const WEB = join(REPO, 'web-client');
export const SHOTS = join(REPO, 'target', 'screenshots');
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const IN_CI = process.env.CI === 'true' || process.env.CI === '1';

/**
 * Loads playwright-core and checks Chromium is there. Outside CI a missing browser skips the test with a loud
 * message; in CI it fails, because a green run without browser tests would be a lie.
 */
export async function browserOrSkip(t) {
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch {
    return missing(t, 'playwright-core is not installed (run `npm ci` in e2e/)');
  }
  if (!existsSync(CHROMIUM)) return missing(t, `${CHROMIUM} not found (apt-get install -y chromium)`);
  return chromium;
}

function missing(t, why) {
  const text = `\n*** BROWSER TESTS NOT RUN: ${why} ***\n`;
  if (IN_CI) throw new Error(text);
  process.stderr.write(text);
  t.skip(why);
  return null;
}

/** Launches headless Chromium with the flags a root CI needs; each launch gets a fresh temporary profile. */
export async function launch(chromium) {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json' };

/** Serves web-client/ from disk at `origin` inside a browser context (for tests with a scripted server). */
export async function serveClient(context, origin, api = {}) {
  await context.route(`${origin}/**`, async (route) => {
    const url = new URL(route.request().url());
    for (const [prefix, handler] of Object.entries(api)) {
      if (url.pathname.startsWith(prefix)) return handler(route, url);
    }
    if (url.pathname.startsWith('/api/')) return route.fulfill({ status: 404, body: 'Not Found' });
    const rel = normalize(url.pathname === '/' ? '/index.html' : url.pathname).replace(/^(\.\.[/\\])+/, '');
    const file = join(WEB, rel);
    if (!file.startsWith(WEB) || !existsSync(file)) return route.fulfill({ status: 404, body: 'Not Found' });
    return route.fulfill({ status: 200, contentType: TYPES[extname(file)] || 'application/octet-stream', body: readFileSync(file) });
  });
}

/** Saves a screenshot under target/screenshots/. */
export async function shot(page, name) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
}

/** Page coordinates of a board point ("h8") from the SVG's box and size, as a finger would aim. */
export async function pointPosition(page, point, scope = '') {
  const svg = page.locator(`${scope} .board-wrap svg`).first();
  const box = await svg.boundingBox();
  const size = Number(await svg.getAttribute('data-size'));
  const extent = Number((await svg.getAttribute('viewBox')).split(' ')[2]);
  const cols = 'abcdefghijklmnopqrst';
  const x = cols.indexOf(point[0]);
  const y = Number(point.slice(1)) - 1;
  const margin = (extent - 40 * (size - 1)) / 2;
  const sx = margin + x * 40;
  const sy = margin + (size - 1 - y) * 40;
  return { x: box.x + (sx / extent) * box.width, y: box.y + (sy / extent) * box.height };
}

/** Clicks a board point. */
export async function clickPoint(page, point) {
  const p = await pointPosition(page, point);
  await page.mouse.click(p.x, p.y);
}

/** The stones on a page's board as {point: colour}. */
export async function stones(page) {
  return page.$$eval('.board .stone', (els) => Object.fromEntries(els.map((e) => [e.dataset.point, e.classList.contains('black') ? 'black' : 'white'])));
}

/**
 * The server binary: `SERVER_BIN` when set (as `cargo test` does, having built it), else a debug build made now;
 * null when it cannot be built.
 */
export function buildServer() {
  if (process.env.SERVER_BIN) return existsSync(process.env.SERVER_BIN) ? process.env.SERVER_BIN : null;
  const r = spawnSync('cargo', ['build', '-q', '-p', 'server'], { cwd: REPO, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) return null;
  const target = process.env.CARGO_TARGET_DIR || join(REPO, 'target');
  const bin = join(target, 'debug', 'server');
  return existsSync(bin) ? bin : null;
}

/**
 * Starts the real server on a free port with a fresh SQLite database; resolves {url, stop, restart}. The URL is
 * read from the line the server prints ("… http://127.0.0.1:PORT/").
 */
export async function startServer(bin, { env = {}, args = [] } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'gomoku-e2e-'));
  const db = join(dir, 'e2e.db');
  const child = spawn(bin, ['--bind', '127.0.0.1:0', '--database-url', db, ...args], {
    cwd: dir,
    // Every browser of a test registers and opens rooms from 127.0.0.1: the daily registration limits per address
    // and range (issue #35; 5 and 10) and the lobby's share per address and range (5 and 20) are lifted unless a
    // test sets them.
    env: { ...process.env, RUST_LOG: process.env.RUST_LOG || 'warn', BIND: '127.0.0.1:0', DATABASE_URL: db, REGISTRATIONS_PER_DAY_PER_IP: '0', REGISTRATIONS_PER_DAY_PER_RANGE: '0', LOBBY_ROOMS_PER_IP: '1000', LOBBY_ROOMS_PER_RANGE: '1000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server printed no URL within 30 s:\n${log}`)), 30_000);
    const onData = (d) => {
      log += d;
      const m = /https?:\/\/(127\.0\.0\.1|localhost):(\d+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${m[2]}`);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${log}`));
    });
  });
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return { url, stop, log: () => log };
}

/**
 * The set-up of a test file that drives the real server: Chromium and the server (started with `options`, as
 * `startServer` takes them, then checked by `check(server)`), both started for the first test that asks and
 * stopped after the file's last. Returns that test's `setup(t)`: it hands the browser and the server to
 * `use(browser, server)` and resolves true, or skips the test (see `browserOrSkip`) and resolves false.
 */
export function browserAndServer(options, use, check = async () => {}) {
  let ready = null;
  let browser;
  let server;
  after(async () => {
    await browser?.close();
    await server?.stop();
  });
  return async function setup(t) {
    if (!ready) {
      ready = (async () => {
        const chromium = await browserOrSkip(t);
        if (!chromium) return false;
        const bin = buildServer();
        assert.ok(bin, 'cargo build -p server failed');
        server = await startServer(bin, options);
        await check(server);
        browser = await launch(chromium);
        use(browser, server);
        return true;
      })();
    }
    const ok = await ready;
    if (!ok) t.skip('no browser');
    return ok;
  };
}

/**
 * A person in a browser context of their own on the lobby at `origin`: a guest, or with `register` a new account
 * named after `label`; `init` is a script the context runs before each page's own. Page errors and console lines
 * are collected; the context closes after the test.
 */
export async function newPerson(t, browser, origin, label, { register = false, init = null } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, colorScheme: 'light' });
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  const errors = [];
  const consoleLines = [];
  page.on('pageerror', (e) => errors.push(`${label}: ${e}`));
  page.on('console', (m) => consoleLines.push(`${label} ${m.type()}: ${m.text()}`));
  t.after(() => context.close());
  await page.goto(`${origin}/#/`);
  await page.waitForFunction(() => window.__app?.you?.name);
  if (register) {
    const name = `${label}${Date.now().toString(36).slice(-5)}`;
    await page.goto(`${origin}/#/register`);
    await page.fill('#username', name);
    await page.fill('#password', 'correct horse battery');
    await page.click('#auth-submit');
    await page.waitForFunction((n) => window.__app?.you?.name === n && !window.__app.you.guest, name, { timeout: 15_000 });
  }
  const name = await page.evaluate(() => window.__app.you.name);
  return { page, context, name, errors, console: consoleLines };
}

/**
 * A new page of `context` whose uncaught errors fail the test, with its console lines collected; the context
 * closes after the test.
 */
export async function watchedPage(t, context) {
  const page = await context.newPage();
  const errors = [];
  const consoleLines = [];
  page.on('pageerror', (e) => errors.push(e));
  page.on('console', (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
  t.after(async () => {
    await context.close();
    assert.deepEqual(errors.map(String), [], 'no uncaught page errors');
  });
  return { page, console: consoleLines };
}

/** Polls `fn` every 20 ms until it gives something truthy, and resolves that; fails after `timeout` ms. */
export async function waitFor(fn, what, timeout = 5000) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * A scripted Gomoku room's snapshot as the server sends it (protocol version 2), from the room as a test writes it
 * (`moves`, `phase`, `forbidden`, … at the top, as the room holds them): `game` beside `rules`, the position in
 * `view` (its `actions` one per stone unless the room gives `actions`), the snapshot's own Gomoku fields empty.
 */
export function gomokuSnapshot(r) {
  const { moves = [], phase, swapped = false, forbidden = [], claimable = null, fifth_options = null, actions, ...rest } = r;
  const on = r.state === 'playing' || r.state === 'over';
  const view = on ? {
    game: 'gomoku', size: r.rules.size, moves, to_act: r.to_act ?? null, phase: r.state === 'playing' ? phase ?? null : null,
    swapped, forbidden, claimable, fifth_options, actions: actions || moves,
  } : null;
  return { ...rest, game: { game: 'gomoku', ...r.rules }, phase: 'none', moves: [], swapped: false, forbidden: [], claimable: null, fifth_options: null, view };
}
