// The modern openings (issue #19) on the client: the room reducer over the generic `action` events of a Gomoku
// room under Swap2, Soosõrv and Taraguchi (stones, seats after a swap, what is offered and declared), the local
// player's controls and prompt in each phase, takebacks, picks, the create form's opening codes and records.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fromSnapshot, applyEvent, controls, canTakeBack, seatOf } from '../../web-client/js/state.js';
import { memberOf } from '../../web-client/js/games/index.js';
import {
  isStaged, parseOpening, openingCode, togglePick, act, texts, promptFor, isDecision, OPENINGS,
} from '../../web-client/js/games/gomoku/opening.js';
import { createSpec, describe, openingLabel } from '../../web-client/js/games/gomoku/create.js';
import { normaliseRecord, openingDecisions, openingLines } from '../../web-client/js/games/gomoku/record.js';
import { en, zh, translate } from '../../web-client/js/i18n.js';

const seat = (name) => ({ id: name, name, guest: true, connected: true });
const rules = (opening) => ({ size: 15, rule_set: 'renju', forbidden_policy: 'reject', opening });

/** A room under `opening` as a snapshot sends it before the game: `game` and `rules`, no view yet. */
function waiting(opening, me = 'ann') {
  return fromSnapshot({
    id: 'r1', version: 1, rules: rules(opening), game: { game: 'gomoku', ...rules(opening) }, time_control: { kind: 'none' },
    rated: false, public: true, game_id: null, state: 'waiting', seats: { black: seat('ann'), white: null }, you: 'black',
    phase: 'none', to_act: null, moves: [], swapped: false, clocks: null, forbidden: [], claimable: null,
    fifth_options: null, offers: [], spectators: 0, result: null,
  }, me, 0);
}

/** The room once bob sat down: `game_started` with the starting view. */
function started(opening, me = 'ann') {
  let r = waiting(opening, me);
  r = applyEvent(r, 2, { kind: 'player_joined', colour: 'white', player: seat('bob') }, 0);
  const phase = opening.startsWith('taraguchi') ? 'place' : 'place_opening';
  return applyEvent(r, 3, {
    kind: 'game_started', game_id: 1, record: 'x', black: seat('ann'), white: seat('bob'), clocks: null, forbidden: [],
    to_act: 'black', phase: 'none',
    view: { game: 'gomoku', size: 15, moves: [], to_act: 'black', phase, swapped: false, forbidden: [], claimable: null, fifth_options: null, actions: [] },
  }, 0);
}

/** Applies an `action` event at the room's next index and version. */
function action(r, by, text, change, toAct, phase) {
  const at = memberOf(r).ply(r);
  return applyEvent(r, r.version + 1, {
    kind: 'action', at, by, action: text, change: { game: 'gomoku', placed: null, ply: r.moves.length, forbidden: [], ...change }, to_act: toAct, phase, clocks: null,
  }, 0);
}

const stone = (r, by, p, toAct, phase) => action(r, by, p, { placed: p, ply: r.moves.length + 1 }, toAct, phase);
const as = (r, me) => ({ ...r, me, you: seatOf({ ...r, me }) });

test('which openings are the modern ones (their own prompts and record steps): the four, any N', () => {
  for (const o of ['swap1', 'swap2', 'soosorv_8', 'soosorv_1', 'taraguchi_10']) assert.ok(isStaged(o), o);
  for (const o of ['none', 'swap_after_three', 'swap_after_three_fifth_two_options']) assert.ok(!isStaged(o), o);
  assert.ok(isStaged({ rules: rules('swap2') }));
  assert.ok(isStaged({ game: { game: 'gomoku', ...rules('soosorv_3') } }), 'a room known by its game spec');
  assert.ok(!isStaged({ rules: rules('none'), view: { game: 'gomoku' } }), 'every room has a view now: the opening decides');
  assert.deepEqual(parseOpening('soosorv_3'), { family: 'soosorv', n: 3 });
  assert.deepEqual(parseOpening('taraguchi'), { family: 'taraguchi', n: 10 });
  assert.deepEqual(parseOpening('swap2'), { family: 'swap2', n: null });
});

