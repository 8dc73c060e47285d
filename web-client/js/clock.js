// Clock arithmetic: the server is authoritative and sends remaining times; the client only extrapolates the
// running side between messages so the display moves smoothly, and never trusts its own figure for a result.

/**
 * Text for a remaining time: "1:05:03" over an hour, "4:59" over ten seconds (whole seconds rounded up, so
 * a clock never shows 0:00 while time remains), "9.4" with tenths below ten seconds.
 */
export function formatClock(ms) {
  if (!Number.isFinite(ms) || ms <= 0) return '0:00';
  if (ms < 10_000) {
    const tenths = Math.ceil(ms / 100);
    return `${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const total = Math.ceil(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/**
 * What one side's clock shows `elapsed` ms after the server's figures were received, when that side's clock
 * is the running one (elapsed 0 otherwise).
 *
 * side: the protocol's SideClock {remaining_ms, periods?, byo_yomi?}; periodMs: the byo-yomi period length from
 * the room's time control. The main time runs first, then each period; `periods` counts the periods left,
 * the current one included.
 * Returns {ms (time shown), periods (left), byoyomi (true once in the periods), flagged}.
 */
export function clockAt(side, elapsed, periodMs = 0) {
  // A side's first action runs on its allowance (first_move_ms) before the main time moves.
  const charged = Math.max(0, Math.max(0, elapsed) - (side.first_move_ms ?? 0));
  let ms = (side.remaining_ms ?? 0) - charged;
  let periods = side.periods ?? 0;
  let byoyomi = Boolean(side.byo_yomi);
  while (ms <= 0) {
    // A clock without periods (Fischer) is simply spent: never shown as byo-yomi ("0:00 · 0×").
    if (!byoyomi && (periods <= 0 || periodMs <= 0)) return { ms: 0, periods: 0, byoyomi: false, flagged: true };
    // Main time spent enters the first period; a spent period costs one. The loop carries any overrun.
    if (byoyomi) periods -= 1;
    else byoyomi = true;
    if (periods <= 0 || periodMs <= 0) return { ms: 0, periods: Math.max(0, periods), byoyomi, flagged: true };
    ms += periodMs;
  }
  return { ms, periods, byoyomi, flagged: false };
}

/** What is left of a side's first-action allowance `elapsed` ms after the server's figures (0 when none). */
export function firstMoveLeft(side, elapsed) {
  return Math.max(0, (side.first_move_ms ?? 0) - Math.max(0, elapsed));
}

/**
 * What one side's clock reads `elapsed` ms after the server's figures: the time, the periods left once in
 * byo-yomi ("0:25 · 3×"), and while the game runs what is left of a first action's allowance ("· first move 30s").
 * A finished game, or a spent clock, shows no allowance: it can no longer be used. `t` translates.
 */
export function clockText(side, elapsed, options = {}, t = (k, p) => `${k} ${JSON.stringify(p)}`) {
  const { time, extra } = clockParts(side, elapsed, options, t);
  return time + extra.map((x) => ` · ${x}`).join('');
}

/** clockText in its parts: the time, and what follows it (periods, the allowance), each a phrase of its own. */
export function clockParts(side, elapsed, { periodMs = 0, playing = true } = {}, t = (k, p) => `${k} ${JSON.stringify(p)}`) {
  const v = clockAt(side, elapsed, periodMs);
  const first = playing && !v.flagged ? firstMoveLeft(side, elapsed) : 0;
  const extra = [];
  if (v.byoyomi) extra.push(t('room.periods', { n: v.periods }));
  if (first > 0) extra.push(t('room.first_move', { s: Math.ceil(first / 1000) }));
  return { time: formatClock(v.ms), extra };
}

/** Human summary of a protocol TimeControl for lists: "10+5" (Fischer), "15′ + 5×30s" (byo-yomi). */
export function describeTimeControl(tc, t = (k) => k) {
  if (!tc || tc.kind === 'none') return t('tc.none');
  const minutes = +((tc.base_ms ?? 0) / 60000).toFixed(1);
  if (tc.kind === 'fischer') return `${minutes}+${Math.round((tc.increment_ms ?? 0) / 1000)}`;
  return `${minutes}′ + ${tc.periods}×${Math.round((tc.period_ms ?? 0) / 1000)}s`;
}
