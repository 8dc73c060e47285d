// Gomoku's part of the client-side room: the stones, the opening's swap and fifth-move choice, the forbidden
// points and the claim, folded from the Gomoku events (`move`, `swap_decided`, `fifth_proposed`, `taken_back`) and
// from Gomoku's fields of the shared ones (`game_started`, `game_over`). Pure, like state.js, which calls it.
// Rooms under the modern openings (Swap1, Swap2, Soosõrv, Taraguchi) speak the generic forms: opening.js folds them.

import { isStaged, stagedSnapshot, stagedReduce, stagedPly, stagedControls, stagedCanTakeBack } from './opening.js';

/** The other colour. */
const other = (colour) => (colour === 'black' ? 'white' : 'black');

/** A room fresh from a snapshot: Gomoku's snapshot already holds its fields as the room uses them. */
export function snapshot(room) {
  if (isStaged(room)) return stagedSnapshot(room);
  room.moves = Array.isArray(room.moves) ? room.moves : [];
  return room;
}

/** How many stones are down: the ply the board and the sound count. */
export function ply(room) {
  // The generic rooms count actions (the `at` of the next `act`), not stones.
  if (isStaged(room)) return stagedPly(room);
  return room.moves?.length ?? 0;
}

/**
 * Folds Gomoku's part of one event into `room` (a shallow copy of `prev` that state.js already versioned);
 * `withClocks` takes the event's clocks. Kinds that are not Gomoku's are left alone.
 */
export function reduce(room, prev, event, withClocks) {
  if (isStaged(prev)) return stagedReduce(room, prev, event, withClocks);
  switch (event.kind) {
    case 'game_started':
      Object.assign(room, {
        phase: 'place',
        to_act: 'black',
        moves: [],
        swapped: false,
        forbidden: event.forbidden || [],
        claimable: null,
        fifth_options: null,
      });
      break;
    case 'move':
      // A move for a ply we already hold (a resend after reconnect) must not duplicate the stone.
      if (event.ply === prev.moves.length + 1) room.moves = [...prev.moves, event.point];
      room.to_act = event.to_act;
      room.phase = event.phase;
      room.forbidden = event.forbidden || [];
      room.claimable = event.claimable ? { point: event.point, kind: event.claimable } : null;
      room.fifth_options = null;
      room.offers = prev.offers.filter((o) => o.kind === 'rematch');
      withClocks(event.clocks);
      break;
    case 'swap_decided':
      room.swapped = event.swapped;
      if (event.swapped) room.seats = { black: prev.seats.white, white: prev.seats.black };
      room.to_act = event.to_act;
      room.phase = event.phase;
      room.notices = [event.swapped ? 'room.swapped' : 'room.kept'];
      withClocks(event.clocks);
      break;
    case 'fifth_proposed':
      room.fifth_options = event.points;
      room.phase = 'choose_fifth';
      room.to_act = 'white';
      room.forbidden = [];
      withClocks(event.clocks);
      break;
    case 'taken_back':
      room.moves = event.moves;
      room.to_act = event.to_act;
      room.phase = event.phase;
      room.forbidden = event.forbidden || [];
      room.claimable = null;
      room.fifth_options = null;
      room.offers = prev.offers.filter((o) => o.kind !== 'takeback');
      withClocks(event.clocks);
      break;
    case 'game_over':
      Object.assign(room, { forbidden: [], claimable: null, fifth_options: null });
      break;
    default:
      break;
  }
}

/** What the rules let the local player (`you`) do now, beyond what every game has. */
export function controls(room, you) {
  if (isStaged(room)) return stagedControls(room, you);
  const playing = room.state === 'playing';
  const myTurn = playing && you && room.to_act === you;
  const c = {
    place: Boolean(myTurn && room.phase === 'place'),
    swap: Boolean(myTurn && room.phase === 'swap_decision'),
    proposeFifth: Boolean(myTurn && room.phase === 'propose_fifth'),
    chooseFifth: Boolean(myTurn && room.phase === 'choose_fifth'),
    claim: Boolean(playing && you === 'white' && room.claimable),
  };
  c.input = c.place || c.proposeFifth || c.chooseFifth;
  return c;
}

/**
 * The stones a takeback may undo for `colour`, by the server's rule: the player's own last stone and at most one
 * reply after it, never across an opening decision (the swap, the fifth-move proposal and choice). A player who
 * has not moved yet, or whose last stone lies before such a decision, has nothing to take back.
 */
export function canTakeBack(room, colour) {
  if (isStaged(room)) return stagedCanTakeBack(room, colour);
  const n = room.moves.length;
  // The fifth-move proposal is the last action while white chooses: undoing anything would undo it.
  if (room.phase === 'choose_fifth') return false;
  const opening = room.rules?.opening || 'none';
  const swapMade = opening !== 'none' && n >= 3 && room.phase !== 'swap_decision';
  // Stone indices (0-based) a takeback may not reach: those before the swap decision, and the chosen fifth.
  let locked = swapMade ? 3 : 0;
  if (opening === 'swap_after_three_fifth_two_options' && n >= 5) locked = 5;
  for (let i = n - 1; i >= Math.max(0, n - 2); i--) {
    if (i < locked) return false;
    if (placerOf(room, i) === colour) return true;
  }
  return false;
}

/** The colour now held by the player who put down stone `i` (0-based): a swap exchanged the first three's. */
function placerOf(room, i) {
  const stone = i % 2 === 0 ? 'black' : 'white';
  return room.swapped && i < 3 ? other(stone) : stone;
}

/** The forbidden points to draw: only while black is to place under renju (the server sends none otherwise). */
export function visibleForbidden(room) {
  if (room.state !== 'playing' || room.to_act !== 'black' || room.phase !== 'place') return [];
  return room.forbidden || [];
}
