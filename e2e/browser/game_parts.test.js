// Issue #31: each game's styles and words live in its own folder (web-client/js/games/NAME/) and reach the page
// through the registry. In the real app page (served from disk): every registered game's style sheet is linked
// and loaded, a board drawn by each game's own renderer gets its colours from that sheet, and the footer credits
// every game's rules in English and in Chinese as it did before the words moved.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { browserOrSkip, launch, serveClient, watchedPage } from './harness.js';

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
