// Quick pairing (issue #18): the server's presets, the live counts it pushes to lobby subscribers, and the
// seek messages. Pure, so the unit tests check them without a browser; the lobby draws the tiles.

/**
 * The presets in the server's order (docs/protocol.md "Quick pairing"), with what a tile shows. The renju presets
 * play Soosõrv-8: without a balanced opening black wins too often by force for a rating to mean much.
 */
export const PRESETS = [
  { id: 'renju-3+2', rule_set: 'renju', opening: 'soosorv_8', time_control: { kind: 'fischer', base_ms: 180_000, increment_ms: 2000 } },
  { id: 'renju-5+3', rule_set: 'renju', opening: 'soosorv_8', time_control: { kind: 'fischer', base_ms: 300_000, increment_ms: 3000 } },
  { id: 'renju-10+5', rule_set: 'renju', opening: 'soosorv_8', time_control: { kind: 'fischer', base_ms: 600_000, increment_ms: 5000 } },
  { id: 'renju-15+10', rule_set: 'renju', opening: 'soosorv_8', time_control: { kind: 'fischer', base_ms: 900_000, increment_ms: 10_000 } },
  { id: 'freestyle-3+2', rule_set: 'freestyle', opening: 'none', time_control: { kind: 'fischer', base_ms: 180_000, increment_ms: 2000 } },
  { id: 'freestyle-5+3', rule_set: 'freestyle', opening: 'none', time_control: { kind: 'fischer', base_ms: 300_000, increment_ms: 3000 } },
  {
    id: 'renju-byoyomi-10m-30sx3',
    rule_set: 'renju',
    opening: 'soosorv_8',
    time_control: { kind: 'byo_yomi', base_ms: 600_000, periods: 3, period_ms: 30_000 },
  },
];

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
 * The `seek_quick` message for the custom form's values: {rule_set, opening, tc: fischer|byo_yomi|none, base
 * (minutes), increment (s), periods, period (s), rated}. Renju is 15×15 with forbidden moves refused, as the
 * presets are; without an opening the rule set's default is taken.
 */
export function customSeek(v) {
  const ruleSet = v.rule_set || 'renju';
  const rules = { size: 15, rule_set: ruleSet, opening: v.opening || defaultOpening(ruleSet) };
  if (rules.rule_set === 'renju') rules.forbidden_policy = 'reject';
  return { t: 'seek_quick', preset: CUSTOM, rules, time_control: timeControlOf(v), rated: v.rated === true || v.rated === 'rated' };
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
