// The game part of the quick-pairing custom form and the challenge form (issues #33, #36): the choice of game and
// each served game's own fields (its member's createFields), shown while it is the chosen one. Gomoku's opening
// starts where the presets play: Soosõrv-8 under renju, none under the other rule sets.

import { t } from './i18n.js';
import { h } from './dom.js';
import { GAMES, DEFAULT_GAME, gameChoices } from './games/index.js';
import { defaultOpening } from './pairing.js';
import { parseOpening } from './games/gomoku/opening.js';
import { openingFollowsRuleSet } from './games/gomoku/create.js';

/** The opening family a rule set starts with in these forms (the form's radio values are families). */
const openingFamily = (ruleSet) => parseOpening(defaultOpening(ruleSet)).family;

/**
 * The fields: the game (when more than one is served) and each game's own, in a `.game-fields` box per game;
 * `seg(name, options, value)` and `field(label, control, extra)` are the form's builders.
 */
export function gameFields({ seg, field }, games = GAMES) {
  const choices = gameChoices(games);
  return [
    choices.length > 1 ? field(t('create.game'), seg('game', choices.map((g) => [g.name, t(`game.${g.name}`)]), DEFAULT_GAME)) : null,
    choices.map((g) => h('div', { class: 'game-fields', dataset: { game: g.name } }, g.createFields({ seg, field }))),
  ];
}

/** Starts Gomoku's opening at the rule set's and keeps it following the rule set; call once the form is built. */
export function balancedOpening(form) {
  const ruleSet = form.querySelector('input[name="rule_set"]:checked')?.value || 'renju';
  const input = form.querySelector(`input[name="opening"][value="${openingFamily(ruleSet)}"]`);
  if (input) input.checked = true;
  openingFollowsRuleSet(form, openingFamily);
}

/** Shows the chosen game's fields (and, inside them, what its options show), hides the others'. */
export function syncGameFields(form, v, games = GAMES) {
  const chosen = v.game || DEFAULT_GAME;
  for (const el of form.querySelectorAll('.game-fields')) {
    el.hidden = el.dataset.game !== chosen;
    games[el.dataset.game]?.syncFields(el, v);
  }
}
