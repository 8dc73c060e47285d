// International draughts' own words in every language the client speaks (i18n.js's tables take them in:
// games/draughts/index.js registers them). The keys are those the rest of the client already asks for.

/** English. */
export const en = {
  'draughts.counter': 'Move {n}, {side} — of {total}',
  'draughts.counter_start': 'Start — {total} moves',
  'game.draughts': 'International draughts',
  'pool.draughts': 'Draughts',
  'draughts.board': 'Draughts board',
  'draughts.path': 'Your move so far: {path}. Tap the next square.',
  'draughts.ambiguous': 'More than one route ends there ({moves}): tap the squares along the one you mean.',
  'draughts.clear': 'Start again',
  'draughts.international': 'International (10×10)',
  'draughts.win_no_pieces': '{winner} wins: {loser} has no pieces left',
  'draughts.win_no_moves': '{winner} wins: {loser} cannot move',
  'draughts.draw_threefold': 'Drawn: the same position three times',
  'draughts.draw_twenty_five_moves': 'Drawn: 25 moves with kings alone, no capture and no man moved',
  'draughts.draw_endgame_limit': 'Drawn: the endgame move limit was reached',
  'pool.draughts/international': 'Draughts',
  'draughts.routes': '{n} capture routes: tap the one you mean (its line, its button, or its squares in order).',
  'draughts.pieces': '{men} men, {kings} kings',
  'record.format_draughts': 'PDN',
  'draughts.source': 'international draughts (FMJD)',
};

/** Chinese (simplified). */
export const zh = {
  'draughts.counter': '第 {n} 回合 {side}（共 {total} 回合）',
  'draughts.counter_start': '开局（共 {total} 回合）',
  'game.draughts': '国际跳棋',
  'pool.draughts': '国际跳棋',
  'draughts.board': '国际跳棋棋盘',
  'draughts.path': '已选的路线：{path}。请点下一格。',
  'draughts.ambiguous': '有不止一条路线到那里（{moves}）：请沿你要走的路线逐格点选。',
  'draughts.clear': '重新选择',
  'draughts.international': '国际（10×10）',
  'draughts.win_no_pieces': '{loser} 已无棋子，{winner} 获胜',
  'draughts.win_no_moves': '{loser} 无子可走，{winner} 获胜',
  'draughts.draw_threefold': '和棋：同一局面出现三次',
  'draughts.draw_twenty_five_moves': '和棋：双方只走王棋 25 回合，无吃子也无兵移动',
  'draughts.draw_endgame_limit': '和棋：达到残局步数限制',
  'pool.draughts/international': '国际跳棋',
  'draughts.routes': '有 {n} 条吃子路线：点选你要走的那条（点线、点按钮，或依次点它经过的格子）。',
  'draughts.pieces': '{men} 兵，{kings} 王',
  'record.format_draughts': 'PDN',
  'draughts.source': '国际跳棋（FMJD）',
};

export default { en, zh };
