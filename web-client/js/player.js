// Player names as links. Only accounts have a profile (GET /api/players/{name} knows no guests), so a guest's
// name is plain text: a link would lead to "No player of that name".

import { h } from './dom.js';
import { href } from './router.js';

/**
 * Whether a player (a seat, a lobby player, a record's name) is a guest. The `guest` flag wins when sent; lobby
 * players carry only the id (`g…` for guests, `u…` for accounts); records carry only the name, and `guest-` names
 * are reserved for guests (server/src/accounts/username.rs).
 */
export function isGuest(p) {
  if (p == null) return false;
  if (typeof p === 'string') return p.startsWith('guest-');
  if (typeof p.guest === 'boolean') return p.guest;
  if (typeof p.id === 'string' && p.id) return p.id.startsWith('g');
  return isGuest(p.name);
}

/** A player's name: a link to the profile for an account, plain text for a guest. */
export function playerName(p, attrs = {}) {
  const name = typeof p === 'string' ? p : p.name;
  if (isGuest(p)) return h('span', { ...attrs, class: [attrs.class, 'guest'].filter(Boolean).join(' ') }, name);
  return h('a', { ...attrs, href: href('player', { name }) }, name);
}
