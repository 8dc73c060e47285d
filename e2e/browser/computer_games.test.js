// The computer beyond Gomoku (issues #32/#33) end to end against the real server: "Play the computer" offers the
// games GET /api/computer lists (Gomoku, Othello, draughts, insect chess) with each one's levels (insect chess
// to 4); a person plays a few moves of Othello and of insect chess against the computer through clicks, the
// computer answering each, its card labelled with its level and "thinking…" shown while it moves. At desktop and
// phone widths, in English and Chinese; screenshots go to target/screenshots/computer-games-*.png.
// Issue #36: a game against the computer is public: another person sees it in the lobby's live games and on the
// player's profile as "playing now", watches it from there, and once it is over finds it in the profile's archive
// (screenshots target/screenshots/public-*.png).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserAndServer, newPerson, shot, clickPoint } from './harness.js';

let browser;
let server;

// Every browser plays from 127.0.0.1, and the games of the earlier tests last through their grace periods: the
// address's limit of games against the computer is raised above what the tests play together.
const setup = browserAndServer({ args: ['--computer-seed', '17', '--computer-max-games-per-ip', '8'] }, (b, s) => {
  browser = b;
  server = s;
});

const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };

const person = (t, label, options) => newPerson(t, browser, server.url, label, options);

async function look(page, viewport, scheme, lang) {
  await page.setViewportSize(viewport);
  await page.emulateMedia({ colorScheme: scheme });
  await page.evaluate(async (l) => (await import('/js/i18n.js')).setLang(l), lang);
}

async function waitPly(page, n) {
  try {
    await page.waitForSelector(`#room[data-ply="${n}"]`, { timeout: 30_000 });
  } catch (e) {
    await shot(page, 'computer-games-failed');
    throw new Error(`the page never showed ply ${n} (it shows ${await page.getAttribute('#room', 'data-ply')}): ${e.message}`);
  }
}

