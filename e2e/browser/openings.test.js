// The modern opening rules in the browser, against the real server (issue #19): two guests play a Swap2 game
// through the whole opening (the place-two answer, then the first player's choice of colour) into normal play,
// and a Soosõrv-8 game through the canonical opening (a refused stone said in words), the swap, the declaration,
// the offers picked on the board and the choice, into normal play; a spectator sees what is waited for. Prompts
// are checked in English and Chinese, and screenshots taken at desktop and phone widths, light and dark.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserAndServer, shot, clickPoint, stones } from './harness.js';

let browser;
let server;

const setup = browserAndServer({}, (b, s) => {
  browser = b;
  server = s;
});

/** A guest in a browser context of its own. */
async function guest(t, label) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, colorScheme: 'light' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(`${label}: ${e}`));
  t.after(async () => {
    assert.deepEqual(errors, [], `${label} had page errors`);
    await context.close();
  });
  await page.goto(`${server.url}/#/`);
  await page.waitForFunction(() => window.__app?.you?.name);
  const name = await page.evaluate(() => window.__app.you.name);
  return { page, name };
}

/** Creates a renju room under `opening` from the lobby's form (with N for Soosõrv and Taraguchi). */
async function createRoom(page, opening, n) {
  await page.click('#new-game');
  await page.check('#create-form input[name="rule_set"][value="renju"]', { force: true });
  await page.check(`#create-form input[name="opening"][value="${opening}"]`, { force: true });
  if (n) await page.selectOption(`#create-form select[name="${opening}_n"]`, String(n));
  await page.check('#create-form input[name="tc"][value="fischer"]', { force: true });
  await page.click('#create-submit');
  await page.waitForURL(/#\/room\/[^/]+$/);
  await page.waitForSelector('#room[data-state="waiting"]');
  return decodeURIComponent(page.url().split('#/room/')[1]);
}

/** Waits until the board shows `n` stones. */
async function stonesDown(page, n) {
  await page.waitForFunction((k) => document.querySelectorAll('.board .stone').length === k, n, { timeout: 15_000 });
}

/** Waits for the acting player's prompt of `phase` and returns its text. */
async function prompt(page, phase) {
  const el = page.locator(`#op-prompt[data-phase="${phase}"]`);
  await el.waitFor({ timeout: 15_000 });
  return el.textContent();
}

/** Waits for the waiting side's line of `phase` and returns its text. */
async function waiting(page, phase) {
  const el = page.locator(`#op-wait[data-phase="${phase}"]`);
  await el.waitFor({ timeout: 15_000 });
  return el.textContent();
}

/** Clicks a point once the board takes input. */
async function tap(page, point) {
  await page.waitForSelector('.board-wrap.playable', { timeout: 15_000 });
  await clickPoint(page, point);
}

/** Screenshots of `page` at desktop and phone widths in the light and dark theme, then back to desktop light. */
async function shots(page, name) {
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, `openings-${name}-desktop-${scheme}`);
    await page.setViewportSize({ width: 390, height: 844 });
    // On a phone the prompt sits under the board: the shot shows it.
    await page.locator('#prompt').scrollIntoViewIfNeeded();
    await shot(page, `openings-${name}-phone-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 860 });
}

/** Switches the page's language with the header's button and waits until the document says so. */
async function language(page, code) {
  if ((await page.evaluate(() => document.documentElement.lang)).startsWith(code)) return;
  await page.click('#lang');
  await page.waitForFunction((c) => document.documentElement.lang.startsWith(c), code);
}

test('the create form offers every opening, with N for Soosõrv and Taraguchi and a short explanation', async (t) => {
  if (!(await setup(t))) return;
  const a = await guest(t, 'form');
  await a.page.click('#new-game');
  const values = await a.page.$$eval('#create-form input[name="opening"]', (els) => els.map((e) => e.value));
  assert.deepEqual(values, ['none', 'swap_after_three', 'swap_after_three_fifth_two_options', 'swap1', 'swap2', 'soosorv', 'taraguchi']);
  assert.ok(await a.page.locator('#opening-soosorv-n').isHidden(), 'N is hidden until Soosõrv is chosen');
  await a.page.check('#create-form input[name="opening"][value="soosorv"]', { force: true });
  assert.ok(await a.page.locator('#opening-soosorv-n').isVisible());
  assert.equal(await a.page.inputValue('#opening-soosorv-n'), '8', 'Soosõrv defaults to 8');
  assert.deepEqual(await a.page.$$eval('#opening-soosorv-n option', (os) => os.map((o) => o.value)), ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
  assert.match(await a.page.textContent('#opening-hint'), /26 canonical openings.*1–8/);
  await a.page.selectOption('#opening-soosorv-n', '5');
  assert.match(await a.page.textContent('#opening-hint'), /1–5/, 'the explanation follows N');
  await a.page.check('#create-form input[name="opening"][value="taraguchi"]', { force: true });
  assert.ok(await a.page.locator('#opening-soosorv-n').isHidden());
  assert.equal(await a.page.inputValue('#opening-taraguchi-n'), '10', 'Taraguchi defaults to 10');
  await a.page.check('#create-form input[name="opening"][value="swap2"]', { force: true });
  assert.match(await a.page.textContent('#opening-hint'), /two more stones/);
  await shot(a.page, 'openings-form-desktop-light-en');
  // The form is a dialog over the page (issue #36): closed with Escape before the header's language button.
  await a.page.keyboard.press('Escape');
  await a.page.waitForSelector('#create-form', { state: 'detached' });
  await language(a.page, 'zh');
  // The form is rebuilt in the new language when reopened.
  await a.page.goto(`${server.url}/#/`);
  await a.page.click('#new-game');
  await a.page.check('#create-form input[name="opening"][value="soosorv"]', { force: true });
  assert.match(await a.page.textContent('#create-form'), /索索夫/);
  assert.match(await a.page.textContent('#opening-hint'), /26种标准开局/);
  await a.page.setViewportSize({ width: 390, height: 844 });
  await a.page.emulateMedia({ colorScheme: 'dark' });
  await a.page.locator('#opening-hint').scrollIntoViewIfNeeded();
  await shot(a.page, 'openings-form-phone-dark-zh');
  // The computer plays every opening: its form offers them all (opened once the create dialog is closed).
  await a.page.keyboard.press('Escape');
  await a.page.click('#play-computer');
  await a.page.waitForSelector('#computer-form');
  const shown = await a.page.$$eval('#computer-form input[name="opening"]', (els) => els.filter((e) => !e.closest('label').hidden).map((e) => e.value));
  for (const opening of ['none', 'swap_after_three', 'swap_after_three_fifth_two_options', 'swap1', 'swap2', 'soosorv', 'taraguchi']) {
    assert.ok(shown.includes(opening), `${opening} in ${shown}`);
  }
});

