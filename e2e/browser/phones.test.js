// Every page on phone-sized screens, in both languages, signed in and as a guest: nothing may be wider than the
// screen (a page that scrolls sideways hides part of itself) and the header's controls must be wholly on screen.
// The server is scripted, as in client.test.js, so each page has the data it shows in a real game.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { browserOrSkip, launch, serveClient, shot, watchedPage, gomokuSnapshot } from './harness.js';

const ORIGIN = 'http://gomoku.test';
let browser;
after(async () => {
  await browser?.close();
});

const renju = { size: 15, rule_set: 'renju', forbidden_policy: 'reject', opening: 'swap_after_three' };
const fischer = { kind: 'fischer', base_ms: 600_000, increment_ms: 5000 };
const seat = (name, extra = {}) => ({ id: name, name, guest: false, rating: 1612, provisional: false, tier: 'Club Player', connected: true, ...extra });
const MOVES = ['h8', 'g9', 'i8', 'k11', 'j8', 'f6', 'k8', 'l12', 'l8', 'm9', 'g8'];
const RESULT = { winner: 'black', winner_name: 'lin_yue', reason: 'five', line: ['g8', 'h8', 'i8', 'j8', 'k8'] };

const ROOM = {
  id: 'r1', version: 20, rules: renju, time_control: fischer, rated: true, public: true, game_id: 3, record: 'x7k2m9q4w8p3z6c5',
  state: 'playing', seats: { black: seat('lin_yue'), white: seat('kenta', { rating: 1588, tier: 'Amateur' }) }, you: null,
  phase: 'place', to_act: 'white', moves: MOVES.slice(0, 9), swapped: false,
  clocks: { black: { remaining_ms: 431_000 }, white: { remaining_ms: 502_000 }, running: 'white' },
  forbidden: [], claimable: null, fifth_options: null, offers: [], spectators: 4, result: null,
};
const LOBBY = [
  { id: 'r9', rules: renju, time_control: fischer, rated: false, state: 'waiting', players: [{ name: 'guest-7kq2', colour: 'black' }], spectators: 0 },
  { id: 'r8', rules: { ...renju, opening: 'swap_after_three_fifth_two_options', forbidden_policy: 'claim' }, time_control: { kind: 'byo_yomi', base_ms: 900_000, periods: 5, period_ms: 30_000 }, rated: true, state: 'waiting', players: [{ name: 'mei', colour: 'white', rating: 1873, tier: 'Expert' }], spectators: 0 },
  { id: 'r1', rules: renju, time_control: fischer, rated: true, state: 'playing', players: [{ name: 'lin_yue', colour: 'black', rating: 1612, tier: 'Club Player' }, { name: 'kenta', colour: 'white', rating: 1588, tier: 'Amateur' }], spectators: 4 },
];
const RECORD = {
  id: 3, public_id: 'x7k2m9q4w8p3z6c5', room: 'r1', rules: renju, time_control: fischer, rated: true, black: 'lin_yue', white: 'kenta', started_at: 0,
  moves: MOVES.map((p, i) => ({ seq: i, action: { action: 'place', point: p }, used_ms: 1000, at: i })), result: RESULT,
};
const TIERS = ['Grand Master', 'International Master', 'Master', 'Candidate Master', 'Expert', 'Advanced', 'Club Player', 'Amateur'];
const BOARD = { pool: 'renju', entries: TIERS.map((tier, i) => ({ rank: i + 1, name: `player_number_${i + 1}`, pool: 'renju', rating: 2480 - i * 150, deviation: 60, provisional: false, tier, tier_code: tier.toLowerCase().replace(/ /g, '_'), games: 40 - i, wins: 30 - i, losses: 8, draws: 2 })) };
const PROFILE = {
  name: 'lin_yue',
  ratings: [
    { pool: 'renju', rating: 1627.4, deviation: 70, provisional: false, tier: 'Club Player', tier_code: 'club_player', games: 24, wins: 14, losses: 9, draws: 1, history: Array.from({ length: 24 }, (_, i) => ({ time: 1_700_000_000_000 + i * 86_400_000, rating: 1500 + i * 5 })) },
    { pool: 'freestyle', rating: 1500, deviation: 340, provisional: true, tier: 'Amateur', tier_code: 'amateur', games: 1, wins: 0, losses: 1, draws: 0, history: [] },
  ],
  games: [{ id: 3, room: 'r1', pool: 'renju', rules: renju, rated: true, black: { name: 'lin_yue', guest: false }, white: { name: 'kenta', guest: false }, swapped: false, started_at: 1_702_000_000_000, ended_at: 1_702_000_600_000, state: 'over', winner: 'black', winner_name: 'lin_yue', reason: 'five', rating_before: 1612, rating_after: 1627.4 }],
  next_before: null,
};

