// Othello: discs on the squares of an 8×8 board, black first. The member of the game registry (games/index.js
// describes what a member gives). Served: the room takes forced passes itself (docs/protocol.md).

import { t, addStrings } from '../../i18n.js';
import strings from './strings.js';
import rulesText from './rules.js';
import { snapshot, reduce, ply, controls, moveEntries, canTakeBack } from './state.js';
import { roomBoard, normaliseRecord, recordBoard } from './room.js';
import { renderOthello } from './board.js';

addStrings(strings);

/** The options of a spec that names none: Japanese scoring, the create form's first choice. */
const DEFAULT_SPEC = { game: 'othello', scoring: 'japanese' };

/** The reasons an Othello game ends on the board; the sentence then gives the disc count. */
const COUNTED = ['board_full', 'wipe_out', 'no_moves'];

/** The Othello member. */
export default {
  name: 'othello',
  served: true,
  colours: ['black', 'white'],
  startPhase: 'place',
  pools: ['othello/standard'],
  /** Every Othello game, whatever its scoring, is rated in the one pool. */
  poolOf: () => 'othello/standard',
  defaultSpec: DEFAULT_SPEC,
  strings,
  style: new URL('./style.css', import.meta.url).href,
  /** The export (GET /api/games/{id}/export) is the move list; the record shows it as the transcript too. */
  exportFormat: { extension: 'txt', labelKey: 'record.format_othello' },
  /** The record's transcript (the squares in order) is named thus. */
  transcriptKey: 'othello.transcript',
  /** The rules' name in the page's footer. */
  sourceKey: 'othello.source',
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
  /** "Othello · Japanese scoring". */
  describe: (x) => {
    const scoring = x.game?.scoring || x.spec?.scoring;
    return [t('game.othello'), scoring ? t(`othello.scoring_${scoring}`) : null].filter(Boolean).join(' · ');
  },
  /** A quick-pairing tile's or seek's words: the scoring. */
  quickWords: (spec) => t(`othello.scoring_${spec?.scoring || DEFAULT_SPEC.scoring}`),
  /**
   * A game ended on the board in words with its count (the scored one, else the discs): "lin_yue wins 40–24",
   * "Drawn 32–32"; '' for the endings every game shares (resignation, time), which result.js words.
   */
  resultSentence: (result, names = {}) => {
    if (!COUNTED.includes(result?.reason)) return '';
    const d = result.detail?.scored?.black != null ? result.detail.scored : result.detail?.discs;
    if (!d) return '';
    if (!result.winner) return t('othello.result_draw', { black: d.black, white: d.white });
    const loser = result.winner === 'black' ? 'white' : 'black';
    const winner = names[result.winner] || result.winner_name || t(`colour.${result.winner}`);
    return t('othello.result_win', { winner, won: d[result.winner], lost: d[loser], reason: t(`othello.reason_${result.reason}`) });
  },
  roomBoard,
  /** The analysis board reads its records (on the record board, the engine playing its variations). */
  analysable: true,
  normaliseRecord,
  recordBoard,
  /** The scoring rule: Japanese (empty squares to the winner) or European. */
  createFields: ({ seg, field }) => [
    field(t('create.scoring'), seg('scoring', [['japanese', t('othello.scoring_japanese')], ['european', t('othello.scoring_european')]], 'japanese')),
  ],
  syncFields: () => {},
  /** `{game: {game: "othello", scoring}}`. */
  createSpec: (v) => ({ game: { ...DEFAULT_SPEC, scoring: v.scoring || DEFAULT_SPEC.scoring } }),
  emblem: () => renderOthello({}),
};