test('Swap2 in the browser: three stones, two more, the colour choice, then normal play to a five', async (t) => {
  if (!(await setup(t))) return;
  const a = await guest(t, 'ann');
  const b = await guest(t, 'bob');
  const s = await guest(t, 'sue');
  const room = await createRoom(a.page, 'swap2');
  assert.match(await a.page.textContent('#room-rules'), /Swap2/);
  await b.page.goto(`${server.url}/#/room/${encodeURIComponent(room)}`);
  await a.page.waitForSelector('#room[data-state="playing"]', { timeout: 15_000 });
  await b.page.waitForSelector('#room[data-state="playing"]', { timeout: 15_000 });
  await s.page.goto(`${server.url}/#/room/${encodeURIComponent(room)}/watch`);
  await s.page.waitForSelector('#room[data-role="spectator"]');

  // Ann (black) places the first three stones: black, white, black. Bob and Sue see what is waited for.
  assert.match(await prompt(a.page, 'place_opening'), /stone 1 of 3 \(Black\)/);
  assert.match(await waiting(b.page, 'place_opening'), new RegExp(`Black \\(${a.name}\\) is placing the opening`));
  assert.match(await waiting(s.page, 'place_opening'), /is placing the opening: stone 1 of 3/);
  // Issue #36 item 4: the prompt follows the stone count, for the placer and for everyone else.
  await tap(a.page, 'h8');
  for (const p of [a.page, b.page, s.page]) await stonesDown(p, 1);
  assert.match(await prompt(a.page, 'place_opening'), /stone 2 of 3 \(White\)/);
  assert.match(await waiting(b.page, 'place_opening'), /stone 2 of 3/);
  assert.match(await waiting(s.page, 'place_opening'), /stone 2 of 3/);
  await tap(a.page, 'i9');
  for (const p of [a.page, b.page, s.page]) await stonesDown(p, 2);
  assert.match(await prompt(a.page, 'place_opening'), /stone 3 of 3 \(Black\)/);
  assert.match(await waiting(b.page, 'place_opening'), /stone 3 of 3/);
  assert.match(await waiting(s.page, 'place_opening'), /stone 3 of 3/);
  await tap(a.page, 'j7');
  for (const p of [a.page, b.page, s.page]) await stonesDown(p, 3);
  assert.deepEqual(await stones(b.page), { h8: 'black', i9: 'white', j7: 'black' });

  // Bob (white) has three answers; he places two more stones, picked on the board, then confirmed.
  assert.match(await prompt(b.page, 'swap2_decision'), /Keep white and play move 4, take black, or place two more stones/);
  assert.match(await waiting(a.page, 'swap2_decision'), new RegExp(`White \\(${b.name}\\) is choosing: white, black, or two more stones`));
  assert.ok(await b.page.locator('#op-add-send').isDisabled(), 'nothing to confirm before two points are picked');
  await tap(b.page, 'g7');
  await b.page.waitForSelector('.board .option.white[data-point="g7"]');
  await tap(b.page, 'k10');
  await b.page.waitForSelector('.board .option.black[data-point="k10"]');
  assert.match(await b.page.textContent('#op-picks'), /2 of 2 chosen · g7, k10/);
  // A third tap changes nothing (two are picked), a tap on a picked point takes it back.
  await tap(b.page, 'a1');
  assert.equal(await b.page.locator('.board .option').count(), 2);
  await tap(b.page, 'k10');
  assert.equal(await b.page.locator('.board .option').count(), 1);
  await tap(b.page, 'k10');
  await b.page.waitForSelector('.board .option.black[data-point="k10"]');
  await shots(b.page, 'swap2-add');
  await language(b.page, 'zh');
  assert.match(await prompt(b.page, 'swap2_decision'), /已摆三子。可执白下第4手、改为黑方，或再摆两子/);
  assert.match(await b.page.textContent('#op-picks'), /已选 2\/2/);
  await shot(b.page, 'openings-swap2-add-desktop-light-zh');
  await b.page.click('#op-add-send');
  for (const p of [a.page, b.page, s.page]) await stonesDown(p, 5);
  assert.deepEqual(await stones(s.page), { h8: 'black', i9: 'white', j7: 'black', g7: 'white', k10: 'black' });

  // Now Ann, holding black, chooses the colour; Bob (in Chinese) sees that she is choosing.
  assert.match(await prompt(a.page, 'swap_decision'), /Two more stones are down: choose your colour/);
  assert.match(await a.page.textContent('#op-swap'), /Take White/);
  assert.match(await a.page.textContent('#op-keep'), /Keep Black/);
  assert.match(await waiting(b.page, 'swap_decision'), new RegExp(`黑方（${a.name}）正在选择执子颜色`));
  assert.match(await waiting(s.page, 'swap_decision'), /is choosing a colour/);
  await shots(s.page, 'swap2-colour-spectator');
  await shots(b.page, 'swap2-colour-wait-zh');
  await a.page.click('#op-swap');

  // Ann took white: the seats changed hands, and white (Ann) plays move 6.
  await a.page.waitForSelector('.pcard.bottom[data-colour="white"]', { timeout: 15_000 });
  await b.page.waitForSelector('.pcard.bottom[data-colour="black"]', { timeout: 15_000 });
  await a.page.waitForSelector('.lead.turn', { timeout: 15_000 });
  assert.equal(await a.page.locator('#op-prompt').count(), 0, 'no opening prompt in normal play');
  await tap(a.page, 'f6');
  for (const p of [a.page, b.page, s.page]) await stonesDown(p, 6);
  await tap(b.page, 'l11');
  for (const p of [a.page, b.page, s.page]) await stonesDown(p, 7);
  assert.deepEqual(await stones(a.page), { h8: 'black', i9: 'white', j7: 'black', g7: 'white', k10: 'black', f6: 'white', l11: 'black' });
  assert.match(await s.page.textContent('#prompt'), /White to move|White/);

  // Played to the end: Bob, now black, completes five on the diagonal j9–n13 while Ann plays far away.
  const rest = [['a', 'a1'], ['b', 'm12'], ['a', 'a2'], ['b', 'j9'], ['a', 'a3'], ['b', 'n13']];
  let down = 7;
  for (const [who, point] of rest) {
    const page = who === 'a' ? a.page : b.page;
    await page.waitForSelector('.lead.turn', { timeout: 15_000 });
    await tap(page, point);
    down += 1;
    for (const p of [a.page, b.page, s.page]) await stonesDown(p, down);
  }
  for (const p of [a.page, b.page, s.page]) {
    await p.waitForSelector('#game-over', { timeout: 15_000 });
  }
  assert.match(await s.page.textContent('#game-over'), /five in a row/);
  assert.match(await b.page.textContent('#game-over'), /五/);
  await shots(s.page, 'swap2-over');
});

