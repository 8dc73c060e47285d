// Player names as links. Only accounts have a profile (GET /api/players/{name} knows no guests), so a guest's
// name is plain text: a link would lead to "No player of that name".

import { h } from './dom.js';
import { href } from './router.js';
import { t } from './i18n.js';

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

/**
 * Whether a player is the computer: the server flags its seats, lobby entries and profile games with
 * `computer` (its level) or `engine` (an external engine's name); its accounts are `computer-N` / `engine-NAME`.
 */
export function isComputer(p) {
  if (p == null || typeof p !== 'object') return false;
  return Number.isInteger(p.computer) || typeof p.engine === 'string';
}

/** The name a player is shown by: "Computer · level 5" (电脑 · 5级) for the computer, else the account's name. */
export function displayName(p) {
  if (p == null) return '';
  if (typeof p === 'string') return p;
  if (Number.isInteger(p.computer)) return t('computer.label', { n: p.computer });
  if (typeof p.engine === 'string') return t('computer.engine', { name: p.engine });
  return p.name;
}

/** A player's name: a link to the profile for an account, plain text for a guest; the computer by its label. */
export function playerName(p, attrs = {}) {
  const name = typeof p === 'string' ? p : p.name;
  const shown = displayName(p);
  if (isComputer(p)) return h('a', { ...attrs, class: [attrs.class, 'computer'].filter(Boolean).join(' '), href: href('player', { name }), title: name }, shown);
  if (isGuest(p)) return h('span', { ...attrs, class: [attrs.class, 'guest'].filter(Boolean).join(' ') }, shown);
  return h('a', { ...attrs, href: href('player', { name }) }, shown);
}
