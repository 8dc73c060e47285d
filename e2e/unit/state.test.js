// The room reducer against protocol messages, including the whole-game transcript of docs/protocol.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fromSnapshot, applyEvent, applyCatchUp, controls, clockFigures, seatOf, splitChat, canTakeBack, CHAT_KEPT } from '../../web-client/js/state.js';
import { visibleForbidden } from '../../web-client/js/games/gomoku/state.js';

// Ids equal names here, so `me` reads as a name; the test of same-named guests gives them different ids.
const seat = (name, id = name) => ({ id, name, guest: true, connected: true });
const RULES = { size: 15, rule_set: 'renju', forbidden_policy: 'claim', opening: 'swap_after_three' };
/** A Gomoku position as the server's view has it (protocol version 2); `actions` default to the stones. */
const gomokuView = (v = {}) => ({
  game: 'gomoku', size: 15, moves: [], to_act: null, phase: null, swapped: false, forbidden: [], claimable: null,
  fifth_options: null, ...v, actions: v.actions || v.moves || [],
});
/**
 * A version-2 snapshot: `game` beside `rules`, the position in `view` once a game is on (the snapshot's own Gomoku
 * fields empty); `over` may give the position's fields (`moves`, `phase`, `to_act`, …) as a playing room holds them.
 */
const snapshot = (over = {}) => {
  const { moves, phase, to_act, swapped, forbidden, claimable, fifth_options, actions, ...rest } = over;
  const rules = rest.rules || RULES;
  const on = rest.state === 'playing' || rest.state === 'over';
  return {
    id: 'r1', version: 0, rules, game: { game: 'gomoku', ...rules },
    time_control: { kind: 'none' }, rated: false, public: true, game_id: null, state: 'waiting',
    seats: { black: seat('ann'), white: null }, you: 'black', phase: on ? phase ?? 'place' : 'none', to_act: on ? to_act ?? null : null, moves: [], swapped: false,
    clocks: null, forbidden: [], claimable: null, fifth_options: null, offers: [], spectators: 0, result: null, ...rest,
    view: on ? gomokuView({ moves, phase, to_act, swapped, forbidden, claimable, fifth_options, actions }) : null,
  };
};
/** The `action` event of a stone: `at` actions before it, the game's `ply` after it. */
const move = (at, colour, point, ply, to_act, phase = 'place', extra = {}) => ({
  kind: 'action', at, by: colour, action: point,
  change: { game: 'gomoku', placed: point, ply, forbidden: extra.forbidden || [], ...(extra.claimable ? { claimable: extra.claimable } : {}) },
  to_act, phase, clocks: extra.clocks ?? null,
});
/** The `action` event of an action that places no stone (`swap`, `keep`, `propose:…`), with its change's fields. */
const decided = (at, colour, action, ply, to_act, phase, change) => ({
  kind: 'action', at, by: colour, action, change: { game: 'gomoku', placed: null, ply, forbidden: [], ...change }, to_act, phase, clocks: null,
});

function started() {
  let r = fromSnapshot(snapshot(), 'ann', 0);
  r = applyEvent(r, 1, { kind: 'player_joined', colour: 'white', player: seat('bob') }, 0);
  r = applyEvent(r, 2, { kind: 'game_started', game_id: 7, record: 'k3m9q2x7w4p8z6c5', black: seat('ann'), white: seat('bob'), clocks: null, forbidden: [], view: gomokuView({ to_act: 'black', phase: 'place' }) }, 0);
  return r;
}

test('a game starts when the second player sits, and black may place', () => {
  const r = started();
  assert.equal(r.state, 'playing');
  assert.equal(r.game_id, 7);
  assert.equal(r.record, 'k3m9q2x7w4p8z6c5', 'the record link follows the new game');
  assert.equal(controls(r).place, true);
  assert.equal(controls({ ...r, me: 'bob' }).place, false);
  assert.equal(controls({ ...r, me: 'spectator' }).seated, false);
  assert.equal(controls({ ...r, me: 'spectator' }).resign, false, 'spectators get no action controls');
});

test('our seat is found by id, never by name: a guest showing the same name holds nothing of ours', () => {
  const r = fromSnapshot(snapshot({ seats: { black: seat('guest-aaaaaa', 'g1'), white: seat('guest-aaaaaa', 'g2') } }), 'g2', 0);
  assert.equal(seatOf(r), 'white');
  assert.equal(seatOf(r, 'g3'), null, 'the same name with another id is a spectator');
  assert.equal(seatOf({ ...r, me: undefined }), null, 'no id, no seat');
  const older = fromSnapshot(snapshot({ seats: { black: { name: 'ann', guest: true, connected: true }, white: null } }), undefined, 0);
  assert.equal(seatOf(older), null, 'a seat without an id is never ours');
});