test('Swap2: three opening stones by black, two more by white, black chooses a colour, then white plays 6', () => {
  let r = started('swap2');
  assert.equal(r.phase, 'place_opening');
  assert.equal(controls(r).place, true, 'the first player places');
  assert.equal(controls(as(r, 'bob')).place, false);
  assert.deepEqual(promptFor(r, true), { key: 'op.you.place_opening', params: { colour: 'black', stone: 'black', count: null, max: null, number: 1 } });
  r = stone(r, 'black', 'h8', 'black', 'place_opening');
  r = stone(r, 'black', 'i9', 'black', 'place_opening');
  assert.equal(promptFor(r, true).params.stone, 'black', 'the next stone of three is black again');
  r = stone(r, 'black', 'j7', 'white', 'swap2_decision');
  assert.deepEqual(r.moves, ['h8', 'i9', 'j7']);
  assert.equal(memberOf(r).ply(r), 3, 'the next act is at 3');
  const bob = as(r, 'bob');
  assert.equal(controls(bob).swap2, true);
  assert.equal(controls(bob).input, true, 'the board takes the two extra points');
  assert.equal(promptFor(bob, true).key, 'op.you.swap2');
  assert.equal(promptFor(r, false).key, 'op.wait.swap2');
  assert.deepEqual(act(bob, texts.add(['g7', 'k10'])), { t: 'act', room: 'r1', action: 'add:g7,k10', at: 3 });

  r = action(r, 'white', 'add:g7,k10', { added: ['g7', 'k10'], ply: 5 }, 'black', 'swap_decision');
  assert.deepEqual(r.moves, ['h8', 'i9', 'j7', 'g7', 'k10'], 'both stones are down, white then black');
  assert.equal(controls(r).swap, true, 'the first player chooses the colour');
  assert.equal(promptFor(r, true).key, 'op.you.colour_choice');
  assert.deepEqual([promptFor(r, true).params.keep, promptFor(r, true).params.take], ['black', 'white']);

  r = action(r, 'black', 'swap', { swapped: true }, 'white', 'place');
  assert.equal(seatOf(r), 'white', 'ann took white: the seats changed hands');
  assert.equal(r.seats.black.name, 'bob');
  assert.deepEqual(r.notices, ['room.swapped']);
  assert.equal(controls(r).place, true, 'white (ann) plays move 6');
  assert.equal(promptFor(r, true), null, 'normal play has no opening prompt');
  r = stone(r, 'white', 'f6', 'black', 'place');
  assert.equal(r.moves.length, 6);
  assert.equal(canTakeBack(r, 'white'), true, 'a stone after the decisions may be taken back');
  assert.equal(canTakeBack(r, 'black'), false, "black's last stones are behind the decision");
});

test('Swap2: keep and swap at the three-stone answer', () => {
  let r = started('swap2', 'bob');
  for (const [p, toAct, phase] of [['h8', 'black', 'place_opening'], ['i9', 'black', 'place_opening'], ['j7', 'white', 'swap2_decision']]) r = stone(r, 'black', p, toAct, phase);
  const kept = action(r, 'white', 'keep', { swapped: false }, 'white', 'place');
  assert.equal(seatOf(kept), 'white');
  assert.deepEqual(kept.notices, ['room.kept']);
  assert.equal(controls(kept).place, true, 'bob keeps white and plays move 4');
  const swapped = action(r, 'white', 'swap', { swapped: true }, 'white', 'place');
  assert.equal(seatOf(swapped), 'black', 'bob took black');
  assert.equal(controls(swapped).place, false, 'white (ann) plays move 4');
});

