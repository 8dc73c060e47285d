// Tier badges. Names come from the server in English (issue 4 keeps the table in one place); the badge shows
// the chosen language's word for the tier's code, and its colour keys on the code too. The code is the name in
// snake_case ("Club Player" -> "club_player") when only the name is sent.

import { h } from './dom.js';
import { t, has } from './i18n.js';

/** The tier code of a tier name. */
export function tierSlug(name) {
  return String(name || '').trim().toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
}

/** A tier's name in the current language: the words for its code, else the server's name (a tier newer than us). */
export function tierName(name, code) {
  const key = `tier.${code || tierSlug(name)}`;
  return has(key) ? t(key) : name;
}

/** A badge for a tier, or nothing when the tier is unknown. */
export function tierBadge(name, code) {
  return name ? h('span', { class: 'tier', dataset: { tier: code || tierSlug(name) } }, tierName(name, code)) : null;
}
