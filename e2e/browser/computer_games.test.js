// The computer beyond Gomoku (issues #32/#33) end to end against the real server: "Play the computer" offers the
// games GET /api/computer lists (Gomoku, Othello, draughts, insect chess) with each one's levels (insect chess
// to 4); a person plays a few moves of Othello and of insect chess against the computer through clicks, the
// computer answering each, its card labelled with its level and "thinking…" shown while it moves. At desktop and
// phone widths, in English and Chinese; screenshots go to target/screenshots/computer-games-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserAndServer, newPerson, shot } from './harness.js';

let browser;
let server;

const setup = browserAndServer({ args: ['--computer-seed', '17'] }, (b, s) => {
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
