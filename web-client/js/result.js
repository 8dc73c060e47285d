// A game's result in words: a headline ("You win", "Black wins") and a sentence saying who won and why
// ("lin_yue wins: kenta resigned"). The server sends the winner's colour and a reason code; the loser is the
// other colour, named from the seats or the record, because "kenta · resignation" reads as if kenta had won.

import { t } from './i18n.js';

/** The game-over headline for a result as seen by `you` (null for spectators). */
export function resultHeadline(result, you) {
  if (!result) return '';
  if (result.reason === 'aborted') return t('over.aborted');
  if (!result.winner) return t('over.draw');
  if (you) return result.winner === you ? t('over.you_win') : t('over.you_lose');
  return result.winner === 'black' ? t('over.black_wins') : t('over.white_wins');
}

// Reasons a sentence names the loser for; any other decisive reason falls back to its code's words.
const DECISIVE = ['five', 'resign', 'timeout', 'forbidden_move', 'forbidden_claimed', 'abandoned', 'idle'];

/**
 * Who won and why, as a sentence: `names` are the players' names by colour as seated at the end ({black, white},
 * either may be missing, then the colour's word stands in). Empty for no result and for an aborted game, whose
 * headline already says all there is.
 */
export function resultSentence(result, names = {}) {
  if (!result || result.reason === 'aborted') return '';
  if (!result.winner) {
    if (result.reason === 'draw_agreed') return t('result.draw_agreed');
    if (result.reason === 'board_full') return t('result.board_full');
    if (result.reason === 'no_legal_point') return t('result.no_legal_point');
    return t('over.draw');
  }
  const loserColour = result.winner === 'black' ? 'white' : 'black';
  const winner = names[result.winner] || result.winner_name || t(`colour.${result.winner}`);
  const loser = names[loserColour] || t(`colour.${loserColour}`);
  const f = result.forbidden;
  const detail = f ? t('result.forbidden_detail', { kind: t(`kind.${f.kind}`), point: f.point }) : '';
  if (!DECISIVE.includes(result.reason)) return t('result.other', { winner, reason: t(`reason.${result.reason}`) });
  if ((result.reason === 'forbidden_move' || result.reason === 'forbidden_claimed') && !f) {
    return t(`result.${result.reason}_plain`, { winner, loser });
  }
  return t(`result.${result.reason}`, { winner, loser, detail });
}
