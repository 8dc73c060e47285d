// Insect chess's member of the web client (web-client/js/games/insect/): the board's geometry (the 77-character
// text, the terrain, the squares on screen and turned half round for north's player), the drawing, the room's
// view folded from a snapshot and `action` events (the wire forms of issue #32), takebacks, the input model (a
// piece, then one of its listed destinations, becomes `act` with the ply), the move list, the result's words
// (South and North, never black and white) and the record's replay.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GAMES, memberOf } from '../../web-client/js/games/index.js';
import { fromSnapshot, applyEvent, controls } from '../../web-client/js/state.js';
import { translate, setLang } from '../../web-client/js/i18n.js';
import {
  START_BOARD, indexOf, squareOf, terrain, screenCell, squareOnScreen, pieces, lostKinds, applyMove, parseMove, renderInsect, geometry,
} from '../../web-client/js/games/insect/board.js';
import { choose, intention, movable, targetsOf, START_LEGAL, canTakeBack } from '../../web-client/js/games/insect/state.js';
import { replay, normaliseRecord, lastMoveWords } from '../../web-client/js/games/insect/room.js';
import { resultSentence, cycleSvg } from '../../web-client/js/games/insect/index.js';

const insect = GAMES.insect;

/** The placement text of the rules page for a board text (ranks 11 down to 1). */
function placement(board) {
  const ranks = [];
  for (let r = 0; r < 11; r++) ranks.push(board.slice(r * 7, r * 7 + 7).replace(/\.+/g, (m) => String(m.length)));
  return ranks.join('/');
}

test('the board text: 77 squares, rank 11 first, the start as the rules page writes it', () => {
  assert.equal(START_BOARD.length, 77);
  assert.equal(placement(START_BOARD), 'ld3cs/2w1t2/7/7/7/7/7/7/7/2T1W2/SC3DL');
  assert.equal(indexOf('a11'), 0);
  assert.equal(indexOf('g11'), 6);
  assert.equal(indexOf('a1'), 70);
  assert.equal(indexOf('g1'), 76);
  for (const bad of ['h1', 'a0', 'a12', 'a01', 'A1', '', 'e2-e3']) assert.equal(indexOf(bad), -1, bad);
  for (let i = 0; i < 77; i++) assert.equal(indexOf(squareOf(i)), i);
  const p = pieces(START_BOARD);
  assert.equal(p.size, 12);
  assert.deepEqual(p.get('a1'), { side: 'south', kind: 'scorpion', letter: 'S' });
  assert.deepEqual(p.get('g11'), { side: 'north', kind: 'scorpion', letter: 'S' });
  assert.equal(p.get('e2').kind, 'wasp');
  assert.equal(p.get('c10').kind, 'wasp');
  assert.equal(p.get('b11').kind, 'diving_beetle');
  assert.equal(p.get('a11').kind, 'wolf_spider');
  assert.deepEqual(lostKinds(START_BOARD), { south: [], north: [] });
});

test('the terrain: the pond c5–e7, each side\'s food walled by its own mud', () => {
  const all = Array.from({ length: 77 }, (_, i) => squareOf(i));
  const of = (kind, side) => all.filter((s) => terrain(s).kind === kind && (side == null || terrain(s).side === side)).sort();
  assert.deepEqual(of('pond'), ['c5', 'c6', 'c7', 'd5', 'd6', 'd7', 'e5', 'e6', 'e7']);
  assert.deepEqual(of('food', 'south'), ['d1']);
  assert.deepEqual(of('food', 'north'), ['d11']);
  assert.deepEqual(of('mud', 'south'), ['c1', 'd2', 'e1']);
  assert.deepEqual(of('mud', 'north'), ['c11', 'd10', 'e11']);
  assert.equal(of('land').length, 77 - 9 - 2 - 6);
});

test('on screen: south at the bottom, and for north\'s player the board turned half round', () => {
  assert.deepEqual(screenCell('a1'), { col: 0, row: 10 });
  assert.deepEqual(screenCell('g11'), { col: 6, row: 0 });
  assert.deepEqual(screenCell('a1', true), { col: 6, row: 0 });
  assert.deepEqual(screenCell('g11', true), { col: 0, row: 10 });
  assert.deepEqual(screenCell('d11', true), { col: 3, row: 10 }, "north's food at the bottom middle for north");
  assert.equal(squareOnScreen(3, 10), 'd1');
  assert.equal(squareOnScreen(3, 10, true), 'd11');
  assert.equal(squareOnScreen(7, 0), null);
  assert.equal(squareOnScreen(0, 11, true), null);
  for (const flip of [false, true]) {
    for (let i = 0; i < 77; i++) {
      const sq = squareOf(i);
      const c = screenCell(sq, flip);
      assert.equal(squareOnScreen(c.col, c.row, flip), sq, `${sq} flip=${flip}`);
    }
  }
  const g = geometry();
  assert.deepEqual([g.cols, g.rows], [7, 11]);
  assert.equal(g.width, 2 * g.x0 + 7 * g.cell);
  assert.equal(g.height, 2 * g.y0 + 11 * g.cell);
});