test('events already seen are ignored and a gap asks for a resync', () => {
  let r = started();
  r = applyEvent(r, 3, move(0, 'black', 'h8', 1, 'white'), 0);
  const again = applyEvent(r, 3, move(0, 'black', 'h8', 1, 'white'), 0);
  assert.equal(again, r);
  assert.deepEqual(r.moves, ['h8']);
  const gap = applyEvent(r, 9, move(1, 'white', 'h9', 2, 'black'), 0);
  assert.equal(gap.needsResync, true);
  assert.deepEqual(gap.moves, ['h8']);
});

test('after a swap the names change colours and the old white player now holds black', () => {
  let r = started();
  r = applyEvent(r, 3, move(0, 'black', 'h8', 1, 'white'), 0);
  r = applyEvent(r, 4, move(1, 'white', 'h9', 2, 'black'), 0);
  r = applyEvent(r, 5, move(2, 'black', 'j10', 3, 'white', 'swap_decision'), 0);
  const bobView = { ...r, me: 'bob' };
  assert.equal(controls(bobView).swap, true);
  assert.equal(controls(r).swap, false);
  r = applyEvent(r, 6, decided(3, 'white', 'swap', 3, 'white', 'place', { swapped: true }), 0);
  assert.equal(seatOf(r), 'white');
  assert.equal(r.seats.black.name, 'bob');
  assert.equal(controls(r).place, true, 'ann now holds white, who moves 4');
  assert.deepEqual(r.notices, ['room.swapped']);
});

test('fifth-move proposals are shown to white to choose from', () => {
  let r = started();
  r = applyEvent(r, 3, decided(0, 'black', 'propose:h9,j10', 0, 'white', 'choose_fifth', { proposed: ['h9', 'j10'] }), 0);
  assert.deepEqual(r.fifth_options, ['h9', 'j10']);
  assert.equal(controls({ ...r, me: 'bob' }).chooseFifth, true);
  assert.equal(controls(r).chooseFifth, false, 'only white chooses');
  assert.equal(controls({ ...r, me: 'bob' }).input, true, 'the board takes the choice');
  r = applyEvent(r, 4, move(1, 'white', 'h9', 1, 'white'), 0);
  assert.equal(r.fifth_options, null);
});

test('forbidden points show only while black is to place; a claimable stone offers white the claim', () => {
  let r = started();
  r = applyEvent(r, 3, move(0, 'black', 'h8', 1, 'white'), 0);
  r = applyEvent(r, 4, move(1, 'white', 'a1', 2, 'black', 'place', { forbidden: [{ point: 'c3', kind: 'double_three' }] }), 0);
  assert.deepEqual(visibleForbidden(r), [{ point: 'c3', kind: 'double_three' }]);
  r = applyEvent(r, 5, move(2, 'black', 'c3', 3, 'white', 'place', { claimable: 'double_three' }), 0);
  assert.deepEqual(visibleForbidden(r), []);
  assert.equal(controls({ ...r, me: 'bob' }).claim, true);
  assert.equal(controls(r).claim, false);
});

test('offers can be answered by the opponent only, and an answer clears them', () => {
  let r = started();
  r = applyEvent(r, 3, { kind: 'offered', offer: 'draw', by: 'black' }, 0);
  assert.equal(controls(r).offerDraw, false, 'one pending offer of a kind');
  assert.equal(controls(r).answerDraw, false);
  assert.equal(controls({ ...r, me: 'bob' }).answerDraw, true);
  r = applyEvent(r, 4, { kind: 'offer_answered', offer: 'draw', by: 'white', accept: false }, 0);
  assert.deepEqual(r.offers, []);
  assert.equal(r.lastAnswer.accept, false);
});