// Issue #36 item 5: the room in each of its states, as a player and as a spectator.
const STATES = {
  r1: ROOM,
  // Waiting for the second player, a casual Gomoku room: "Play the computer here" and the invite link show.
  w1: { ...ROOM, id: 'w1', state: 'waiting', rated: false, game_id: null, record: null, seats: { black: seat('lin_yue_long', { id: 'u1' }), white: null }, you: 'black', phase: 'none', to_act: null, moves: [], clocks: null, spectators: 0 },
  // Playing, our move, both clocks with the first-move allowance left (the longest clock text).
  p1: { ...ROOM, id: 'p1', seats: { black: seat('lin_yue_long', { id: 'u1', provisional: true }), white: seat('kenta_the_long_named', { rating: 1588, tier: 'Candidate Master' }) }, you: 'black', to_act: 'black', moves: [], clocks: { black: { remaining_ms: 600_000, first_move_ms: 30_000 }, white: { remaining_ms: 600_000, first_move_ms: 30_000 }, running: 'black' } },
  // Over, as a player: the result, the rematch and the record's link.
  o1: { ...ROOM, id: 'o1', state: 'over', phase: 'none', to_act: null, seats: { black: seat('lin_yue_long', { id: 'u1' }), white: seat('kenta') }, you: 'black', moves: MOVES, clocks: { ...ROOM.clocks, running: null }, result: { ...RESULT, winner_name: 'lin_yue_long', ratings: [{ name: 'lin_yue_long', before: 1612, after: 1627.4, tier: 'Club Player' }, { name: 'kenta', before: 1588, after: 1573.1, tier: 'Amateur' }] } },
};
const ROOM_PAGES = [
  ['room-waiting', '#/room/w1', '#room[data-state="waiting"] #invite-link'],
  ['room-playing', '#/room/p1', '#room[data-state="playing"] [data-clock="black"]'],
  ['room-watching', '#/room/r1/watch', '#room[data-role="spectator"] .board .stone'],
  ['room-over', '#/room/o1', '#game-over'],
];

