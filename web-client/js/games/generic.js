// What the games of the generic rooms (every game but Gomoku: docs/protocol.md, "Games other than Gomoku") share
// on the client: reading a stored game's actions. Pure.

/**
 * The action texts of a stored game of a generic room: its `notation` list (docs/protocol.md, GET /api/games),
 * else each action's `notation`, else plain strings.
 */
export function recordTexts(g) {
  if (Array.isArray(g.notation)) return g.notation.map(String);
  const list = Array.isArray(g.actions) && g.actions.length ? g.actions : g.moves || [];
  return list.map((m) => (typeof m === 'string' ? m : m.notation ?? (typeof m.action === 'string' ? m.action : '')));
}