test('Soosõrv-8: swap, move 4, the declaration 1..8, a second swap, three offers, the choice', () => {
  let r = started('soosorv_8');
  assert.equal(promptFor(r, true).key, 'op.you.place_opening_canonical');
  r = stone(r, 'black', 'h8', 'black', 'place_opening');
  r = stone(r, 'black', 'h9', 'black', 'place_opening');
  assert.equal(canTakeBack(r, 'black'), true, 'the first player placed both opening stones');
  assert.equal(canTakeBack(r, 'white'), false);
  r = stone(r, 'black', 'j10', 'white', 'swap_decision');
  assert.equal(controls(as(r, 'bob')).swap, true);
  assert.equal(canTakeBack(as(r, 'bob'), 'white'), false);
  r = action(r, 'white', 'keep', { swapped: false }, 'white', 'place');
  assert.equal(canTakeBack(r, 'black'), false, 'a takeback never crosses the swap decision');
  r = stone(r, 'white', 'g7', 'white', 'declare_offers');
  const bob = as(r, 'bob');
  assert.equal(controls(bob).declare, true);
  assert.equal(r.view.declare_max, 8, 'N of the rules, as the snapshot view would say');
  assert.equal(promptFor(bob, true).params.max, 8);
  assert.equal(promptFor(r, false).key, 'op.wait.declare');
  assert.deepEqual(act(bob, texts.declare(3)), { t: 'act', room: 'r1', action: 'declare:3', at: 5 });
  r = action(r, 'white', 'declare:3', { declared: 3 }, 'black', 'swap_decision');
  assert.equal(controls(r).swap, true, 'black may swap after the declaration');
  r = action(r, 'black', 'keep', { swapped: false }, 'black', 'offer_fifths');
  assert.equal(r.view.offer_count, 3, 'black offers the declared number');
  assert.equal(controls(r).offer, true);
  assert.equal(controls(r).input, true);
  assert.equal(promptFor(r, true).params.count, 3);
  assert.deepEqual(act(r, texts.offer(['k12', 'd4', 'm3'])).action, 'offer:k12,d4,m3');
  r = action(r, 'black', 'offer:k12,d4,m3', { offered: ['k12', 'd4', 'm3'] }, 'white', 'choose_offer');
  assert.deepEqual(r.view.offers, ['k12', 'd4', 'm3'], 'everyone sees the offers');
  assert.equal(r.moves.length, 4, 'an offer lays no stone');
  assert.equal(controls(as(r, 'bob')).chooseOffer, true);
  assert.equal(promptFor(r, false).params.count, 3);
  assert.equal(canTakeBack(r, 'black'), false, 'the offers cannot be taken back');
  r = action(r, 'white', 'choose:d4', { placed: 'd4', ply: 5 }, 'white', 'place');
  assert.deepEqual(r.moves, ['h8', 'h9', 'j10', 'g7', 'd4']);
  assert.equal(r.view.offers, null, 'the offers are gone once one is chosen');
  assert.equal(controls(as(r, 'bob')).place, true, 'white plays move 6');
  assert.equal(canTakeBack(r, 'black'), false, 'the chosen fifth is an opening decision');
});

test('Taraguchi-10: a swap after each of the first moves, the choice after move 4, offers of N', () => {
  let r = started('taraguchi_10');
  assert.equal(r.phase, 'place');
  assert.deepEqual(promptFor(r, true), { key: 'op.you.taraguchi_centre', params: { colour: 'black', stone: 'black', count: null, max: 10, number: 1 } });
  r = stone(r, 'black', 'h8', 'white', 'swap_decision');
  assert.equal(promptFor(as(r, 'bob'), true).key, 'op.you.swap');
  r = action(r, 'white', 'swap', { swapped: true }, 'white', 'place');
  assert.equal(seatOf(r), 'white', 'bob took black after move 1, so ann now holds white');
  assert.equal(promptFor(r, true).params.square, 3, 'white 2 inside the central 3×3');
  r = stone(r, 'white', 'h9', 'black', 'swap_decision');
  r = action(r, 'black', 'keep', { swapped: false }, 'black', 'place');
  r = stone(r, 'black', 'j10', 'white', 'swap_decision');
  r = action(r, 'white', 'keep', { swapped: false }, 'white', 'place');
  r = stone(r, 'white', 'g7', 'black', 'taraguchi_choice');
  const bob = as(r, 'bob');
  assert.equal(seatOf(bob), 'black');
  const c = controls(bob);
  assert.ok(c.swap && c.offer, 'choice 1 (swap or keep) or choice 2 (offers)');
  assert.equal(r.view.offer_count, 10);
  assert.equal(promptFor(bob, true).key, 'op.you.taraguchi_choice');
  r = action(r, 'black', 'keep', { swapped: false }, 'black', 'place');
  assert.equal(promptFor(as(r, 'bob'), true).key, 'op.you.taraguchi_place', 'choice 1: black plays move 5');
  assert.equal(promptFor(as(r, 'bob'), true).params.square, 9, 'inside the central 9×9');
  r = stone(r, 'black', 'k11', 'white', 'swap_decision');
  r = action(r, 'white', 'keep', { swapped: false }, 'white', 'place');
  assert.equal(promptFor(r, true), null, 'move 6 and after: normal play, no opening prompt');
});

