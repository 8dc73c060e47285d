// Gomoku and Renju: stones on the intersections of a 15×15 (or 19×19) board. The member of the game registry
// (games/index.js describes what a member gives).

import { addStrings } from '../../i18n.js';
import strings from './strings.js';
import rulesText from './rules.js';
import { renderBoard } from './board.js';
import { snapshot, reduce, ply, controls, canTakeBack } from './state.js';
import { roomBoard } from './room.js';
import { normaliseRecord, recordBoard, openingLines } from './record.js';
import { createFields, syncFields, createSpec, describe } from './create.js';
import { moveEntries } from '../../movelist.js';

addStrings(strings);

/** The Gomoku member. */
export default {
  name: 'gomoku',
  served: true,
  /** The server's computer plays this game (play_computer, invite_computer). */
  computer: true,
  colours: ['black', 'white'],
  startPhase: 'place',
  pools: ['renju', 'freestyle', 'standard'],
  /** Each rule set is its own pool; a spec that names none is freestyle (the server's default). */
  poolOf: (spec) => spec?.rules?.rule_set || spec?.game?.rule_set || 'freestyle',
  strings,
  /** No one export link: the record page offers Gomoku's downloads below (Piskvork's .psq, RenLib's text). */
  exportFormat: null,
  /** The record's downloads besides the readable record: `[format, file suffix, label key]`. */
  downloads: [['psq', '.psq', 'records.psq'], ['renlib', '.renlib.txt', 'records.renlib']],
  /** The analysis board (pages/analysis.js) reads its games: the record offers "Analyse" and "Import .psq". */
  analysable: true,
  importsPsq: true,
  /** The rules' name in the page's footer. */
  sourceKey: 'gomoku.source',
  /** The rules page's words (rules.js). */
  rulesText,
  /** The room page's board settings: numbered stones and a confirming second tap. */
  settings: ['numbers', 'confirm'],
  snapshot,
  reduce,
  ply,
  controls,
  canTakeBack,
  /** The moves a list shows: one entry per stone. */
  moveEntries: (room) => moveEntries(room.moves),
  /** A room's, record's or challenge's rules in words: its `rules`, or its `game` spec of Gomoku's. */
  describe: (x, opts) => {
    const rules = x.rules?.rule_set ? x.rules : x.game?.rule_set ? x.game : null;
    return rules ? describe(rules, opts) : '';
  },
  /** A quick-pairing tile's or seek's words: the rule set and the opening ("Renju · Soosõrv-8"). */
  quickWords: (spec) => {
    const rules = spec?.rules || spec;
    return rules?.rule_set ? describe({ rule_set: rules.rule_set, opening: rules.opening }) : '';
  },
  /** Gomoku's endings are result.js's own words: nothing to add. */
  resultSentence: () => '',
  roomBoard,
  normaliseRecord,
  recordBoard,
  /** The record's opening as decided, a line each (record.js shows them under the players). */
  openingLines,
  createFields,
  syncFields,
  createSpec,
  /** A small board with a finished diagonal five: the lobby's emblem, drawn by the same code as real boards. */
  emblem: () => renderBoard({ size: 7, coords: false, moves: ['b2', 'c5', 'c3', 'd5', 'd4', 'e3', 'e5', 'f4', 'f6'] }),
};
