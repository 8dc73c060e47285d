// Insect chess (昆虫棋): six insects a side on a 7×11 board with a pond, each side's food walled by its mud
// (shared/rules/insect-chess.md). South (the seam's `black`) moves first. The member of the game registry
// (games/index.js describes what a member gives).

import { t, addStrings, lang } from '../../i18n.js';
import { h } from '../../dom.js';
import { href } from '../../router.js';
import { resultSentence as sharedSentence } from '../../result.js';
import strings from './strings.js';
import rulesText from './rules.js';
import { snapshot, reduce, ply, controls, moveEntries, canTakeBack } from './state.js';
import { roomBoard, normaliseRecord, recordBoard, sideWord } from './room.js';
import { renderInsect, KIND_ORDER, GLYPH, LETTER } from './board.js';
import { esc } from '../grid.js';

addStrings(strings);

/** The spec: insect chess has no options beyond the room's clock. */
const DEFAULT_SPEC = { game: 'insect' };

/** The game's own endings (the result's reason, with `detail.rule` the same). */
const WINS = ['food', 'no_pieces', 'no_moves'];
const DRAWS = ['repetition', 'no_capture'];

/**
 * A result in this game's words, the sides named South and North: its own endings, and every shared one (a
 * resignation, time…) with the side's word standing in for a missing name rather than "Black".
 */
export function resultSentence(result, names = {}) {
  if (!result || result.reason === 'aborted') return '';
  const side = { black: sideWord('black'), white: sideWord('white') };
  if (!result.winner) {
    if (DRAWS.includes(result.reason)) return t(`insect.draw_${result.reason}`);
    return sharedSentence(result, { black: names.black || side.black, white: names.white || side.white });
  }
  const loserColour = result.winner === 'black' ? 'white' : 'black';
  const winnerName = names[result.winner] || result.winner_name;
  const winner = winnerName ? t('insect.side_name', { name: winnerName, side: side[result.winner] }) : side[result.winner];
  const loser = names[loserColour] || side[loserColour];
  if (WINS.includes(result.reason)) return t(`insect.win_${result.reason}`, { winner, loser });
  return sharedSentence({ ...result, winner_name: undefined }, { [result.winner]: winner, [loserColour]: loser });
}

/** The strength cycle drawn: each insect takes those to its right, and the diving beetle takes the scorpion. */
export function cycleSvg() {
  const parts = ['<svg xmlns="http://www.w3.org/2000/svg" class="insect-cycle" viewBox="0 0 372 92" role="img" aria-hidden="true">'];
  parts.push('<defs><marker id="insect-arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" class="arrowhead"/></marker></defs>');
  KIND_ORDER.forEach((k, i) => {
    const x = 30 + i * 62;
    if (i) parts.push(`<line class="beats" x1="${x - 42}" y1="30" x2="${x - 21}" y2="30" marker-end="url(#insect-arrow)"/>`);
    parts.push(`<g class="piece south ${k}"><circle class="token" cx="${x}" cy="30" r="18"/><text class="big char" x="${x}" y="31">${GLYPH[k]}</text><text class="small" x="${x + 13}" y="${43}">${LETTER[k]}</text></g>`);
  });
  parts.push('<path class="beats back" d="M340 50Q340 84 186 84Q30 84 30 52" marker-end="url(#insect-arrow)"/>');
  parts.push('</svg>');
  return parts.join('');
}

/**
 * The strength cycle drawn as a circle for the rules page: the six insects round it strongest first, clockwise
 * from the top, an arrow from each to the next weaker, the diving beetle's arrow back to the scorpion marked, and
 * each insect's name inside the circle, clear of the arrows. `names`: kind → its name in the page's language.
 */
export function cycleCircleSvg(names = {}) {
  const cx = 170;
  const cy = 158;
  const r = 112;
  const at = (deg, radius = r) => [cx + radius * Math.cos((deg * Math.PI) / 180), cy + radius * Math.sin((deg * Math.PI) / 180)];
  const f = (n) => n.toFixed(1);
  const parts = ['<svg xmlns="http://www.w3.org/2000/svg" class="insect-cycle circle" viewBox="0 0 340 316" role="img">'];
  parts.push(`<title>${esc([...KIND_ORDER, 'scorpion'].map((k) => names[k] || k).join(' → '))}</title>`);
  parts.push('<defs><marker id="insect-arrow-circle" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" class="arrowhead"/></marker></defs>');
  KIND_ORDER.forEach((k, i) => {
    const a = -90 + i * 60;
    const [x1, y1] = at(a + 16);
    const [x2, y2] = at(a + 60 - 17);
    const back = i === KIND_ORDER.length - 1;
    parts.push(`<path class="beats${back ? ' back' : ''}" d="M${f(x1)} ${f(y1)}A${r} ${r} 0 0 1 ${f(x2)} ${f(y2)}" marker-end="url(#insect-arrow-circle)"/>`);
  });
  KIND_ORDER.forEach((k, i) => {
    const a = -90 + i * 60;
    const [x, y] = at(a);
    const [lx, ly] = at(a, r - 46);
    parts.push(`<g class="piece south ${k}" data-kind="${k}"><circle class="token" cx="${f(x)}" cy="${f(y)}" r="23"/><text class="big char" x="${f(x)}" y="${f(y + 1)}">${GLYPH[k]}</text>`);
    parts.push(`<text class="name" x="${f(lx)}" y="${f(ly)}">${esc(names[k] || k)}</text></g>`);
  });
  parts.push('</svg>');
  return parts.join('');
}

