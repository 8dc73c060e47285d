// The analysis board's line of play (pure): the imported record as the main line, and a variation once someone
// plays a move of their own from any position. The main line is never replaced: the variation branches from it
// and both stay (the list shows the variation under the move it replaces). Stepping walks the line shown; a new
// move at ply p keeps the line shown up to p and continues it with that move (the same move as the line's just
// steps on). An empty board has no record: its moves, played at the end of its line, are its own main line.

import { makeBoard, forbiddenPoints } from './forbidden.js';
import { parsePoint, formatPoint } from '../games/gomoku/board.js';

/** A fresh analysis of `main` (the record's stones) on a `size` board, showing the last position. */
export function start(main, size = 15, ply = main.length) {
  const m = main.slice();
  // `variation` is the last variation played (kept while the main line is shown); `own`: no record behind it.
  return { size, main: m, line: m, ply: Math.max(0, Math.min(ply, main.length)), variation: null, own: main.length === 0 };
}

/** Shows the position after `ply` stones of the line shown. */
export function goTo(a, ply) {
  return { ...a, ply: Math.max(0, Math.min(ply, a.line.length)) };
}

/** Whether the line shown leaves the main line (a variation), and at which ply it does (null when it does not). */
export function branchPly(a) {
  for (let i = 0; i < a.line.length; i++) if (a.line[i] !== a.main[i]) return i;
  return a.line.length > a.main.length ? a.main.length : null;
}

/** Back to the main line, at the position where the variation left it (the variation is kept). */
export function backToMain(a) {
  const at = branchPly(a);
  return { ...a, line: a.main, ply: Math.min(at ?? a.ply, a.main.length) };
}

/** Shows the main line at `ply`. */
export function goToMain(a, ply) {
  return goTo({ ...a, line: a.main }, ply);
}

/** Shows the kept variation at `ply` (the main line when there is none). */
export function goToVariation(a, ply) {
  return goTo({ ...a, line: a.variation || a.main }, ply);
}

/** Whether the line shown is the variation. */
export function onVariation(a) {
  return branchPly(a) !== null;
}

/**
 * The kept variation as the list shows it: `from` the number of main-line stones it shares (it replaces main move
 * `from + 1`), `moves` its own stones after them; null when there is none.
 */
export function variationOf(a) {
  const v = a.variation;
  if (!v) return null;
  let from = 0;
  while (from < v.length && from < a.main.length && v[from] === a.main[from]) from++;
  return from < v.length ? { from, moves: v.slice(from) } : null;
}

/** The stones on the board at the position shown. */
export function stonesAt(a) {
  return a.line.slice(0, a.ply);
}

/** The colour to play next at the position shown. */
export function toPlay(a) {
  return a.ply % 2 === 0 ? 'black' : 'white';
}

/** A board (forbidden.js's) of the position shown. */
export function boardAt(a) {
  const s = stonesAt(a);
  return makeBoard(a.size, s.filter((_, i) => i % 2 === 0), s.filter((_, i) => i % 2 === 1), parsePoint);
}

/** Black's forbidden points at the position shown, under renju and with black to play; none otherwise. */
export function forbiddenAt(a, ruleSet) {
  if (ruleSet !== 'renju' || toPlay(a) !== 'black' || a.size !== 15) return [];
  return forbiddenPoints(boardAt(a), formatPoint);
}

/** The five (or longer line) the stones shown contain, as its points, or null. Freestyle counts six too. */
export function winLine(a, ruleSet) {
  const b = boardAt(a);
  const n = b.size;
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const c = b.cells[y * n + x];
      if (!c) continue;
      for (const [dx, dy] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
        const px = x - dx;
        const py = y - dy;
        if (px >= 0 && py >= 0 && px < n && py < n && b.cells[py * n + px] === c) continue; // not the line's start
        const pts = [];
        for (let qx = x, qy = y; qx >= 0 && qy >= 0 && qx < n && qy < n && b.cells[qy * n + qx] === c; qx += dx, qy += dy) pts.push(formatPoint(qx, qy));
        const exact = ruleSet === 'standard' || (ruleSet === 'renju' && c === 1);
        if (exact ? pts.length === 5 : pts.length >= 5) return pts;
      }
    }
  }
  return null;
}

/**
 * Plays `point` for the side to play at the position shown: {analysis} on success, {error} (`occupied`,
 * `off_board`, `game_over`, or the forbidden kind's code `forbidden_double_three`…) when it cannot go there.
 */
export function play(a, point, ruleSet) {
  const p = parsePoint(point, a.size);
  if (!p) return { error: 'off_board' };
  if (stonesAt(a).includes(point)) return { error: 'occupied' };
  if (winLine(a, ruleSet)) return { error: 'game_over' };
  const f = forbiddenAt(a, ruleSet).find((x) => x.point === point);
  if (f) return { error: `forbidden_${f.kind}` };
  return { analysis: playMove(a, point) };
}

/**
 * Plays the action `text` (any game's notation, already known to be legal) at the position shown: the same move
 * as the line's steps on; an empty board's own line grows at its end; anywhere else it is the variation, and the
 * main line stays as it is.
 */
export function playMove(a, text) {
  if (a.line[a.ply] === text) return { ...a, ply: a.ply + 1 };
  const next = [...stonesAt(a), text];
  if (a.own && !onVariation(a) && a.ply === a.main.length) return { ...a, main: next, line: next, ply: a.ply + 1 };
  return { ...a, line: next, variation: next, ply: a.ply + 1 };
}
