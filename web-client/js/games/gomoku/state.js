// Gomoku's part of the client-side room. Every Gomoku room speaks the generic forms (protocol version 2: the
// snapshot's `view`, the `action` and `actions_taken_back` events); opening.js folds them into the fields the
// board, the prompts and the forbidden marks read, under every opening. Pure, like state.js, which calls it.

import { stagedSnapshot, stagedReduce, stagedPly, stagedControls, stagedCanTakeBack } from './opening.js';

/** A room fresh from a snapshot: the view is the position. */
export const snapshot = stagedSnapshot;

/** How many actions the game has had (the `at` of the next `act`; a swap or a proposal counts as one). */
export const ply = stagedPly;

/**
 * Folds Gomoku's part of one event into `room` (a shallow copy of `prev` that state.js already versioned);
 * `withClocks` takes the event's clocks. Kinds that are not Gomoku's are left alone.
 */
export const reduce = stagedReduce;

/** What the rules let the local player (`you`) do now, beyond what every game has. */
export const controls = stagedControls;

/**
 * Whether a takeback asked for by `colour` would undo something of its own: its last action and at most one
 * reply after it, never an opening decision (the swap, the fifth-move proposal and choice, the modern openings'
 * steps).
 */
export const canTakeBack = stagedCanTakeBack;

/** The forbidden points to draw: only while black is to place under renju (the server sends none otherwise). */
export function visibleForbidden(room) {
  if (room.state !== 'playing' || room.to_act !== 'black' || room.phase !== 'place') return [];
  return room.forbidden || [];
}
