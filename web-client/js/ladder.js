// The game's cumulative ladder beside the rating (issue #34): the title in the chosen language (the server sends
// both: the source's Chinese and our English) and the points, as a small badge.

import { h } from './dom.js';
import { t, lang } from './i18n.js';

/** A ladder's title in the current language. */
export function ladderTitle(ladder) {
  if (!ladder) return '';
  return lang() === 'zh' ? ladder.title_zh : ladder.title;
}

/** A badge for a standing's ladder (`{kind, points, title_code, title, title_zh}`); nothing without one. */
export function ladderBadge(ladder) {
  if (!ladder) return null;
  return h('span', {
    class: 'ladder',
    dataset: { ladder: ladder.kind, title: ladder.title_code },
    title: t(`ladder.${ladder.kind}_hint`),
  }, `${ladderTitle(ladder)} · ${t('ladder.points', { n: ladder.points })}`);
}
