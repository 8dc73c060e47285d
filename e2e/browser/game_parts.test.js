// Issue #31: each game's styles and words live in its own folder (web-client/js/games/NAME/) and reach the page
// through the registry. In the real app page (served from disk): every registered game's style sheet is linked
// and loaded, a board drawn by each game's own renderer gets its colours from that sheet, and the footer credits
// every game's rules in English and in Chinese as it did before the words moved.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { browserOrSkip, launch, serveClient, watchedPage, shot } from './harness.js';

const ORIGIN = 'http://gomoku.test';
let browser;
after(async () => {
  await browser?.close();
});

async function open(t, scheme) {
  if (!browser) {
    const chromium = await browserOrSkip(t);
    if (!chromium) return null;
    browser = await launch(chromium);
  }
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, colorScheme: scheme });
  await serveClient(context, ORIGIN);
  // No server behind the page: the socket is accepted and stays silent.
  await context.routeWebSocket(/.*/, () => {});
  const { page } = await watchedPage(t, context);
  await page.goto(`${ORIGIN}/#/`);
  return page;
}

// What a board's part computes to with the game's sheet, and what the token it should use computes to.
const PROBES = {
  othello: [['.felt', 'fill', '--felt-2'], ['', 'background-color', '--surface-2']],
  draughts: [['.dark', 'fill', '--sq-dark'], ['.light', 'fill', '--sq-light'], ['', 'background-color', '--surface-2']],
};

for (const scheme of ['light', 'dark']) {
  test(`every game's own style sheet is linked and styles its board (${scheme})`, async (t) => {
    const page = await open(t, scheme);
    if (!page) return;
    const linked = await page.evaluate(async () => {
      const { GAMES } = await import('/js/games/index.js');
      return Object.values(GAMES).filter((g) => g.style).map((g) => g.name);
    });
    for (const name of Object.keys(PROBES)) assert.ok(linked.includes(name), `${name} brings its sheet`);
    await page.waitForFunction((n) => {
      const links = [...document.querySelectorAll('link[data-game-style]')];
      return links.length === n && links.every((l) => l.sheet && l.sheet.cssRules.length > 0);
    }, linked.length, { timeout: 5000 });

    const seen = await page.evaluate(async (probes) => {
      const { GAMES } = await import('/js/games/index.js');
      const out = {};
      for (const [name, list] of Object.entries(probes)) {
        const wrap = document.createElement('div');
        wrap.className = 'board-wrap';
        wrap.innerHTML = GAMES[name].emblem();
        document.body.append(wrap);
        const svg = wrap.querySelector('svg');
        out[name] = list.map(([sel, prop, token]) => {
          const el = sel ? svg.querySelector(sel) : svg;
          // The token as the same property computes it on a bare element of the same kind.
          const probe = document.createElementNS(el.namespaceURI, el.localName);
          probe.style.setProperty(prop, `var(${token})`);
          (sel ? svg : document.body).append(probe);
          const want = getComputedStyle(probe).getPropertyValue(prop);
          probe.remove();
          return { sel, prop, got: getComputedStyle(el).getPropertyValue(prop), want };
        });
        wrap.remove();
      }
      return out;
    }, PROBES);
    for (const [name, list] of Object.entries(seen)) {
      for (const { sel, prop, got, want } of list) {
        assert.ok(want && want !== 'rgb(0, 0, 0)' && want !== 'rgba(0, 0, 0, 0)', `${name} ${sel} ${prop}: the token resolves (${want})`);
        assert.equal(got, want, `${name} ${sel || 'svg'} ${prop} comes from the game's sheet`);
      }
    }
  });
}

test("the footer credits every game's rules from the games' own words, in English and in Chinese", async (t) => {
  const page = await open(t, 'light');
  if (!page) return;
  const foot = page.locator('footer.foot');
  await page.waitForFunction(() => document.querySelector('footer.foot')?.textContent.startsWith('Rules'));
  assert.equal(await foot.textContent(), 'Rules: Gomoku (freestyle, standard, Renju by the RIF), Othello, international draughts (FMJD), insect chess (昆虫棋).');
  await page.click('#lang');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  assert.equal(await foot.textContent(), '规则：五子棋（无禁手、标准、连珠 RIF）、黑白棋、国际跳棋（FMJD）、昆虫棋。');
});