async function clickAt(page, selector) {
  const box = await page.locator(selector).first().boundingBox();
  assert.ok(box, `${selector} is drawn`);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

/** One move of the person's: Othello's first legal square; insect chess's first movable piece to its first target. */
const MOVES = {
  async othello(page) {
    await page.waitForSelector('.board-wrap.playable .board.othello .legal', { timeout: 30_000 });
    const sq = await page.getAttribute('.board.othello .legal', 'data-square');
    await clickAt(page, `.board-wrap svg [data-square="${sq}"]`);
  },
  async insect(page) {
    await page.waitForSelector('.board-wrap.playable .board.insect .piece.movable', { timeout: 30_000 });
    const from = await page.getAttribute('.board.insect .piece.movable', 'data-square');
    await clickAt(page, `.board-wrap svg.insect .sq[data-square="${from}"]`);
    await page.waitForSelector('.board.insect .target[data-target]', { timeout: 5000 });
    const to = await page.getAttribute('.board.insect .target[data-target]', 'data-target');
    await clickAt(page, `.board-wrap svg.insect .sq[data-square="${to}"]`);
  },
};

/** Opens "Play the computer", chooses `game` and `level`, plays black (first), and starts; returns when it plays. */
async function start(page, game, level, lang, viewport) {
  await page.goto(page.url().replace(/#.*$/, '#/'));
  await look(page, viewport, 'light', lang);
  await page.click('#play-computer');
  await page.waitForSelector('#computer-form input[name="game"]', { state: 'attached', timeout: 15_000 });
  assert.deepEqual(await page.$$eval('#computer-form input[name="game"]', (els) => els.map((e) => e.value)), ['gomoku', 'othello', 'draughts', 'insect'],
    'the games the computer plays');
  await page.check(`#computer-form input[name="game"][value="${game}"]`, { force: true });
  const max = game === 'insect' ? 4 : 8;
  await page.waitForFunction((n) => document.querySelectorAll('#computer-level option').length === n, max);
  assert.equal(await page.locator('#computer-form [data-game="gomoku"]').isHidden(), true, "Gomoku's fields are hidden");
  await page.check('#computer-form input[name="tc"][value="none"]', { force: true });
  await page.check('#computer-form input[name="colour"][value="black"]', { force: true });
  await page.selectOption('#computer-level', String(level));
  await shot(page, `computer-games-form-${game}-${viewport === DESKTOP ? 'desktop' : 'phone'}-${lang}`);
  await page.evaluate(() => {
    window.__thinking = 0;
    new MutationObserver(() => {
      if (document.querySelector('.thinking')) window.__thinking++;
    }).observe(document.body, { childList: true, subtree: true });
  });
  await page.click('#computer-submit');
  await page.waitForSelector('#room[data-state="playing"]', { timeout: 15_000 });
}

for (const [game, level] of [['othello', 2], ['insect', 4]]) {
  for (const [viewport, lang] of [[DESKTOP, 'en'], [PHONE, 'zh']]) {
    const width = viewport === DESKTOP ? 'desktop' : 'phone';
    test(`the computer plays ${game} at level ${level}: a few moves through clicks, each answered (${width}, ${lang})`, async (t) => {
      if (!(await setup(t))) return;
      const a = await person(t, 'ann');
      await start(a.page, game, level, lang, viewport);
      const label = lang === 'en' ? `Computer · level ${level}` : `电脑 · ${level}级`;
      assert.equal(await a.page.textContent('.pcard.top .pname'), label);
      assert.ok(await a.page.locator('#vs-computer').count(), 'the room says it is against the computer');
      let ply = Number(await a.page.getAttribute('#room', 'data-ply')) || 0;
      for (let i = 0; i < 3; i++) {
        await MOVES[game](a.page);
        ply += 2;
        await waitPly(a.page, ply);
        if (i === 1) await shot(a.page, `computer-games-${game}-${width}-${lang}`);
      }
      assert.ok(await a.page.evaluate(() => window.__thinking) > 0, '"thinking…" showed on the computer\'s card');
      assert.equal(await a.page.locator('#game-over').count(), 0, 'the game goes on');
      assert.deepEqual(a.errors, []);
    });
  }
}

/** Screenshots of a page (light; both widths in both languages unless `looks` says), named public-NAME-WIDTH-LANG; `ready` waits. */
async function publicShots(page, name, ready, looks = [[DESKTOP, 'en'], [DESKTOP, 'zh'], [PHONE, 'en'], [PHONE, 'zh']]) {
  for (const [viewport, lang] of looks) {
    await look(page, viewport, 'light', lang);
    await ready();
    await page.waitForTimeout(150);
    await shot(page, `public-${name}-${viewport === DESKTOP ? 'desktop' : 'phone'}-${lang}`);
  }
  await look(page, DESKTOP, 'light', 'en');
}

test('a game against the computer is public: in the live games, playing now on the profile, watched, then archived', async (t) => {
  if (!(await setup(t))) return;
  const a = await person(t, 'pub', { register: true });
  const b = await person(t, 'fan');
  await a.page.goto(`${server.url}/#/`);
  await a.page.click('#play-computer');
  await a.page.waitForSelector('#computer-form input[name="game"]', { state: 'attached', timeout: 15_000 });
  await a.page.check('#computer-form input[name="tc"][value="none"]', { force: true });
  await a.page.check('#computer-form input[name="colour"][value="black"]', { force: true });
  await a.page.selectOption('#computer-level', '1');
  await a.page.click('#computer-submit');
  try {
    await a.page.waitForSelector('#room[data-state="playing"] .board-wrap.playable', { timeout: 15_000 });
  } catch (e) {
    await shot(a.page, 'public-failed');
    throw e;
  }
  const room = decodeURIComponent(a.page.url().split('#/room/')[1]);
  await clickPoint(a.page, 'h8');
  await waitPly(a.page, 2);

  // The lobby's live games list it, with the player and the computer, and a Watch link.
  const row = `#live-rooms [data-room="${room}"]`;
  await b.page.waitForSelector(row, { timeout: 15_000 });
  assert.match(await b.page.textContent(row), new RegExp(a.name));
  assert.equal(await b.page.getAttribute(`${row} > a.btn`, 'href'), `#/room/${room}/watch`);
  await publicShots(b.page, 'lobby-live', async () => {
    await b.page.waitForSelector(row);
    await b.page.evaluate(() => document.getElementById('live-rooms').scrollIntoView());
  });

  // The player's profile says what they are playing now, with a Watch link; the archive is still empty.
  await b.page.goto(`${server.url}/#/player/${a.name}`);
  const playing = `#profile-playing [data-room="${room}"]`;
  await b.page.waitForSelector(playing, { timeout: 15_000 });
  await b.page.waitForSelector('#profile-games #no-games');
  await publicShots(b.page, 'profile-playing', async () => {
    await b.page.waitForSelector(playing);
    await b.page.evaluate(() => document.getElementById('profile-playing').scrollIntoView());
  });
  await b.page.click(`${playing} a.watch`);
  await b.page.waitForSelector('#room[data-role="spectator"][data-ply="2"]', { timeout: 15_000 });

  // Over: the spectator sees the end; the profile has nothing playing and the game in its archive, a loss.
  a.page.once('dialog', (d) => d.accept());
  await a.page.click('#resign');
  await b.page.waitForSelector('#room[data-state="over"]', { timeout: 15_000 });
  await b.page.goto(`${server.url}/#/player/${a.name}`);
  await b.page.waitForSelector('#profile-games .game-row', { timeout: 15_000 });
  assert.equal(await b.page.locator('#profile-playing').count(), 0);
  assert.equal(await b.page.locator('#profile-games .game-row').count(), 1);
  assert.equal(await b.page.getAttribute('#profile-games .game-row .outcome', 'class'), 'outcome loss');
  await publicShots(b.page, 'profile-archive', async () => {
    await b.page.waitForSelector('#profile-games .game-row');
    await b.page.evaluate(() => document.querySelector('.games-head').scrollIntoView());
  });
  await b.page.goto(`${server.url}/#/`);
  // (The earlier tests' games against the computer are public too, and may still be listed.)
  await b.page.waitForSelector('#live-rooms .room-row, #live-rooms .empty');
  assert.equal(await b.page.locator(row).count(), 0, 'gone from the live games');

  // Issue #36 item 10: in a game without a clock, "Claim the win" is not offered right after one's own stone;
  // the time left until the opponent has been idle long enough (the server's 5 minutes) is shown instead.
  await a.page.goto(`${server.url}/#/`);
  await a.page.click('#new-game');
  await a.page.check('#create-form input[name="rule_set"][value="freestyle"]', { force: true });
  await a.page.check('#create-form input[name="opening"][value="none"]', { force: true });
  await a.page.check('#create-form input[name="tc"][value="none"]', { force: true });
  await a.page.click('#create-submit');
  await a.page.waitForSelector('#room[data-state="waiting"]');
  const room2 = decodeURIComponent(a.page.url().split('#/room/')[1]);
  await b.page.click(`#waiting-rooms [data-room="${room2}"] > a.btn`);
  await b.page.waitForSelector('#room[data-role="player"][data-state="playing"]', { timeout: 15_000 });
  const black = (await a.page.getAttribute('.pcard.bottom', 'data-colour')) === 'black' ? a.page : b.page;
  const white = black === a.page ? b.page : a.page;
  await clickPoint(black, 'h8');
  for (const p of [black, white]) await waitPly(p, 1);
  await black.waitForSelector('#claim-wait');
  assert.match(await black.textContent('#claim-wait'), /claim the win in (5:00|4:5\d)$/);
  assert.equal(await black.locator('#claim-win').count(), 0, 'no claim right after one\'s own stone');
  assert.equal(await white.locator('#claim-wait, #claim-win').count(), 0, 'nothing to claim on one\'s own turn');
  await publicShots(black, 'claim-wait', () => black.waitForSelector('#claim-wait'), [[DESKTOP, 'en'], [PHONE, 'zh']]);
  assert.deepEqual([...a.errors, ...b.errors], []);
});
