// The list of moves beside a board. Each game says how its moves are numbered (games/*: `moveEntries`); for
// Gomoku every stone gets its own number, as the board's numbered stones and the record do: pairing moves
// chess-style ("8. l8" for stone 15) made the list disagree with the board.

/** The moves as list entries: `n` is the stone's number from 1, `colour` the colour of the stone placed. */
export function moveEntries(moves) {
  return moves.map((point, i) => ({ n: i + 1, point, colour: i % 2 ? 'white' : 'black' }));
}

/**
 * The list items for `moves`, built with `h`; `attrs(entry)` adds attributes to an item (a click to replay it) and
 * `more(entry)` children after the move (the record's time per move).
 */
export function moveItems(h, moves, attrs = () => ({}), more = () => null) {
  return entryItems(h, moveEntries(moves), attrs, more);
}

/**
 * The list items for entries `{n, point, colour, ply?, label?}` (a game's `moveEntries`): `ply` (else `n`) is the
 * position the item stands for, `label` (else `n.`) its number as shown; `attrs` and `more` as for moveItems.
 */
export function entryItems(h, entries, attrs = () => ({}), more = () => null) {
  return entries.map((e) => {
    const extra = attrs(e);
    return h('li', { ...extra, class: [e.colour === 'black' ? 'b' : 'w', extra.class].filter(Boolean).join(' '), dataset: { ply: e.ply ?? e.n } },
      ...[h('span', { class: 'n' }, e.label ?? `${e.n}.`), h('span', { class: 'mv' }, e.point), more(e)].filter(Boolean));
  });
}

/** A move's thinking time: tenths of a second under a minute ("4.2s"), else minutes and seconds ("1:05"). */
export function formatUsed(ms) {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return '';
  if (ms < 60_000) return `${(Math.floor(ms / 100) / 10).toFixed(1)}s`;
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