// Issue #36 item 14: every game has a rules page in both languages, linked from the footer (and the landing page
// and each room: insect.test.js); insect chess's shows its strength cycle drawn.
test("every game's rules page opens from the footer in English and Chinese; insect chess's draws its strength cycle", async (t) => {
  const page = await open(t, 'light');
  if (!page) return;
  await page.waitForSelector('#foot-rules a[data-game="insect"]');
  assert.equal(await page.textContent('.topbar .brand span'), 'Board Game Hall');
  const titles = { gomoku: ['Gomoku and Renju', '五子棋与连珠'], othello: ['Othello', '黑白棋'], draughts: ['International draughts', '国际跳棋'], insect: ['Insect chess (昆虫棋)', '昆虫棋'] };
  for (const [game, [en, zh]] of Object.entries(titles)) {
    await page.click(`#foot-rules a[data-game="${game}"]`);
    await page.waitForSelector(`#rules-page[data-game="${game}"]`);
    assert.equal(await page.textContent('#rules-page h1'), `Rules: ${en}`);
    await shot(page, `rules-${game}-desktop-en-light`);
    assert.equal(await page.textContent('.rules-tabs a.active'), await page.evaluate(async (g) => (await import('/js/i18n.js')).t(`game.${g}`), game));
    await page.click('#lang');
    await page.waitForFunction((z) => document.querySelector('#rules-page h1')?.textContent === `${z}规则`, zh);
    assert.ok((await page.locator('#rules-page li').count()) >= 5, `${game}: rules in Chinese`);
    assert.equal(await page.textContent('.topbar .brand span'), '棋苑');
    await page.click('#lang');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
  }
  // Insect chess: the start board and the circle of strength, with every insect's glyph and name, visible.
  const cycle = page.locator('#rules-page figure[data-figure="cycle"] svg');
  assert.ok(await cycle.isVisible());
  const box = await cycle.boundingBox();
  assert.ok(box.width > 200 && box.height > 200, `the cycle is drawn large enough to read (${box.width}×${box.height})`);
  assert.equal(await page.locator('#rules-page figure[data-figure="cycle"] .piece').count(), 6);
  assert.match(await cycle.textContent(), /蝎scorpion蜈centipede狼wolf spider虎tiger beetle蜂wasp虱diving beetle/);
  assert.ok(await page.isVisible('#rules-page figure[data-figure="board"] svg.board.insect'));
  assert.match(await page.textContent('#rules-page'), /The wasp’s flight/);
  assert.match(await page.textContent('#rules-page'), /diving beetle takes the scorpion/);
  for (const [width, height, name] of [[1280, 860, 'desktop'], [390, 844, 'phone'], [320, 640, 'phone320']]) {
    await page.setViewportSize({ width, height });
    for (const lang of ['en', 'zh']) {
      await page.evaluate(async (l) => (await import('/js/i18n.js')).setLang(l), lang);
      for (const scheme of name === 'phone320' ? ['light'] : ['light', 'dark']) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.waitForTimeout(100);
        await shot(page, `rules-insect-${name}-${lang}-${scheme}`);
        if (name !== 'desktop') {
          await cycle.scrollIntoViewIfNeeded();
          await shot(page, `rules-insect-cycle-${name}-${lang}-${scheme}`);
          await page.evaluate(() => window.scrollTo(0, 0));
        }
      }
    }
    // Nothing runs off the side of a phone.
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `no sideways scroll at ${width}px`);
  }
  // An unknown game lists every game's rules.
  await page.goto(`${ORIGIN}/#/rules/chess`);
  await page.waitForSelector('#rules-games .game-card[data-game="draughts"]');
});