test('the drawing: terrain, pieces with names, the chosen piece\'s destinations (a flight dashed), the last move', () => {
  const svg = renderInsect({ board: START_BOARD, names: { wasp: 'wasp' }, glyph: 'letter' });
  assert.match(svg, /viewBox="0 0 384 576"/);
  assert.equal((svg.match(/class="sq pond/g) || []).length, 9);
  assert.equal((svg.match(/class="sq mud/g) || []).length, 6);
  assert.equal((svg.match(/class="sq food/g) || []).length, 2);
  assert.equal((svg.match(/class="piece /g) || []).length, 12);
  assert.match(svg, /<g class="piece south wasp" data-square="e2" data-kind="wasp" data-side="south"><title>wasp \(蜂 · W\) · e2<\/title>/);
  // The first square drawn is the top-left one: a11 for south's view, g1 for north's.
  assert.match(svg, /<g class="sq[^"]*" data-square="a11"/);
  const north = renderInsect({ board: START_BOARD, flipped: true });
  assert.ok(north.indexOf('data-square="g1"') < north.indexOf('data-square="f1"'));
  assert.match(north, /class="board insect flipped"/);
  // A wasp on e4 beside the pond: a step and its flight to e8, drawn dashed; a capture is ringed.
  const board = applyMove(applyMove(START_BOARD, 'e2', 'e4'), 'c10', 'e8');
  const chosen = renderInsect({ board, selected: 'e4', targets: ['e3', 'd4', 'f4', 'e8'], last: 'c10-e8' });
  assert.equal((chosen.match(/class="target"/g) || []).length, 3);
  assert.equal((chosen.match(/class="target capture" data-target="e8"/g) || []).length, 1);
  assert.equal((chosen.match(/class="flight"/g) || []).length, 1);
  assert.match(chosen, /class="sq land [^"]*last-from" data-square="c10"/);
  assert.match(chosen, /last-to" data-square="e8"/);
  assert.match(chosen, /class="lastline"/);
  assert.match(renderInsect({ board: START_BOARD, glyph: 'char' }), /<text class="big char"[^>]*>蝎<\/text>/);
  assert.match(cycleSvg(), /龙虱|虱/);
});

// The snapshot of issue #32's contract: south (`black`) to move at the start.
const seats = {
  black: { id: 'p-s', name: 'sam', guest: true, connected: true },
  white: { id: 'p-n', name: 'nia', guest: true, connected: true },
};
const snap = (view = {}, extra = {}) => ({
  id: 'r1', version: 3, game: { game: 'insect' }, time_control: { kind: 'none' }, rated: false, public: true, state: 'playing', seats,
  phase: 'none', to_act: 'black', moves: [], offers: [], spectators: 0, result: null, clocks: null, game_id: 7,
  view: { game: 'insect', board: START_BOARD, to_act: 'black', phase: 'move', legal: START_LEGAL, last: null, no_capture: 0, repetitions: 1, ply: 0, actions: [], ...view },
  ...extra,
});

const actionEvent = (at, by, action, change, toAct) => ({ kind: 'action', at, by, action, change: { game: 'insect', ...change }, to_act: toAct, phase: toAct ? 'move' : null, clocks: null });

test('a room from a snapshot: the view, south to act, the input for south\'s player only', () => {
  const room = fromSnapshot(snap(), 'p-s', 0);
  assert.equal(memberOf(room), insect);
  assert.equal(room.phase, 'move');
  assert.equal(insect.ply(room), 0);
  assert.equal(controls(room).input, true);
  assert.equal(controls(fromSnapshot(snap(), 'p-n', 0)).input, false);
  assert.equal(controls(fromSnapshot(snap(), 'someone', 0)).input, false);
  assert.equal(controls(room).takeback, false, 'nothing of south to take back yet');
  // A waiting room has the start's view.
  const waiting = fromSnapshot({ ...snap(), state: 'waiting', view: undefined, to_act: null }, 'p-s', 0);
  assert.equal(waiting.view.board, START_BOARD);
});

test('action events fold into the view: the move, its capture, the next legal moves, the counters; a skipped `at` resyncs', () => {
  let room = fromSnapshot(snap(), 'p-s', 0);
  room = applyEvent(room, 4, actionEvent(0, 'black', 'e2-e3', { from: 'e2', to: 'e3', piece: 'wasp', captured: null, ply: 1, no_capture: 1, legal: ['c10-c9', 'e10-e9'] }, 'white'), 0);
  assert.equal(room.view.board, applyMove(START_BOARD, 'e2', 'e3'));
  assert.equal(room.view.last, 'e2-e3');
  assert.deepEqual(room.view.legal, ['c10-c9', 'e10-e9']);
  assert.equal(room.view.no_capture, 1);
  assert.equal(insect.ply(room), 1);
  assert.equal(room.to_act, 'white');
  assert.equal(controls(room).input, false);
  assert.equal(controls(room).takeback, true, 'south has moved');
  assert.equal(lastMoveWords(room.view), 'Last: South wasp e2-e3');
  // A resent event at an index already held changes nothing of the board.
  const again = applyEvent(room, 5, actionEvent(0, 'black', 'e2-e3', { from: 'e2', to: 'e3', piece: 'wasp', ply: 1, no_capture: 1, legal: [] }, 'white'), 0);
  assert.equal(again.view.board, room.view.board);
  // An action beyond the next index: the board cannot be trusted.
  assert.equal(applyEvent(room, 5, actionEvent(3, 'white', 'c10-c9', { from: 'c10', to: 'c9', ply: 4, legal: [] }, 'black'), 0).needsResync, true);

  // A capture: the tiger beetle on c3 takes the wasp that flew to c4.
  const board = applyMove(applyMove(START_BOARD, 'c2', 'c3'), 'c10', 'c4');
  room = fromSnapshot(snap({ board, ply: 6, no_capture: 6, actions: ['e2-e3', 'c10-c9', 'c2-c3', 'c9-c8', 'e3-e4', 'c8-c4'], legal: ['c3-c4', 'e4-e8'], last: 'c8-c4' }), 'p-n', 0);
  room = applyEvent(room, 4, actionEvent(6, 'black', 'c3-c4', { from: 'c3', to: 'c4', piece: 'tiger_beetle', captured: 'wasp', ply: 7, no_capture: 0, legal: ['g11-g10'] }, 'white'), 0);
  assert.equal(pieces(room.view.board).get('c4').kind, 'tiger_beetle');
  assert.equal(pieces(room.view.board).get('c4').side, 'south');
  assert.deepEqual(lostKinds(room.view.board), { south: [], north: ['wasp'] });
  assert.equal(room.view.no_capture, 0);
  assert.equal(lastMoveWords(room.view), 'Last: South tiger beetle c3-c4 took the wasp');
  assert.equal(controls(room).input, true, "north's turn, north's player");
});

test('a takeback replaces the view with the event\'s; game over leaves no moves', () => {
  let room = fromSnapshot(snap({ board: applyMove(START_BOARD, 'e2', 'e3'), ply: 1, actions: ['e2-e3'], to_act: 'white', last: 'e2-e3', legal: ['c10-c9'] }, { to_act: 'white' }), 'p-s', 0);
  room = applyEvent(room, 4, { kind: 'actions_taken_back', count: 1, to_act: 'black', phase: 'move', view: { game: 'insect', board: START_BOARD, to_act: 'black', phase: 'move', legal: START_LEGAL, last: null, no_capture: 0, repetitions: 1, ply: 0, actions: [] } }, 0);
  assert.equal(room.view.board, START_BOARD);
  assert.equal(insect.ply(room), 0);
  assert.equal(room.to_act, 'black');
  assert.equal(controls(room).input, true);
  room = applyEvent(room, 5, { kind: 'game_over', result: { winner: 'white', winner_name: 'nia', reason: 'resign' }, clocks: null }, 0);
  assert.deepEqual(room.view.legal, []);
  assert.equal(controls(room).input, false);
  assert.equal(canTakeBack({ view: { ply: 1 } }, 'white'), false);
  assert.equal(canTakeBack({ view: { ply: 2 } }, 'white'), true);
});

test('the input model: a piece that may move, then one of its destinations; only listed moves are sent, at the ply', () => {
  const legal = ['c2-c3', 'c2-b2', 'e2-e3', 'e2-f2', 'e4-e8'];
  assert.deepEqual(movable(legal).sort(), ['c2', 'e2', 'e4']);
  assert.deepEqual(targetsOf('e4', legal), ['e8'], 'the flight over the pond is a destination');
  let r = choose(null, 'd5', legal);
  assert.deepEqual(r, { selected: null, move: null }, 'a square with no piece that may move chooses nothing');
  r = choose(null, 'c2', legal);
  assert.deepEqual(r, { selected: 'c2', move: null });
  r = choose('c2', 'e2', legal);
  assert.deepEqual(r, { selected: 'e2', move: null }, 'another piece that may move is chosen instead');
  r = choose('e2', 'e2', legal);
  assert.deepEqual(r, { selected: null, move: null }, 'the same piece again lets it go');
  r = choose('e2', 'e3', legal);
  assert.deepEqual(r, { selected: null, move: 'e2-e3' });
  r = choose('e2', 'a9', legal);
  assert.deepEqual(r, { selected: null, move: null });
  const room = fromSnapshot(snap({ legal, ply: 4, actions: ['a1-a2', 'g11-g10', 'a2-a1', 'g10-g11'] }), 'p-s', 0);
  assert.deepEqual(intention(room, 'e2-e3'), { t: 'act', room: 'r1', action: 'e2-e3', at: 4 });
  assert.equal(intention(room, 'e2-e4'), null);
});

test('the move list pairs the moves, south first; the record replays the moves with their captures', () => {
  const moves = ['e2-e3', 'c10-c9', 'c2-c3', 'c9-c8', 'e3-e4', 'c8-c4', 'c3-c4'];
  const entries = insect.moveEntries({ moves });
  assert.deepEqual(entries.slice(0, 3).map((e) => [e.label, e.point, e.colour]), [['1.', 'e2-e3', 'black'], ['…', 'c10-c9', 'white'], ['2.', 'c2-c3', 'black']]);
  const p = replay(moves, 7);
  assert.equal(p.last, 'c3-c4');
  assert.deepEqual(lostKinds(p.board), { south: [], north: ['wasp'] });
  assert.equal(replay(moves, 0).board, START_BOARD);
  assert.equal(replay(moves, 6).board.length, 77);
  assert.deepEqual(parseMove('e4-e8'), ['e4', 'e8']);
  assert.equal(parseMove('e4e8'), null);
  const rec = normaliseRecord({ id: 9, public_id: 'abc', game: { game: 'insect' }, black: { name: 'sam' }, white: 'nia', notation: moves, actions: moves.map((m) => ({ notation: m, used_ms: 1200 })), result: { winner: 'black', reason: 'food', detail: { game: 'insect', rule: 'food' } } });
  assert.equal(rec.link, 'abc');
  assert.deepEqual(rec.moves, moves);
  assert.equal(rec.black, 'sam');
  assert.equal(rec.times[0], 1200);
});

test('the member: its spec, pool, export and words; results name South and North, never black and white', () => {
  assert.equal(insect.name, 'insect');
  assert.deepEqual(insect.colours, ['black', 'white']);
  assert.deepEqual(insect.defaultSpec, { game: 'insect' });
  assert.deepEqual(insect.createSpec({}), { game: { game: 'insect' } });
  assert.equal(insect.poolOf({ game: { game: 'insect' } }), 'insect/standard');
  assert.deepEqual(insect.pools, ['insect/standard']);
  assert.deepEqual(insect.exportFormat, { extension: 'txt', labelKey: 'record.format_insect' });
  assert.equal(translate('zh', 'insect.kind.diving_beetle'), '龙虱');
  assert.equal(translate('zh', 'insect.kind.wolf_spider'), '狼蛛');
  assert.equal(translate('zh', 'insect.south'), '南方');
  setLang('en');
  const names = { black: 'sam', white: 'nia' };
  assert.equal(resultSentence({ winner: 'black', reason: 'food', detail: { game: 'insect', rule: 'food' } }, names), "sam (South) wins: reached nia's food");
  assert.equal(resultSentence({ winner: 'white', reason: 'no_pieces' }, names), 'nia (North) wins: sam has no pieces left');
  assert.equal(resultSentence({ winner: null, reason: 'repetition' }, names), 'Drawn: the same position three times');
  assert.equal(resultSentence({ winner: null, reason: 'no_capture' }, names), 'Drawn: 100 plies without a capture');
  const resigned = resultSentence({ winner: 'white', reason: 'resign' }, {});
  assert.match(resigned, /North/);
  assert.match(resigned, /South/);
  assert.doesNotMatch(resigned, /Black|White/);
  assert.equal(resultSentence({ winner: null, reason: 'aborted' }, names), '');
  assert.equal(insect.describe({ game: { game: 'insect' } }), 'Insect chess');
});
