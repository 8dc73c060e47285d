// A game's rules page (#/rules/GAME), and without a game the list of every game's (#/rules). The page is the same
// for every game: the words and figures are the game's own (its rules.js, the member's `rules` and
// `rulesFigure`), in the page's language.

import { h, mount } from '../dom.js';
import { t, lang } from '../i18n.js';
import { href } from '../router.js';
import { GAMES, gameChoices } from '../games/index.js';

/**
 * Text with **bold** spans as nodes (the rules' only markup): strings become text nodes, so nothing in the words
 * is ever read as HTML.
 */
export function richText(text) {
  return String(text)
    .split(/\*\*(.+?)\*\*/)
    .map((part, i) => (i % 2 ? h('strong', {}, part) : part))
    .filter((part) => part !== '');
}

/** The rules of `member` in `language` (English when it has none in that language): {title, blurb, blocks}. */
export function rulesIn(member, language = lang()) {
  const text = member.rulesText?.[language] || member.rulesText?.en || { blurb: '', blocks: [] };
  return { title: t(`game.${member.name}`), ...text };
}

/**
 * One block of a game's rules as elements: ['h2', text], ['p', text], ['ul', [text…]],
 * ['table', [head…], [[cell…]…]] or ['figure', name, caption] (the member draws the figure `name`).
 */
export function block(member, [kind, ...rest]) {
  switch (kind) {
    case 'h2':
      return h('h2', {}, richText(rest[0]));
    case 'p':
      return h('p', {}, richText(rest[0]));
    case 'ul':
      return h('ul', {}, rest[0].map((item) => h('li', {}, richText(item))));
    case 'table':
      return h('div', { class: 'table-wrap' }, h('table', { class: 'rules-table' },
        h('thead', {}, h('tr', {}, rest[0].map((c) => h('th', {}, c)))),
        h('tbody', {}, rest[1].map((row) => h('tr', {}, row.map((c) => h('td', {}, richText(c))))))));
    case 'figure': {
      const art = h('div', { class: 'rules-art' });
      art.innerHTML = member.rulesFigure?.(rest[0]) || '';
      return h('figure', { class: `rules-figure ${rest[0]}`, dataset: { figure: rest[0] } }, art, rest[1] ? h('figcaption', {}, rest[1]) : null);
    }
    default:
      return null;
  }
}

/** The links to every served game's rules, the one shown marked. */
function gameTabs(current) {
  return h('nav', { class: 'tabs rules-tabs', 'aria-label': t('rules.title') },
    gameChoices().map((g) => h('a', {
      href: href('rules', { game: g.name }),
      class: g.name === current ? 'active' : '',
      'aria-current': g.name === current ? 'page' : null,
      dataset: { game: g.name },
    }, t(`game.${g.name}`))));
}

/** The list of the games, each with its emblem, what it is in a line, and the way to its rules and to play. */
export function gameList(id = 'game-list') {
  return h('div', { class: 'game-list', id },
    gameChoices().map((g) => {
      const art = h('div', { class: 'game-emblem', 'aria-hidden': 'true' });
      art.innerHTML = g.emblem();
      return h('div', { class: 'game-card', dataset: { game: g.name } },
        art,
        h('div', { class: 'game-card-text' },
          h('h3', {}, rulesIn(g).title),
          h('p', { class: 'muted small' }, rulesIn(g).blurb),
          h('a', { class: 'rules-link', href: href('rules', { game: g.name }) }, t('rules.link'))));
    }));
}

/** Mounts the rules page; nothing to clean up. */
export function render(view, params) {
  const member = params.game ? GAMES[params.game] : null;
  if (!member) {
    mount(view, h('section', { class: 'rules-page' }, h('h1', {}, t('rules.title')), h('p', { class: 'muted' }, t('app.tagline')), gameList('rules-games')));
    return null;
  }
  const { title, blurb, blocks } = rulesIn(member);
  mount(view, h('article', { class: 'rules-page card', id: 'rules-page', dataset: { game: member.name }, lang: lang() },
    gameTabs(member.name),
    h('h1', {}, t('rules.of', { game: title })),
    h('p', { class: 'lead' }, blurb),
    blocks.map((b) => block(member, b)),
    h('p', { class: 'rules-play' }, h('a', { class: 'btn primary', href: href('lobby') }, t('rules.play')))));
  return null;
}
