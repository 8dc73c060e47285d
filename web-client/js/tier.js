// Tier badges. Names come from the server in English (issue 4 keeps the table in one place); the badge shows
// the chosen language's word for the tier's code, and its colour keys on the code too. The code is the name in
// snake_case ("Club Player" -> "club_player") when only the name is sent.

import { h } from './dom.js';
import { t, has } from './i18n.js';

// A provisional rating (deviation above 110) has its tier from the start (issue #36), marked as the number is:
// `Amateur?` beside `1500?`, with a title that says why.

/** The tier code of a tier name. */
export function tierSlug(name) {
  return String(name || '').trim().toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
}

/** A tier's name in the current language: the words for its code, else the server's name (a tier newer than us). */
export function tierName(name, code) {
  const key = `tier.${code || tierSlug(name)}`;
  return has(key) ? t(key) : name;
}

/** A badge for a tier, marked when the rating is provisional; nothing when the tier is unknown. */
export function tierBadge(name, code, provisional = false) {
  if (!name) return null;
  const slug = code || tierSlug(name);
  const marked = provisional && slug !== 'unranked';
  return h('span', {
    class: marked ? 'tier provisional' : 'tier',
    dataset: { tier: slug },
    title: marked ? t('tier.provisional_hint') : null,
  }, tierName(name, code) + (marked ? '?' : ''));
}