test('an action already held (a resend) changes nothing; one beyond the next asks for a snapshot', () => {
  let r = started('swap1');
  r = stone(r, 'black', 'h8', 'black', 'place_opening');
  const again = applyEvent(r, r.version + 1, { kind: 'action', at: 0, by: 'black', action: 'h8', change: { game: 'gomoku', placed: 'h8', ply: 1, forbidden: [] }, to_act: 'black', phase: 'place_opening', clocks: null }, 0);
  assert.deepEqual(again.moves, ['h8']);
  const gap = applyEvent(r, r.version + 1, { kind: 'action', at: 5, by: 'black', action: 'a1', change: { game: 'gomoku', placed: 'a1', ply: 6, forbidden: [] }, to_act: 'white', phase: 'place', clocks: null }, 0);
  assert.equal(gap.needsResync, true);
});

test('a snapshot mid-opening and a takeback read the view: stones, phase, offers', () => {
  const snap = {
    id: 'r2', version: 12, rules: rules('soosorv_5'), game: { game: 'gomoku', ...rules('soosorv_5') }, time_control: { kind: 'none' },
    rated: false, public: true, game_id: 3, state: 'playing', seats: { black: seat('ann'), white: seat('bob') }, you: 'white',
    phase: 'none', to_act: null, moves: [], swapped: false, clocks: null, forbidden: [], claimable: null, fifth_options: null,
    offers: [], spectators: 0, result: null,
    view: { game: 'gomoku', size: 15, moves: ['h8', 'h9', 'j10', 'g7'], to_act: 'white', phase: 'choose_offer', swapped: false, forbidden: [], claimable: null, fifth_options: null, offers: ['a1', 'o15'], opening_name: { code: '3D', romaji: 'Sosei', japanese: '疎星', chinese: '疏星', english: 'Sparse star' }, actions: ['h8', 'h9', 'j10', 'keep', 'g7', 'declare:2', 'keep', 'offer:a1,o15'] },
  };
  const r = fromSnapshot(snap, 'bob', 0);
  assert.deepEqual(r.moves, ['h8', 'h9', 'j10', 'g7']);
  assert.equal(r.phase, 'choose_offer');
  assert.equal(r.to_act, 'white');
  assert.equal(controls(r).chooseOffer, true);
  assert.equal(memberOf(r).ply(r), 8);
  assert.equal(r.view.opening_name.code, '3D');
  assert.equal(promptFor(r, true).params.count, 2, 'the number of offers to choose from');
  const back = applyEvent(r, 13, { kind: 'actions_taken_back', at: 4, ply: 4, to_act: 'white', phase: 'declare_offers', clocks: null,
    view: { game: 'gomoku', size: 15, moves: ['h8', 'h9', 'j10', 'g7'], to_act: 'white', phase: 'declare_offers', swapped: false, forbidden: [], claimable: null, fifth_options: null, declare_max: 5, actions: ['h8', 'h9', 'j10', 'keep', 'g7'] } }, 0);
  assert.equal(back.phase, 'declare_offers');
  assert.equal(back.view.declare_max, 5);
  assert.equal(back.view.offers, null);
  assert.equal(memberOf(back).ply(back), 5);
});

test('a pick of points: a tap adds up to the limit, a tap on a picked point takes it back', () => {
  assert.deepEqual(togglePick([], 'a1', 2), ['a1']);
  assert.deepEqual(togglePick(['a1'], 'b2', 2), ['a1', 'b2']);
  assert.deepEqual(togglePick(['a1', 'b2'], 'c3', 2), ['a1', 'b2'], 'full: nothing changes');
  assert.deepEqual(togglePick(['a1', 'b2'], 'a1', 2), ['b2']);
  for (const d of ['swap', 'keep', 'add:a1,b2', 'declare:3', 'offer:a1', 'choose:a1', 'propose:a1,b2']) assert.ok(isDecision(d), d);
  assert.ok(!isDecision('h8'));
});

