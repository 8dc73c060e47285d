// Seeks with a rating range (issue #18): the create form's choice of who may take the free seat, and the lobby's
// view of a ranged seek against one's own rating. Pure helpers; the pages draw them.

import { memberOf } from './games/index.js';

/** The rating the server counts for a guest or a player new to a pool (Glicko-2's start). */
export const NEW_RATING = 1500;

/** The highest bound a range may name (the server's `RatingRange::CEILING`). */
export const CEILING = 4000;

/** The create form's range choices: any rating, ± so many points around one's own, or explicit bounds. */
export const RANGE_CHOICES = ['any', '100', '200', '300', '500', 'custom'];

/** The rating pool a create_room spec (or a lobby row) plays in, as the leaderboard names it: its game's answer. */
export function poolOfSpec(spec) {
  return memberOf(spec).poolOf(spec);
}

/** One's rating in `pool` from a standings list (`GET /api/me`'s `ratings`), rounded; a new player's when absent. */
export function ratingIn(ratings, pool) {
  const r = (ratings || []).find((x) => x.pool === pool);
  return r && Number.isFinite(r.rating) ? Math.round(r.rating) : NEW_RATING;
}

/** A typed refusal of a range the form cannot send, with the server's own code. */
export class RatingRangeError extends Error {
  constructor() {
    super('bad_rating_range');
    this.code = 'bad_rating_range';
  }
}

/**
 * The `rating_range` a create form's values ask for: null for `any` (or no choice), ± the chosen points around
 * `rating` clamped to 0–4000, or the explicit `range_min`/`range_max`. Explicit bounds that are not whole numbers
 * in 0–4000 with the lower first throw a RatingRangeError (`bad_rating_range`, as the server would answer).
 */
export function rangeFromForm(v, rating = NEW_RATING) {
  const choice = v.range || 'any';
  if (choice === 'any') return null;
  if (choice === 'custom') {
    const min = bound(v.range_min);
    const max = bound(v.range_max);
    if (min == null || max == null || min > max) throw new RatingRangeError();
    return { min, max };
  }
  const d = Number(choice);
  if (!Number.isInteger(d) || d <= 0) throw new RatingRangeError();
  const r = Math.round(Number(rating) || NEW_RATING);
  return { min: Math.max(0, Math.min(CEILING, r - d)), max: Math.max(0, Math.min(CEILING, r + d)) };
}

function bound(x) {
  if (x === '' || x == null) return null;
  const n = Number(x);
  return Number.isInteger(n) && n >= 0 && n <= CEILING ? n : null;
}

/** Whether a range admits `rating` (rounded, as the server compares); no range admits everyone. */
export function admits(range, rating) {
  if (!range) return true;
  const r = Math.round(Number(rating));
  return r >= range.min && r <= range.max;
}

/**
 * Whether the viewer may take a lobby row's free seat by its range: `{ok, rating, range}`. The seeker itself is
 * never held to its range; `ratings` are the viewer's standings (none for a guest: 1500 everywhere).
 */
export function seatVerdict(row, you, ratings) {
  const range = row?.rating_range || null;
  const rating = ratingIn(ratings, poolOfSpec(row));
  const seeker = Boolean(you?.id) && (row?.players || []).some((p) => p.id === you.id);
  return { ok: seeker || admits(range, rating), rating, range };
}