test('Soosõrv-8 in the browser: the canonical opening, the declaration, the offers and the choice', async (t) => {
  if (!(await setup(t))) return;
  const a = await guest(t, 'amy');
  const b = await guest(t, 'ben');
  const room = await createRoom(a.page, 'soosorv', 8);
  assert.match(await a.page.textContent('#room-rules'), /Soosõrv-8/);
  await b.page.goto(`${server.url}/#/room/${encodeURIComponent(room)}`);
  await a.page.waitForSelector('#room[data-state="playing"]', { timeout: 15_000 });

  assert.match(await prompt(a.page, 'place_opening'), /one of the 26 canonical openings: stone 1 of 3/);
  await tap(a.page, 'h8');
  await stonesDown(a.page, 1);
  await tap(a.page, 'h9');
  for (const p of [a.page, b.page]) await stonesDown(p, 2);
  assert.match(await prompt(a.page, 'place_opening'), /canonical openings: stone 3 of 3 \(Black\)/);
  // The other side, in Chinese, reads the same count (issue #36 item 4).
  await language(b.page, 'zh');
  assert.match(await waiting(b.page, 'place_opening'), /正在摆出26种标准开局之一：第3\/3子/);
  await shots(b.page, 'soosorv-third-stone-wait-zh');
  await language(b.page, 'en');
  // Black 3 outside the central 5×5 is refused, in words.
  await tap(a.page, 'a1');
  await a.page.waitForSelector('#toasts .toast.error', { timeout: 15_000 });
  assert.match(await a.page.textContent('#toasts .toast.error'), /26 canonical openings/);
  await tap(a.page, 'j10');
  for (const p of [a.page, b.page]) await stonesDown(p, 3);
  // The three stones make 3D (f10 mirrored), named beside the prompt.
  await a.page.waitForSelector('#opening-name');
  assert.match(await a.page.textContent('#opening-name'), /Opening: 3D Sosei \(Sparse star\)/);

  // Ben (white) may swap; he keeps white, and plays move 4.
  assert.match(await prompt(b.page, 'swap_decision'), /you hold White/);
  await b.page.click('#op-keep');
  await b.page.waitForSelector('.lead.turn', { timeout: 15_000 });
  await tap(b.page, 'g7');
  for (const p of [a.page, b.page]) await stonesDown(p, 4);

  // Ben declares how many fifth moves Amy must offer: 1 to 8.
  assert.match(await prompt(b.page, 'declare_offers'), /\(1–8\)/);
  assert.equal(await b.page.locator('#op-prompt [id^="op-declare-"]:not(#op-declare-send)').count(), 8);
  assert.ok(await b.page.locator('#op-declare-send').isDisabled());
  assert.match(await waiting(a.page, 'declare_offers'), new RegExp(`White \\(${b.name}\\) is declaring how many fifth moves black offers \\(1–8\\)`));
  await b.page.click('#op-declare-3');
  assert.match(await b.page.textContent('#op-declare-send'), /Declare 3/);
  await shots(b.page, 'soosorv-declare');
  await language(b.page, 'zh');
  assert.match(await prompt(b.page, 'declare_offers'), /请宣布黑方须提供几个五手打点（1–8）/);
  await shot(b.page, 'openings-soosorv-declare-desktop-light-zh');
  await b.page.click('#op-declare-send');

  // Amy (black) may swap again; she keeps black, then offers three fifth moves picked on the board.
  assert.match(await prompt(a.page, 'swap_decision'), /you hold Black/);
  await a.page.click('#op-keep');
  assert.match(await prompt(a.page, 'offer_fifths'), /Offer 3 fifth moves/);
  assert.match(await waiting(b.page, 'offer_fifths'), /正在选择3个五手打点/);
  for (const p of ['k12', 'd4', 'm3']) await tap(a.page, p);
  await a.page.waitForSelector('.board .option[data-point="m3"]');
  assert.match(await a.page.textContent('#op-picks'), /3 of 3 chosen · k12, d4, m3/);
  await shots(a.page, 'soosorv-offers');
  await a.page.click('#op-offer-send');

  // Ben chooses one of the marked offers by tapping it; Amy sees him choosing.
  await prompt(b.page, 'choose_offer');
  assert.match(await waiting(a.page, 'choose_offer'), /is choosing one of the 3 offered fifth moves/);
  assert.deepEqual((await b.page.$$eval('.board .option', (els) => els.map((e) => e.dataset.point))).sort(), ['d4', 'k12', 'm3']);
  assert.deepEqual((await a.page.$$eval('.board .option', (els) => els.map((e) => e.dataset.point))).sort(), ['d4', 'k12', 'm3'], 'the offers are marked for everyone');
  await language(b.page, 'en');
  assert.match(await prompt(b.page, 'choose_offer'), /tap one of the 3 marked points/);
  await shots(b.page, 'soosorv-choose');
  await language(b.page, 'zh');
  assert.match(await prompt(b.page, 'choose_offer'), /请选择第五手/);
  assert.match(await b.page.textContent('#opening-name'), /开局：3D 疏星/);
  await shots(b.page, 'soosorv-choose-zh');
  await tap(b.page, 'd4');
  for (const p of [a.page, b.page]) await stonesDown(p, 5);
  assert.equal(await a.page.locator('.board .option').count(), 0, 'the offers are gone once one is chosen');
  assert.equal((await stones(a.page)).d4, 'black');

  // Normal play: white (Ben) plays move 6, black move 7.
  await tap(b.page, 'i8');
  await stonesDown(a.page, 6);
  await a.page.waitForSelector('.lead.turn', { timeout: 15_000 });
  await tap(a.page, 'j9');
  for (const p of [a.page, b.page]) await stonesDown(p, 7);
  assert.deepEqual(await stones(b.page), { h8: 'black', h9: 'white', j10: 'black', g7: 'white', d4: 'black', i8: 'white', j9: 'black' });

  // Ben resigns; the record replays the seven stones (the declaration, swaps and offers lay none).
  b.page.once('dialog', (d) => d.accept());
  await b.page.click('#resign');
  await a.page.waitForSelector('#game-over a.link', { timeout: 15_000 });
  await a.page.click('#game-over a.link');
  await a.page.waitForSelector('#ply-counter');
  await a.page.waitForFunction(() => /7/.test(document.querySelector('#ply-counter')?.textContent || ''));
  assert.deepEqual(await stones(a.page), { h8: 'black', h9: 'white', j10: 'black', g7: 'white', d4: 'black', i8: 'white', j9: 'black' });
  assert.equal(await a.page.locator('#moves li, .movelist li').count() >= 7, true);
  // The opening as decided, with who decided it (issue #36 item 7), and the game's facts.
  const opening = await a.page.$$eval('#record-opening li', (els) => els.map((e) => e.textContent));
  assert.ok(opening.some((l) => /declared 3 fifth moves/.test(l)), opening.join(' | '));
  assert.ok(opening.some((l) => /offered .*d4/.test(l)), opening.join(' | '));
  assert.match(opening[opening.length - 1], /chose d4$/);
  assert.match(await a.page.textContent('#record-meta'), /Casual/);
  await shot(a.page, 'openings-soosorv-record-desktop-light');
});