test('the create form: every opening, N 1..10 with its defaults, words for the lobby and room', () => {
  assert.deepEqual(OPENINGS, ['none', 'swap_after_three', 'swap_after_three_fifth_two_options', 'swap1', 'swap2', 'soosorv', 'taraguchi']);
  assert.equal(openingCode({ opening: 'soosorv', soosorv_n: '5' }), 'soosorv_5');
  assert.equal(openingCode({ opening: 'soosorv' }), 'soosorv_8', 'the default N');
  assert.equal(openingCode({ opening: 'taraguchi', taraguchi_n: '11' }), 'taraguchi_10', 'out of range falls back to the default');
  assert.equal(openingCode({ opening: 'swap2', soosorv_n: '3' }), 'swap2');
  assert.deepEqual(createSpec({ rule_set: 'renju', forbidden_policy: 'reject', opening: 'taraguchi', taraguchi_n: '4', size: '15' }).rules,
    { size: 15, rule_set: 'renju', forbidden_policy: 'reject', opening: 'taraguchi_4' });
  assert.equal(openingLabel('soosorv_8'), 'Soosõrv-8');
  assert.equal(openingLabel('swap2'), 'Swap2');
  assert.match(describe(rules('taraguchi_10')), /Taraguchi-10$/);
  for (const o of OPENINGS) {
    assert.ok(en[`opening.${o}`] && zh[`opening.${o}`], o);
    assert.ok(en[`op.hint.${o}`] && zh[`op.hint.${o}`], o);
  }
  assert.equal(translate('zh', 'op.label.soosorv', { n: 8 }), '索索夫-8');
});

test('every prompt key the phases ask for exists, and the new error codes have words in both languages', () => {
  const phases = ['place_opening', 'swap_decision', 'swap2_decision', 'declare_offers', 'offer_fifths', 'taraguchi_choice', 'choose_offer'];
  for (const opening of ['swap1', 'swap2', 'soosorv_8', 'taraguchi_10']) {
    for (const phase of phases) {
      for (const mine of [true, false]) {
        const p = promptFor({ phase, to_act: 'black', moves: [], rules: rules(opening), view: {} }, mine);
        assert.ok(p.key in en && p.key in zh, `${opening} ${phase} ${p.key}`);
      }
    }
  }
  // Taraguchi's placements say where the stone may go: the centre, then the growing squares; then nothing.
  for (let n = 0; n <= 6; n++) {
    for (const mine of [true, false]) {
      const p = promptFor({ phase: 'place', to_act: 'black', moves: Array(n).fill('a1'), rules: rules('taraguchi_10'), view: {} }, mine);
      if (n >= 5) assert.equal(p, null);
      else assert.ok(p.key in en && p.key in zh, `${n} ${p.key}`);
    }
  }
  for (const code of ['not_a_canonical_opening', 'outside_central_square', 'declaration_out_of_range', 'wrong_number_of_offers', 'symmetric_offer', 'duplicate_offer', 'no_place_two_expected', 'bad_opening_count']) {
    assert.ok(en[`err.${code}`] && zh[`err.${code}`], code);
  }
});

test('a stored game under a modern opening: its stones from the actions, Swap2 adds two at once', () => {
  const rec = normaliseRecord({
    id: 1, public_id: 'p', rules: rules('swap2'), black: { name: 'bob' }, white: { name: 'ann' },
    notation: ['h8', 'i9', 'j7', 'add:g7,k10', 'swap', 'f6'],
    actions: [1, 2, 3, 4, 5, 6].map((n) => ({ seq: n - 1, used_ms: n * 1000 })),
  });
  assert.deepEqual(rec.moves, ['h8', 'i9', 'j7', 'g7', 'k10', 'f6']);
  assert.deepEqual(rec.times, [1000, 2000, 3000, 4000, 4000, 6000]);
  assert.equal(rec.swapAfter, null);
  const soos = normaliseRecord({ id: 2, rules: rules('soosorv_8'), notation: ['h8', 'h9', 'j10', 'keep', 'g7', 'declare:2', 'keep', 'offer:a1,o15', 'choose:o15'], actions: [] });
  assert.deepEqual(soos.moves, ['h8', 'h9', 'j10', 'g7', 'o15']);
});

