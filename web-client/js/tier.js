// Tier badges. Names come from the server (issue 4 keeps the table in one place); the badge's colour keys on the
// tier code, which is the name in snake_case ("Club Player" -> "club_player") when only the name is sent.

import { h } from './dom.js';

/** The tier code of a tier name. */
export function tierSlug(name) {
  return String(name || '').trim().toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
}

/** A badge for a tier, or nothing when the tier is unknown. */
export function tierBadge(name, code) {
  return name ? h('span', { class: 'tier', dataset: { tier: code || tierSlug(name) } }, name) : null;
}