test('Taraguchi-2 in the browser: a swap after each move, the central squares, choice 2 with two offers', async (t) => {
  if (!(await setup(t))) return;
  const a = await guest(t, 'ada');
  const b = await guest(t, 'bo');
  const room = await createRoom(a.page, 'taraguchi', 2);
  assert.match(await a.page.textContent('#room-rules'), /Taraguchi-2/);
  await b.page.goto(`${server.url}/#/room/${encodeURIComponent(room)}`);
  await a.page.waitForSelector('#room[data-state="playing"]', { timeout: 15_000 });

  assert.match(await prompt(a.page, 'place'), /stone 1 \(Black\) on the centre/);
  await tap(a.page, 'h8');
  await stonesDown(b.page, 1);
  assert.match(await prompt(b.page, 'swap_decision'), /you hold White/);
  await b.page.click('#op-keep');
  assert.match(await prompt(b.page, 'place'), /inside the central 3×3/);
  // Outside the 3×3 is refused, in words.
  await tap(b.page, 'a1');
  await b.page.waitForSelector('#toasts .toast.error', { timeout: 15_000 });
  assert.match(await b.page.textContent('#toasts .toast.error'), /central square/);
  await tap(b.page, 'h9');
  await stonesDown(a.page, 2);
  await prompt(a.page, 'swap_decision');
  await a.page.click('#op-keep');
  await prompt(a.page, 'place');
  await tap(a.page, 'j10');
  await stonesDown(b.page, 3);
  await prompt(b.page, 'swap_decision');
  await b.page.click('#op-keep');
  await prompt(b.page, 'place');
  await tap(b.page, 'g7');
  await stonesDown(a.page, 4);

  // Ada (black) chooses: play on with a swap decision, or offer two fifth moves; she offers.
  assert.match(await prompt(a.page, 'taraguchi_choice'), /you hold Black: choose/);
  assert.ok(await a.page.locator('#op-swap').isVisible());
  assert.match(await waiting(b.page, 'taraguchi_choice'), /is choosing: play on, or offer 2 fifth moves/);
  await tap(a.page, 'l12');
  await tap(a.page, 'c3');
  assert.match(await a.page.textContent('#op-picks'), /2 of 2 chosen · l12, c3/);
  await shots(a.page, 'taraguchi-choice');
  await a.page.click('#op-offer-send');
  await prompt(b.page, 'choose_offer');
  await b.page.click('#op-choose-c3');
  for (const p of [a.page, b.page]) await stonesDown(p, 5);
  await b.page.waitForSelector('.lead.turn', { timeout: 15_000 });
  await tap(b.page, 'i7');
  await stonesDown(a.page, 6);
  assert.deepEqual(await stones(a.page), { h8: 'black', h9: 'white', j10: 'black', g7: 'white', c3: 'black', i7: 'white' });
});