test('a record tells who decided what in the opening, stones of one player merged, in both languages', () => {
  const by = (list) => list.map(([notation, who]) => ({ notation, by: who }));
  const actions = by([['h8', 'ann'], ['h9', 'ann'], ['i9', 'ann'], ['keep', 'bo'], ['a1', 'bo'], ['declare:2', 'bo'], ['swap', 'ann'],
    ['offer:j10,a15', 'bo'], ['choose:j10', 'ann'], ['a2', 'ann'], ['k11', 'bo']]);
  assert.deepEqual(openingDecisions(actions), [
    { by: 'ann', kind: 'placed', points: ['h8', 'h9', 'i9'] },
    { by: 'bo', kind: 'kept', points: [] },
    { by: 'bo', kind: 'placed', points: ['a1'] },
    { by: 'bo', kind: 'declared', points: [], n: 2 },
    { by: 'ann', kind: 'swapped', points: [] },
    { by: 'bo', kind: 'offered', points: ['j10', 'a15'] },
    { by: 'ann', kind: 'chose', points: ['j10'] },
  ], 'the stones after the last decision are the game, not the opening');
  const rec = normaliseRecord({ id: 3, rules: rules('soosorv_8'), notation: actions.map((a) => a.notation), actions });
  const en_ = (key, params) => translate('en', key, params);
  assert.deepEqual(openingLines(rec, en_), ['ann placed h8, h9, i9', 'bo kept the colours', 'bo placed a1', 'bo declared 2 fifth moves',
    'ann swapped colours', 'bo offered j10, a15', 'ann chose j10']);
  assert.match(openingLines(rec, (key, params) => translate('zh', key, params))[3], /bo 宣布打点数 2/);
  const swap2 = by([['h8', 'ann'], ['i9', 'ann'], ['j7', 'ann'], ['add:g7,k10', 'bo'], ['keep', 'ann'], ['f6', 'bo']]);
  assert.deepEqual(openingDecisions(swap2).map((d) => d.kind), ['placed', 'added', 'kept']);
  assert.deepEqual(openingDecisions(by([['h8', 'ann'], ['h9', 'bo']])), [], 'a free game has no opening to tell');
});

test('the canonical opening is named as the server names it, under every symmetry; others have no name', async () => {
  const { nameOpening } = await import('../../web-client/js/games/gomoku/opening.js');
  // docs/rules.md's table: white h9 (direct) or i9 (indirect), then black 3.
  assert.equal(nameOpening(['h8', 'h9', 'h10']).code, '1D');
  assert.equal(nameOpening(['h8', 'h9', 'g9']).romaji, 'Kagetsu');
  assert.equal(nameOpening(['h8', 'h9', 'i9']).code, '4D', 'mirror images count as the same opening');
  assert.equal(nameOpening(['h8', 'i9', 'i7']).code, '7I');
  assert.equal(nameOpening(['h8', 'i9', 'g9']).chinese, '浦月');
  assert.equal(nameOpening(['h8', 'h9', 'j10']).code, '3D', 'f10 mirrored');
  assert.equal(nameOpening(['h8', 'g8', 'f6']).code, '3D', 'rotated: white left of black');
  assert.equal(nameOpening(['h8', 'g7', 'j10']).code, '13I', 'rotated: white below left');
  assert.equal(nameOpening(['h8', 'h9', 'a1']), null, 'black 3 outside the 5×5');
  assert.equal(nameOpening(['g8', 'h9', 'h10']), null, 'black 1 off the centre');
  assert.equal(nameOpening(['h8', 'h10', 'h9']), null, 'white 2 not touching');
  assert.equal(nameOpening(['h8', 'h9']), null);
  // Every one of the 26 in its standard orientation, and the room shows it once the third stone is down.
  const codes = new Set();
  for (const [dx, dy] of [[0, 1], [1, 1]]) {
    for (let x = -2; x <= 2; x++) for (let y = -2; y <= 2; y++) {
      if ((x === 0 && y === 0) || (x === dx && y === dy)) continue;
      const p = (a, b) => `${'abcdefghijklmno'[7 + a]}${8 + b}`;
      const n = nameOpening(['h8', p(dx, dy), p(x, y)]);
      assert.ok(n, `${p(dx, dy)} ${p(x, y)}`);
      codes.add(n.code);
    }
  }
  assert.equal(codes.size, 26);
  let r = started('soosorv_8');
  r = stone(r, 'black', 'h8', 'black', 'place_opening');
  r = stone(r, 'black', 'h9', 'black', 'place_opening');
  assert.equal(r.view.opening_name, null);
  r = stone(r, 'black', 'g9', 'white', 'swap_decision');
  assert.equal(r.view.opening_name.code, '4D');
  r = action(r, 'white', 'keep', { swapped: false }, 'white', 'place');
  assert.equal(r.view.opening_name.code, '4D', 'kept after the third stone');
});
