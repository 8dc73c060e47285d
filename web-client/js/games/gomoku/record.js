// Gomoku's game record: the stored actions of `GET /api/games/{id}` read as stones, times and the swap, and
// the replay board (numbered stones up to the move shown, the five on the last one).

import { createBoardView } from './view.js';
import { isStaged } from './opening.js';
import { recordTexts } from '../generic.js';

/**
 * The stones and their times of a game under a modern opening, from its actions' notation: a point is a stone,
 * `add:a,b` two (white's, then black's), `choose:x` the chosen fifth; declarations, offers and swaps lay none.
 */
export function stagedStones(g) {
  const list = recordTexts(g);
  const actions = Array.isArray(g.actions) ? g.actions : [];
  const moves = [];
  const times = [];
  list.forEach((text, i) => {
    const used = typeof actions[i]?.used_ms === 'number' ? actions[i].used_ms : null;
    let laid = [];
    if (/^[a-s]\d{1,2}$/.test(text)) laid = [text];
    else if (text.startsWith('add:')) laid = text.slice(4).split(',');
    else if (text.startsWith('choose:')) laid = [text.slice(7)];
    for (const p of laid) {
      moves.push(p);
      times.push(used);
    }
  });
  return { moves, times };
}

/** The stones of a stored action list, in order: places and the chosen fifth move (a proposal lays no stone). */
export function stonesOf(moves) {
  const out = [];
  for (const m of moves || []) {
    if (typeof m === 'string') out.push(m);
    else if (m.point && !m.action) out.push(m.point);
    else if (m.action && (m.action.action === 'place' || m.action.action === 'choose_fifth')) out.push(m.action.point);
  }
  return out;
}

/**
 * What the stored actions say beyond the stones: each stone's thinking time (`used_ms` of the action that laid it)
 * and, when the players swapped colours, after how many stones. Records without actions give none of either.
 */
export function actionDetails(actions) {
  const times = [];
  let swapAfter = null;
  for (const m of actions || []) {
    const a = m?.action;
    if (!a) continue;
    if (a.action === 'place' || a.action === 'choose_fifth') times.push(typeof m.used_ms === 'number' ? m.used_ms : null);
    else if (a.action === 'decide_swap' && a.swap) swapAfter = times.length;
  }
  return { times, swapAfter };
}

/** Whether an action's notation lays a stone on its own (`h8`), as opposed to an opening decision. */
const isPoint = (text) => /^[a-t]\d{1,2}$/.test(text);

/**
 * The opening as it was decided, from a record's actions (`notation` and `by`, the player who acted): every
 * action up to the last opening decision (a swap or keep, Swap2's two stones, a declaration, offers, a
 * proposal, a choice), consecutive stones of one player merged. `[]` for a game without decisions. Each entry
 * is `{by, kind, points, n}`: kind `placed`, `added`, `swapped`, `kept`, `declared`, `offered`, `proposed`, `chose`.
 */
export function openingDecisions(actions) {
  const list = Array.isArray(actions) ? actions : [];
  const texts = list.map((a) => (typeof a === 'string' ? a : a?.notation ?? ''));
  let last = -1;
  texts.forEach((text, i) => {
    if (text && !isPoint(text) && text !== 'claim') last = i;
  });
  const out = [];
  for (let i = 0; i <= last; i += 1) {
    const text = texts[i];
    const by = list[i]?.by || '';
    const [head, rest = ''] = text.split(':');
    const points = rest ? rest.split(',') : [];
    let entry;
    if (isPoint(text)) entry = { kind: 'placed', points: [text] };
    else if (text === 'swap') entry = { kind: 'swapped', points: [] };
    else if (text === 'keep') entry = { kind: 'kept', points: [] };
    else if (head === 'add') entry = { kind: 'added', points };
    else if (head === 'declare') entry = { kind: 'declared', points: [], n: Number(rest) };
    else if (head === 'offer') entry = { kind: 'offered', points };
    else if (head === 'propose') entry = { kind: 'proposed', points };
    else if (head === 'choose') entry = { kind: 'chose', points };
    else continue;
    const prev = out[out.length - 1];
    if (entry.kind === 'placed' && prev?.kind === 'placed' && prev.by === by) prev.points.push(...entry.points);
    else out.push({ by, ...entry });
  }
  return out;
}

/** The opening's decisions in words, one line each ("ann placed h8, h9, i9", "bo declared 2 fifth moves"). */
export function openingLines(rec, t) {
  return (rec.decisions || []).map((d) =>
    t(`record.op.${d.kind}`, { name: d.by || '—', points: d.points.join(', '), n: d.n }));
}

/**
 * Normalises a game record from `GET /api/games/{id}` (docs/protocol.md: moves are stored actions
 * {seq, action, used_ms, at}) into {id, link, size, moves: string[], black, white, result, rules, live}. `link` is the
 * public id that names the game in URLs (the integer id does not reach private games).
 */
export function normaliseRecord(g) {
  const name = (p) => (p == null ? null : typeof p === 'string' ? p : p.name);
  const rules = g.rules || {};
  // The server sends the stones as `moves` and every action (with its clock) as `actions`; older records had the
  // actions in `moves`.
  const staged = isStaged(rules.opening || '');
  const details = staged ? { ...stagedStones(g), swapAfter: null } : actionDetails(Array.isArray(g.actions) ? g.actions : g.moves);
  // Under the modern openings the colours may change hands several times: no single swap marker.
  const swapAfter = staged ? null : details.swapAfter ?? (g.swapped ? 3 : null);
  return {
    times: details.times,
    swapAfter,
    id: g.id,
    link: g.public_id ?? g.id,
    room: g.room,
    size: rules.size || 15,
    rules,
    moves: staged && !(Array.isArray(g.moves) && g.moves.length) ? details.moves : stonesOf(Array.isArray(g.moves) && g.moves.length ? g.moves : g.actions),
    black: name(g.black),
    white: name(g.white),
    result: g.result || null,
    live: !g.result,
    decisions: openingDecisions(g.actions),
  };
}

/** The record page's board: the stones up to `ply`, numbered, with the five shown on the last move. */
export function recordBoard() {
  const view = createBoardView();
  return {
    el: view.el,
    /** Shows the position after `ply` of the record's moves. */
    show(rec, ply) {
      const last = ply === rec.moves.length;
      view.update({ size: rec.size, moves: rec.moves, upto: ply, numbers: true, winLine: last ? rec.result?.line || [] : [] });
    },
  };
}
