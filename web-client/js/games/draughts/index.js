// International draughts: men and kings on the 50 dark squares of a 10×10 board, White first. The member of the
// game registry (games/index.js describes what a member gives).

import { t, addStrings } from '../../i18n.js';
import strings from './strings.js';
import rulesText from './rules.js';
import { snapshot, reduce, ply, controls, moveEntries, canTakeBack, counterText } from './state.js';
import { roomBoard, normaliseRecord, recordBoard } from './room.js';
import { renderDraughts } from './board.js';

addStrings(strings);

/** The options of a spec that names none: the international variant. */
const DEFAULT_SPEC = { game: 'draughts', variant: 'international' };

/** The draughts member. */
export default {
  name: 'draughts',
  served: true,
  colours: ['white', 'black'],
  startPhase: 'move',
  pools: ['draughts/international'],
  /** A variant has its own pool: `draughts/international`. */
  poolOf: (spec) => `draughts/${spec?.game?.variant || DEFAULT_SPEC.variant}`,
  defaultSpec: DEFAULT_SPEC,
  strings,
  style: new URL('./style.css', import.meta.url).href,
  /** The export (GET /api/games/{id}/export) is PDN. */
  exportFormat: { extension: 'pdn', labelKey: 'record.format_draughts' },
  /** The rules' name in the page's footer. */
  sourceKey: 'draughts.source',
  /** The rules page's words (rules.js). */
  rulesText,
  /** The room page's board settings: none of Gomoku's (numbers, a confirming tap) apply. */
  settings: [],
  snapshot,
  reduce,
  ply,
  controls,
  canTakeBack,
  moveEntries,
  /** The record's counter by move pairs, as the list numbers them. */
  counterText,
  /** "International draughts". */
  describe: () => t('game.draughts'),
  /** The endings of draughts' own in words ("Drawn: the same position three times"); '' for the shared ones. */
  resultSentence: (result, names = {}) => {
    const reason = result?.reason;
    if (!['no_pieces', 'no_moves', 'threefold', 'twenty_five_moves', 'endgame_limit'].includes(reason)) return '';
    if (!result.winner) return t(`draughts.draw_${reason}`);
    const loserColour = result.winner === 'black' ? 'white' : 'black';
    const winner = names[result.winner] || result.winner_name || t(`colour.${result.winner}`);
    const loser = names[loserColour] || t(`colour.${loserColour}`);
    return t(`draughts.win_${reason}`, { winner, loser });
  },
  roomBoard,
  /** The analysis board reads its records (on the record board, the engine playing its variations). */
  analysable: true,
  normaliseRecord,
  recordBoard,
  /** The variant: international (10×10) is the only one. */
  createFields: ({ seg, field }) => [field(t('create.variant'), seg('variant', [['international', t('draughts.international')]], 'international'))],
  syncFields: () => {},
  /** `{game: {game: "draughts", variant}}`. */
  createSpec: (v) => ({ game: { ...DEFAULT_SPEC, variant: v.variant || DEFAULT_SPEC.variant } }),
  emblem: () => renderDraughts({}),
};