test('a takeback restores the move list and the side to act', () => {
  let r = started();
  r = applyEvent(r, 3, move(0, 'black', 'h8', 1, 'white'), 0);
  r = applyEvent(r, 4, move(1, 'white', 'h9', 2, 'black'), 0);
  r = applyEvent(r, 5, { kind: 'actions_taken_back', at: 1, ply: 1, view: gomokuView({ moves: ['h8'], to_act: 'white', phase: 'place' }), to_act: 'white', phase: 'place', clocks: null }, 0);
  assert.deepEqual(r.moves, ['h8']);
  assert.equal(r.to_act, 'white');
  r = applyEvent(r, 6, move(1, 'white', 'j9', 2, 'black'), 0);
  assert.deepEqual(r.moves, ['h8', 'j9'], 'the next action is at the index the takeback left');
});

test('a disconnection shows a countdown until the player returns', () => {
  let r = started();
  r = applyEvent(r, 3, { kind: 'player_disconnected', colour: 'white', name: 'bob', grace_ms: 60_000 }, 1000);
  assert.equal(r.graceUntil.white, 61_000);
  assert.equal(r.seats.white.connected, false);
  r = applyEvent(r, 4, { kind: 'player_reconnected', colour: 'white', name: 'bob' }, 2000);
  assert.equal(r.graceUntil.white, undefined);
  assert.equal(r.seats.white.connected, true);
});

test('clocks run for the side to move from the moment the figures arrived', () => {
  let r = started();
  const clocks = { black: { remaining_ms: 60_000 }, white: { remaining_ms: 50_000 }, running: 'white' };
  r = applyEvent(r, 3, move(0, 'black', 'h8', 1, 'white', 'place', { clocks }), 10_000);
  const f = clockFigures(r, 12_500);
  assert.equal(f.white.elapsed, 2500);
  assert.equal(f.black.elapsed, 0);
  assert.equal(f.running, 'white');
});

test('game over ends the controls, keeps the line and allows a rematch', () => {
  let r = started();
  r = applyEvent(r, 3, { kind: 'game_over', result: { winner: 'black', reason: 'resign' }, clocks: null }, 0);
  assert.equal(r.state, 'over');
  assert.equal(controls(r).place, false);
  assert.equal(controls(r).rematch, true);
  r = applyEvent(r, 4, { kind: 'offered', offer: 'rematch', by: 'white' }, 0);
  assert.equal(controls(r).answerRematch, true);
  r = applyEvent(r, 5, { kind: 'game_started', game_id: 8, black: seat('bob'), white: seat('ann'), clocks: null, forbidden: [], view: gomokuView({ to_act: 'black', phase: 'place' }) }, 0);
  assert.equal(seatOf(r), 'white', 'the rematch exchanges colours');
  assert.equal(r.result, null);
});

test('a rated game over updates both seat cards with the ratings it left', () => {
  let r = started();
  r = { ...r, seats: { black: { ...r.seats.black, rating: 1500, provisional: true, tier: 'Beginner' }, white: { ...r.seats.white, rating: 1500, provisional: true } } };
  const ratings = [
    { name: 'ann', before: 1500, after: 1662.4, tier: 'Advanced', provisional: false },
    { name: 'bob', before: 1500, after: 1337.6, tier: 'Novice' },
  ];
  r = applyEvent(r, 3, { kind: 'game_over', result: { winner: 'black', reason: 'five', ratings }, clocks: null }, 0);
  assert.deepEqual([r.seats.black.rating, r.seats.black.tier, r.seats.black.provisional], [1662, 'Advanced', false]);
  assert.deepEqual([r.seats.white.rating, r.seats.white.tier, r.seats.white.provisional], [1338, 'Novice', true], 'an absent flag keeps the old one');
  assert.equal(r.seats.black.connected, true, 'the rest of the card is kept');
});

test('an unrated game over leaves the seat cards as they were', () => {
  const before = started();
  const r = applyEvent(before, 3, { kind: 'game_over', result: { winner: 'white', reason: 'resign' }, clocks: null }, 0);
  assert.deepEqual(r.seats, before.seats);
});

test('catch-up events are folded in order', () => {
  const r = applyCatchUp(started(), [
    { version: 3, event: move(0, 'black', 'h8', 1, 'white') },
    { version: 4, event: move(1, 'white', 'h9', 2, 'black') },
  ], 0);
  assert.deepEqual(r.moves, ['h8', 'h9']);
  assert.equal(r.version, 4);
});

