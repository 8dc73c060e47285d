// Quick pairing (issue #18): the server's presets (every game's, from GET /api/quick), the live counts it pushes
// to lobby subscribers, and the seek messages. Pure but for the one fetch, so the unit tests check them without a
// browser; the lobby draws the tiles.

import { api } from './api.js';
import { GAMES, DEFAULT_GAME, memberOf } from './games/index.js';

let presetsOnce = null;

/**
 * The server's presets in its order (each game's together, as `quick_counts` lists them): [{id, game, time_control}]
 * with `game` the game's spec (`{game: "othello", scoring}`, Gomoku's `{game: "gomoku", rule_set, opening, …}`).
 * Fetched once per page; a failed fetch is tried again at the next call.
 */
export function fetchPresets(fetchImpl) {
  if (!presetsOnce) {
    presetsOnce = api('/api/quick', fetchImpl ? { fetchImpl } : {}).then((r) => r?.presets || []);
    presetsOnce.catch(() => (presetsOnce = null));
  }
  return presetsOnce;
}

/** Presets grouped by game in their order: [{game, presets}], one group per game that has presets. */
export function groupByGame(presets) {
  const groups = [];
  for (const p of presets || []) {
    const game = memberOf(p.game).name;
    let g = groups.find((x) => x.game === game);
    if (!g) groups.push((g = { game, presets: [] }));
    g.presets.push(p);
  }
  return groups;
}

/**
 * A preset's or a seek's options in words, without the game's name (the lobby shows that above the tiles): its
 * member's `quickWords` ("Renju · Soosõrv-8", "Japanese scoring"), '' for a game without options.
 */
export function optionWords(spec) {
  const m = memberOf(spec);
  return m.quickWords ? m.quickWords(spec) : '';
}

/** The custom pool's id in `quick_counts`. */
export const CUSTOM = 'custom';

/** `quick_counts` as a Map preset -> {waiting, playing}; presets it does not name count zero. */
export function countsOf(msg) {
  const out = new Map();
  for (const c of msg?.presets || []) out.set(c.preset, { waiting: c.waiting ?? 0, playing: c.playing ?? 0 });
  return out;
}

/** The `seek_quick` message for a preset tile: rated only when asked (a guest's rated seek is refused). */
export function presetSeek(preset, rated) {
  return { t: 'seek_quick', preset, rated: Boolean(rated) };
}

/** The openings a custom seek or a challenge offers, balanced ones first. */
export const SEEK_OPENINGS = ['soosorv_8', 'swap2', 'taraguchi_10', 'swap1', 'none'];

/** The opening a rule set starts with in those forms: Soosõrv-8 under renju (as the presets), none otherwise. */
export function defaultOpening(ruleSet) {
  return ruleSet === 'freestyle' || ruleSet === 'standard' ? 'none' : 'soosorv_8';
}

/**
 * The game's part of a seek or challenge from form values: the chosen `game` (Gomoku when none) and its member's
 * fields (`createSpec`: `{rules}` for Gomoku, `{game}` for the others). Gomoku's rule set starts at renju with its
 * forbidden moves refused and, as the presets, Soosõrv-8 unless another opening is chosen.
 */
export function gameSpecOf(v) {
  const member = GAMES[v.game] || GAMES[DEFAULT_GAME];
  const ruleSet = v.rule_set || 'renju';
  return member.createSpec({ forbidden_policy: 'reject', ...v, rule_set: ruleSet, opening: v.opening || defaultOpening(ruleSet) });
}

/**
 * The `seek_quick` message for the custom form's values: {game, the game's own fields, tc: fischer|byo_yomi|none,
 * base (minutes), increment (s), periods, period (s), rated}.
 */
export function customSeek(v) {
  return { t: 'seek_quick', preset: CUSTOM, ...gameSpecOf(v), time_control: timeControlOf(v), rated: v.rated === true || v.rated === 'rated' };
}

/** A protocol time control from form values (minutes and seconds as typed). */
export function timeControlOf(v) {
  const min = (x) => Math.round(Number(x) * 60_000);
  const sec = (x) => Math.round(Number(x) * 1000);
  if (v.tc === 'fischer') return { kind: 'fischer', base_ms: min(v.base), increment_ms: sec(v.increment) };
  if (v.tc === 'byo_yomi') return { kind: 'byo_yomi', base_ms: min(v.base), periods: Number(v.periods), period_ms: sec(v.period) };
  return { kind: 'none' };
}

/**
 * The games this player has running, from what the connection saw: a Map room -> {room, record, opponent}. A
 * snapshot with us seated and playing adds its room, one that is over (or a `game_over`, `room_closed`) drops it,
 * and `paired` names the opponent. Pure: `live` in, new Map out.
 */
export function liveReduce(live, msg) {
  const next = new Map(live);
  if (msg.t === 'room' && msg.room) {
    const r = msg.room;
    if (r.you && r.state === 'playing') {
      const opp = r.seats?.[r.you === 'black' ? 'white' : 'black'];
      next.set(r.id, { room: r.id, record: r.record ?? null, opponent: opp?.name ?? next.get(r.id)?.opponent ?? null });
    } else if (r.state === 'over' || (r.you && r.state !== 'playing')) next.delete(r.id);
  } else if (msg.t === 'paired') {
    next.set(msg.room, { room: msg.room, record: next.get(msg.room)?.record ?? null, opponent: msg.opponent ?? null });
  } else if (msg.t === 'event' && (msg.event?.kind === 'game_over' || msg.event?.kind === 'room_closed')) {
    next.delete(msg.room);
  }
  return next;
}
