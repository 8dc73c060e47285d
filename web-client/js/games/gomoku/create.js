// Gomoku's part of the create-room form: the rule set, the forbidden-move rule (Renju), the opening and the
// board size, and the `rules` they make in a `create_room` message.

import { t } from '../../i18n.js';
import { h } from '../../dom.js';
import { OPENINGS, MAX_N, DEFAULT_N, openingCode, parseOpening } from './opening.js';

/** The form's Gomoku fields; `seg(name, options, value)` and `field(label, control, extra)` are the form's builders. */
export function createFields({ seg, field }) {
  return [
    field(t('create.rule_set'), seg('rule_set', [['renju', t('rule.renju')], ['freestyle', t('rule.freestyle')], ['standard', t('rule.standard')]], 'renju')),
    field(t('create.forbidden'), seg('forbidden_policy', [['reject', t('policy.reject')], ['lose', t('policy.lose')], ['claim', t('policy.claim')]], 'reject'), { 'data-show': 'renju' }),
    field(t('create.opening'), seg('opening', OPENINGS.map((o) => [o, t(`opening.${o}`)]), 'swap_after_three')),
    // N of Soosõrv-N and Taraguchi-N, each shown while its opening is chosen.
    ...Object.keys(DEFAULT_N).map((family) => field(t('op.n_field', { opening: t(`opening.${family}`) }),
      h('select', { name: `${family}_n`, id: `opening-${family}-n` },
        Array.from({ length: MAX_N }, (_, i) => h('option', { value: i + 1, selected: i + 1 === DEFAULT_N[family] }, String(i + 1)))),
      { 'data-opening': family, class: 'field opening-n' })),
    h('p', { class: 'hint opening-hint', id: 'opening-hint', 'aria-live': 'polite' }),
    field(t('create.size'), seg('size', [['15', '15×15'], ['19', '19×19'], ['20', '20×20']], '15'), { 'data-hide': 'renju' }),
  ];
}

/** Shows the fields the chosen rule set has (the forbidden-move rule only under Renju, the size only outside it). */
export function syncFields(scope, v) {
  for (const el of scope.querySelectorAll('[data-show]')) el.hidden = v.rule_set !== el.dataset.show;
  for (const el of scope.querySelectorAll('[data-hide]')) el.hidden = v.rule_set === el.dataset.hide;
  const opening = scope.querySelector('input[name="opening"]:checked')?.value || v.opening;
  for (const el of scope.querySelectorAll('[data-opening]')) el.hidden = opening !== el.dataset.opening;
  const hint = scope.querySelector('.opening-hint');
  if (hint) {
    const n = Number(v[`${opening}_n`]) || DEFAULT_N[opening];
    hint.textContent = opening ? t(`op.hint.${opening}`, { n }) : '';
  }
}

/** The game's part of a create_room message from the form's values: `{rules}` (docs/protocol.md). */
export function createSpec(v) {
  const rules = { size: Number(v.size) || 15, rule_set: v.rule_set };
  if (v.rule_set === 'renju') {
    rules.size = 15;
    rules.forbidden_policy = v.forbidden_policy;
  }
  rules.opening = openingCode(v);
  return { rules };
}

/** A room's rules in words: the rule set, the forbidden-move rule, the size when asked for and not 15, the opening. */
export function describe(rules, { size = false } = {}) {
  const parts = [t(`rule.${rules.rule_set}`)];
  if (rules.rule_set === 'renju' && rules.forbidden_policy) parts.push(t(`policy_long.${rules.forbidden_policy}`));
  if (size && rules.size && rules.size !== 15) parts.push(`${rules.size}×${rules.size}`);
  if (rules.opening && rules.opening !== 'none') parts.push(openingLabel(rules.opening));
  return parts.join(' · ');
}

/**
 * Makes a form's opening follow its rule set: choosing a rule set checks the opening `defaultFor` gives it (the
 * quick-pairing custom form and the challenge form start renju at Soosõrv-8 and freestyle without one).
 */
export function openingFollowsRuleSet(form, defaultFor) {
  form.addEventListener('change', (e) => {
    if (e.target.name !== 'rule_set') return;
    const input = form.querySelector(`input[name="opening"][value="${defaultFor(e.target.value)}"]`);
    if (input) input.checked = true;
  });
}

/** An opening code in words: `soosorv_8` is "Soosõrv-8"; a code this client has no words for stays as it is. */
export function openingLabel(code) {
  const { family, n } = parseOpening(code);
  if (n) return t(family === 'soosorv' ? 'op.label.soosorv' : 'op.label.taraguchi', { n });
  return OPENINGS.includes(family) ? t(`opening.${family}`) : String(code);
}