const json = (body) => (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
const API = { '/api/games/': json(RECORD), '/api/leaderboard': json(BOARD), '/api/players/': json(PROFILE) };

/** Each page, with what shows that it has drawn its content. */
const PAGES = [
  ['lobby', '#/', '#waiting-rooms .room-row'],
  ['room', '#/room/r1/watch', '.board .stone'],
  ['record', '#/game/x7k2m9q4w8p3z6c5', '#record-result'],
  ['profile', '#/player/lin_yue', '.chart .line'],
  ['leaderboard', '#/leaderboard/renju', '#leaderboard tbody tr'],
  ['login', '#/login', '#auth-form'],
  ['register', '#/register', '#auth-form'],
  ['rules-gomoku', '#/rules/gomoku', '#rules-page li'],
  ['rules-insect', '#/rules/insect', '#rules-page figure[data-figure="cycle"] svg'],
];
const WIDTHS = [320, 360, 390];
const GUEST = { id: 'g5d0c3b8a1e6f2947c0d1', name: 'guest-pshskv', guest: true };
const ACCOUNT = { id: 'u1', name: 'lin_yue_long', guest: false };

async function phone(t, width, lang, you) {
  if (!browser) {
    const chromium = await browserOrSkip(t);
    if (!chromium) return null;
    browser = await launch(chromium);
  }
  const context = await browser.newContext({ viewport: { width, height: 760 }, hasTouch: true, deviceScaleFactor: 1 });
  // Not `isMobile`: a mobile viewport zooms out to fit a page that is too wide, and innerWidth then grows with it.
  await serveClient(context, ORIGIN, API);
  await context.routeWebSocket('ws://gomoku.test/ws', (ws) => {
    ws.onMessage((text) => {
      const m = JSON.parse(text);
      const reply = (msg) => ws.send(JSON.stringify({ ...msg, rid: m.rid }));
      if (m.t === 'hello') reply({ t: 'welcome', you, token: 'tok', server_version: 'test' });
      else if (m.t === 'subscribe_lobby') reply({ t: 'lobby', rooms: LOBBY, total: LOBBY.length });
      else if (m.t === 'join') reply({ t: 'room', room: gomokuSnapshot(STATES[m.room] || ROOM) });
      else if (m.rid !== undefined) reply({ t: 'ack' });
    });
  });
  await context.addInitScript((l) => localStorage.setItem('gomoku.lang', l), lang);
  const { page: p } = await watchedPage(t, context);
  return p;
}

/** What sticks out: the page's scroll width, and each visible header control whose box leaves the screen. */
function measure() {
  const vw = window.innerWidth;
  const out = [];
  const controls = document.querySelectorAll('.topbar .brand, .topbar .mainnav a, #lang, #theme, #user > *');
  for (const el of controls) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue; // hidden on this screen
    if (r.left < 0 || r.right > vw + 0.5) out.push(`header control ${el.id || el.className || el.tagName} [${Math.round(r.left)}, ${Math.round(r.right)}] is off screen`);
  }
  // Labels must read whole ("Leaderb…" is not a link anyone finds); only a long user name may end in an ellipsis.
  for (const el of document.querySelectorAll('.topbar .mainnav a, #lang, #user .btn')) {
    if (el.getClientRects().length && el.scrollWidth > el.clientWidth + 1) out.push(`header label "${el.textContent}" is cut (${el.scrollWidth}px in ${el.clientWidth}px)`);
  }
  // A card whose content is wider than itself spills over its edge (a cut-off table column) even when the page
  // as a whole still fits.
  for (const el of document.querySelectorAll('main .card')) {
    if (el.scrollWidth > el.clientWidth + 1) out.push(`card ${el.className} holds ${el.scrollWidth}px in ${el.clientWidth}px`);
  }
  // The innermost elements that reach past the right edge name the culprit in a failure.
  const past = [...document.querySelectorAll('main *, .topbar *')].filter((el) => el.getBoundingClientRect().right > vw + 0.5);
  const culprits = past.filter((el) => !past.some((o) => o !== el && el.contains(o))).slice(0, 4)
    .map((el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ').join('.')}` : ''}`);
  return { scrollWidth: document.documentElement.scrollWidth, innerWidth: vw, outside: out, culprits, signIn: Boolean(document.querySelector('#user a[href="#/login"], #user .who')) };
}

/**
 * What a thumb meets: each header control and nav link at least 44 px tall (the guest's name, the bell and
 * Analysis shown, not hidden to make room), and on a player card the clock clear of the name and tier.
 */
function thumbs() {
  const out = [];
  const shown = (el) => el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  for (const sel of ['.mainnav a[data-nav="analysis"]', '.notify-btn', '#user .who, #user a[href="#/login"]']) {
    if (!shown(document.querySelector(sel))) out.push(`${sel} is hidden`);
  }
  for (const el of document.querySelectorAll('.topbar .mainnav a, #lang, #theme, .notify-btn, #user .btn, #user .who')) {
    if (!shown(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.height < 43.5) out.push(`tap target ${el.id || el.className || el.textContent} is ${Math.round(r.height)}px tall`);
  }
  for (const card of document.querySelectorAll('.pcard')) {
    const clock = card.querySelector('.clock-box');
    if (!clock || !clock.getClientRects().length) continue;
    const c = clock.getBoundingClientRect();
    for (const el of card.querySelectorAll('.pname, .psub .rating, .psub .tier')) {
      const r = el.getBoundingClientRect();
      if (r.right > c.left + 0.5 && r.left < c.right && r.bottom > c.top && r.top < c.bottom) out.push(`the clock covers ${el.className} "${el.textContent}"`);
      if (el.classList.contains('pname') && el.scrollWidth > el.clientWidth + 1 && el.textContent.length <= 12) out.push(`the name "${el.textContent}" is cut`);
    }
  }
  return out;
}

for (const [who, you] of [['a guest', GUEST], ['an account', ACCOUNT]]) {
  for (const lang of ['en', 'zh']) {
    test(`at 320, 360 and 390 px the waiting room and every room state fit, with tap targets a thumb can hit, for ${who} in ${lang}`, async (t) => {
      const problems = [];
      for (const width of WIDTHS) {
        const p = await phone(t, width, lang, you);
        if (!p) return;
        for (const [name, hash, ready] of ROOM_PAGES) {
          await p.goto(`${ORIGIN}/${hash}`);
          await p.waitForSelector(ready);
          await p.waitForSelector('#user > *', { state: 'attached' });
          const m = await p.evaluate(measure);
          if (m.scrollWidth > m.innerWidth) problems.push(`${name} at ${width}: the page is ${m.scrollWidth}px wide (${m.culprits.join(', ')})`);
          for (const o of m.outside) problems.push(`${name} at ${width}: ${o}`);
          for (const o of await p.evaluate(thumbs)) problems.push(`${name} at ${width}: ${o}`);
          if (width !== 390 || lang === 'zh') await shot(p, `phone-${name}-${width}-${lang}-${you.guest ? 'guest' : 'account'}`);
        }
      }
      assert.deepEqual([...new Set(problems)], []);
    });
  }
}

for (const [who, you] of [['a guest', GUEST], ['an account', ACCOUNT]]) {
  for (const lang of ['en', 'zh']) {
    test(`at 320, 360 and 390 px every page fits the screen, header included, for ${who} in ${lang}`, async (t) => {
      const problems = [];
      for (const width of WIDTHS) {
        const p = await phone(t, width, lang, you);
        if (!p) return;
        for (const [name, hash, ready] of PAGES) {
          await p.goto(`${ORIGIN}/${hash}`);
          await p.waitForSelector(ready);
          await p.waitForSelector('#user > *', { state: 'attached' });
          const m = await p.evaluate(measure);
          assert.ok(m.signIn, 'the header shows the sign-in link or the name');
          assert.equal(m.innerWidth, width, 'the layout viewport is the screen');
          if (m.scrollWidth > m.innerWidth) problems.push(`${name} at ${width}: the page is ${m.scrollWidth}px wide (${m.culprits.join(', ')})`);
          for (const o of m.outside) problems.push(`${name} at ${width}: ${o}`);
          if (width === 320 || name === 'record') await shot(p, `phone-${name}-${width}-${lang}-${you.guest ? 'guest' : 'account'}`);
        }
      }
      assert.deepEqual(problems, []);
    });
  }
}