// docs/protocol.md's "A whole game" (protocol version 2, played against the real server by
// server/tests/web/protocol_doc.rs): the frames A receives fold into A's final position.
test("the protocol document's whole Gomoku game folds into A's final position", () => {
  const doc = readFileSync(new URL('../../docs/protocol.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('## A whole game'));
  const block = section.slice(section.indexOf('```text'), section.indexOf('```', section.indexOf('```text') + 7));
  const lines = block.split('\n').filter((l) => l.startsWith('← {')).map((l) => JSON.parse(l.slice(2)));
  const welcome = lines.find((m) => m.t === 'welcome');
  let room = null;
  for (const m of lines) {
    if (m.t === 'room') room = fromSnapshot(m.room, welcome.you.id, 0);
    if (m.t === 'event' && room) room = applyEvent(room, m.version, m.event, 0);
  }
  assert.ok(room, 'the transcript has a room snapshot');
  assert.equal(seatOf(room), 'black', "A finds its seat by the welcome's id");
  assert.equal(room.state, 'over');
  assert.equal(room.result.winner, 'white', 'B wins with a five');
  assert.ok(room.moves.length >= 9, `every stone folded: ${room.moves}`);
  assert.deepEqual(room.moves, room.view.actions, 'one action per stone in a game without an opening');
  assert.equal(room.result.line.length, 5);
  assert.ok(room.result.line.every((p) => room.moves.includes(p)), 'the five is on the board');
  assert.equal(room.needsResync, false, 'versions in the transcript follow each other');
});

test('a room that closed for want of a second player says so and empties its seats', () => {
  let r = fromSnapshot(snapshot(), 'ann', 0);
  r = applyEvent(r, 1, { kind: 'room_closed', reason: 'expired' }, 0);
  assert.equal(r.state, 'closed');
  assert.equal(r.closed, 'expired');
  assert.deepEqual(r.seats, { black: null, white: null });
  assert.equal(controls(r).seated, false);
});

// Issue #14 item 16: the room's chat comes with every snapshot (oldest first, omitted when empty).
test("a snapshot's chat is the room's history: players' lines in the room, spectators' lines apart", () => {
  const chat = [
    { from: 'ann', text: 'good luck', spectator: false, line: 1 },
    { from: 'guest-s1x9', text: 'nice fifth', spectator: true, line: 2 },
    { from: 'bob', text: 'you too', spectator: false },
  ];
  const r = fromSnapshot(snapshot({ version: 9, chat }), 'ann', 0);
  assert.deepEqual(r.chat, [{ from: 'ann', text: 'good luck', spectator: false, line: 1 }, { from: 'bob', text: 'you too', spectator: false, line: null }]);
  assert.deepEqual(splitChat(chat).spectators, [{ from: 'guest-s1x9', text: 'nice fifth', spectator: true, line: 2 }]);
});

// Issue #38: a moderator removes a line for everyone; the view drops it by its id, and nothing else.
test('a removed chat line leaves the room view and the other lines stay', () => {
  let r = fromSnapshot(snapshot({ version: 3, chat: [{ from: 'ann', text: 'hi', spectator: false, line: 5 }] }), 'ann', 0);
  r = applyEvent(r, 4, { kind: 'chat', from: 'bob', spectator: false, text: 'rude', line: 6 }, 0);
  r = applyEvent(r, 5, { kind: 'chat_removed', line: 6 }, 0);
  assert.deepEqual(r.chat.map((m) => m.text), ['hi']);
  assert.equal(r.version, 5);
  r = applyEvent(r, 6, { kind: 'chat_removed', line: 99 }, 0);
  assert.deepEqual(r.chat.map((m) => m.text), ['hi'], 'a line this view never had changes nothing');
});

test('a snapshot without chat (the field is omitted when empty) has none, and a resync replaces the lines', () => {
  assert.deepEqual(fromSnapshot(snapshot(), 'ann', 0).chat, []);
  let r = fromSnapshot(snapshot({ version: 3, chat: [{ from: 'ann', text: 'hi', spectator: false }] }), 'ann', 0);
  r = applyEvent(r, 4, { kind: 'chat', from: 'bob', spectator: false, text: 'hello' }, 0);
  assert.equal(r.chat.length, 2);
  // The resync's snapshot holds both lines; the page shows them once each.
  const again = fromSnapshot(snapshot({ version: 4, chat: [{ from: 'ann', text: 'hi', spectator: false }, { from: 'bob', text: 'hello', spectator: false }] }), 'ann', 0);
  assert.deepEqual(again.chat.map((m) => m.text), ['hi', 'hello']);
});

test('chat lines are kept up to their limit, the newest last', () => {
  const lines = Array.from({ length: CHAT_KEPT + 1 }, (_, i) => ({ from: 'ann', text: String(i), spectator: false }));
  const r = fromSnapshot(snapshot({ chat: lines }), 'ann', 0);
  assert.equal(r.chat.length, CHAT_KEPT);
  assert.equal(r.chat[0].text, '1');
  assert.equal(r.chat[CHAT_KEPT - 1].text, String(CHAT_KEPT));
  assert.equal(fromSnapshot(snapshot({ chat: lines.slice(1) }), 'ann', 0).chat.length, CHAT_KEPT, 'exactly the limit: all kept');
});

// Issue #14 item 20: no takeback offered before you have moved, nor one the server would refuse.
const playing = (over) => fromSnapshot(snapshot({ state: 'playing', phase: 'place', seats: { black: seat('ann'), white: seat('bob') }, rules: { size: 15, rule_set: 'renju', forbidden_policy: 'claim', opening: 'none' }, ...over }), over.me || 'ann', 0);

test('a player who has not moved yet is offered no takeback', () => {
  const white = playing({ me: 'bob', moves: ['h8'], to_act: 'white' });
  assert.equal(controls(white).takeback, false, 'white before its first stone');
  const black = playing({ moves: [], to_act: 'black' });
  assert.equal(controls(black).takeback, false, 'black before the first stone');
  assert.equal(controls(playing({ moves: ['h8'], to_act: 'white' })).takeback, true, 'black after its first stone');
});

test('a takeback reaches the own last stone and one reply, no further', () => {
  assert.equal(canTakeBack(playing({ moves: ['h8', 'h9'], to_act: 'black' }), 'black'), true, 'own stone then one reply');
  assert.equal(canTakeBack(playing({ moves: ['h8', 'h9'], to_act: 'black' }), 'white'), true, 'own last stone');
  assert.equal(canTakeBack(playing({ moves: ['h8', 'h9', 'h10'], to_act: 'white' }), 'white'), true);
});

test('a takeback never crosses the swap decision nor the chosen fifth', () => {
  const swap = { size: 15, rule_set: 'renju', forbidden_policy: 'claim', opening: 'swap_after_three' };
  // Three stones, white deciding: black may still take back its third.
  assert.equal(canTakeBack(playing({ rules: swap, moves: ['h8', 'h9', 'j10'], phase: 'swap_decision', to_act: 'white' }), 'black'), true);
  // Decided (kept): the third stone lies before the decision.
  assert.equal(canTakeBack(playing({ rules: swap, moves: ['h8', 'h9', 'j10'], actions: ['h8', 'h9', 'j10', 'keep'], phase: 'place', to_act: 'white' }), 'black'), false);
  assert.equal(canTakeBack(playing({ rules: swap, moves: ['h8', 'h9', 'j10', 'g9'], actions: ['h8', 'h9', 'j10', 'keep', 'g9'], phase: 'place', to_act: 'black' }), 'white'), true, 'the fourth stone comes after it');
  // Swapped: the player now holding white laid stones 1 and 3 as black; the new black laid stone 2.
  assert.equal(canTakeBack(playing({ rules: swap, swapped: true, moves: ['h8', 'h9', 'j10'], actions: ['h8', 'h9', 'j10', 'swap'], phase: 'place', to_act: 'white' }), 'white'), false);
  const fifth = { ...swap, opening: 'swap_after_three_fifth_two_options' };
  assert.equal(canTakeBack(playing({ rules: fifth, moves: ['h8', 'h9', 'j10', 'g9'], actions: ['h8', 'h9', 'j10', 'keep', 'g9', 'propose:k11,f7'], phase: 'choose_fifth', to_act: 'white', fifth_options: ['k11', 'f7'] }), 'black'), false, 'the proposal is pending');
  assert.equal(canTakeBack(playing({ rules: fifth, moves: ['h8', 'h9', 'j10', 'g9', 'k11'], actions: ['h8', 'h9', 'j10', 'keep', 'g9', 'propose:k11,f7', 'choose:k11'], phase: 'place', to_act: 'white' }), 'black'), false, 'the chosen fifth');
  assert.equal(canTakeBack(playing({ rules: fifth, moves: ['h8', 'h9', 'j10', 'g9', 'k11', 'f7'], actions: ['h8', 'h9', 'j10', 'keep', 'g9', 'propose:k11,f7', 'choose:k11', 'f7'], phase: 'place', to_act: 'black' }), 'white'), true, 'the sixth stone');
});