/** The rules page's figures: the start board with the terrain named ('board'), the strength cycle ('cycle'). */
export function rulesFigure(name) {
  const names = Object.fromEntries(KIND_ORDER.map((k) => [k, t(`insect.kind.${k}`)]));
  if (name === 'cycle') return cycleCircleSvg(names);
  if (name === 'board') {
    const terrainNames = Object.fromEntries(['pond', 'food_south', 'food_north', 'mud_south', 'mud_north'].map((k) => [k, t(`insect.${k}`)]));
    return renderInsect({ names, terrainNames, glyph: lang() === 'zh' ? 'char' : 'letter', title: t('insect.board') });
  }
  return '';
}

/** The create form's rules summary: the goal, the strength cycle drawn, the terrain and the endings. */
function rulesSummary() {
  const art = h('div', { class: 'insect-cycle-wrap' });
  art.innerHTML = cycleSvg();
  return h('details', { class: 'insect-rules', id: 'insect-rules' },
    h('summary', {}, t('insect.rules_title')),
    h('p', {}, t('insect.rules_goal')),
    h('p', {}, t('insect.rules_cycle'), ' ', KIND_ORDER.map((k) => (lang() === 'zh' ? t(`insect.kind.${k}`) : `${GLYPH[k]} ${t(`insect.kind.${k}`)}`)).join(' › '), ' — ', t('insect.rules_beetle')),
    art,
    h('p', {}, t('insect.rules_terrain')),
    h('p', {}, t('insect.rules_end')),
    h('p', {}, h('a', { href: href('rules', { game: 'insect' }), class: 'rules-link' }, t('rules.link'))));
}

/**
 * The create form's colour choice is every game's ("Black", "White"); while insect chess is chosen its two
 * colours read as the sides they are here, and go back to the shared words when another game is.
 */
function relabelColours(scope, values) {
  const form = scope?.closest?.('form');
  if (!form) return;
  const ours = values.game === 'insect';
  for (const colour of ['black', 'white']) {
    const label = form.querySelector(`input[name="colour"][value="${colour}"] + span`);
    if (label) label.textContent = ours ? t(`insect.colour_${colour}`) : t(`colour.${colour}`);
  }
}

/** The insect chess member. */
export default {
  name: 'insect',
  served: true,
  colours: ['black', 'white'],
  startPhase: 'move',
  pools: ['insect/standard'],
  /** Every insect game is rated in the one pool. */
  poolOf: () => 'insect/standard',
  defaultSpec: DEFAULT_SPEC,
  strings,
  style: new URL('./style.css', import.meta.url).href,
  /** The export (GET /api/games/{id}/export) is the moves, space-separated, in the page's notation. */
  exportFormat: { extension: 'txt', labelKey: 'record.format_insect' },
  /** The rules' name in the page's footer. */
  sourceKey: 'insect.source',
  /** The rules page's words (rules.js) and figures. */
  rulesText,
  rulesFigure,
  /** A seat's word: the sides are South and North, never black and white. */
  colourWord: sideWord,
  /** The room page's board settings: none of Gomoku's (numbers, a confirming tap) apply. */
  settings: [],
  snapshot,
  reduce,
  ply,
  controls,
  canTakeBack,
  moveEntries,
  /** "Insect chess". */
  describe: () => t('game.insect'),
  resultSentence,
  roomBoard,
  /** The analysis board reads its records (on the record board, the engine playing its variations). */
  analysable: true,
  normaliseRecord,
  recordBoard,
  /** No options: a summary of the rules instead. */
  createFields: () => [rulesSummary()],
  syncFields: relabelColours,
  /** `{game: {game: "insect"}}`. */
  createSpec: () => ({ game: { ...DEFAULT_SPEC } }),
  emblem: () => renderInsect({}),
};
