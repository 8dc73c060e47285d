// Othello's own words in every language the client speaks (i18n.js's tables take them in: games/othello/index.js
// registers them). The keys are those the rest of the client already asks for (game.othello, pool.othello/standard…).

/** English. */
export const en = {
  'game.othello': 'Othello',
  'pool.othello': 'Othello',
  'othello.board': 'Othello board',
  'othello.no_move': 'You have no move: pass to your opponent.',
  'othello.pass': 'Pass',
  'othello.scoring_japanese': 'Japanese scoring',
  'othello.scoring_european': 'European scoring',
  'othello.result_win': '{winner} wins {won}–{lost} ({reason})',
  'othello.result_draw': 'Drawn {black}–{white}',
  'othello.reason_board_full': 'the board is full',
  'othello.reason_wipe_out': 'no discs left',
  'othello.reason_no_moves': 'neither side can move',
  'pool.othello/standard': 'Othello',
  'othello.passed': '{passer} has no move and passes: {next} plays again.',
  'othello.pass_entry': 'pass',
  'othello.discs': '{n} discs',
  'othello.transcript': 'Othello notation',
  'record.format_othello': 'move list',
  'othello.source': 'Othello',
};

/** Chinese (simplified). */
export const zh = {
  'game.othello': '黑白棋',
  'pool.othello': '黑白棋',
  'othello.board': '黑白棋棋盘',
  'othello.no_move': '你无处可下：请停一手。',
  'othello.pass': '停一手',
  'othello.scoring_japanese': '日式计分',
  'othello.scoring_european': '欧式计分',
  'othello.result_win': '{winner} 以 {won}–{lost} 获胜（{reason}）',
  'othello.result_draw': '和棋 {black}–{white}',
  'othello.reason_board_full': '棋盘已满',
  'othello.reason_wipe_out': '一方棋子全被吃光',
  'othello.reason_no_moves': '双方都无处可下',
  'pool.othello/standard': '黑白棋',
  'othello.passed': '{passer} 无处可下，停一手：{next} 继续走。',
  'othello.pass_entry': '停',
  'othello.discs': '{n} 子',
  'othello.transcript': '黑白棋记谱',
  'record.format_othello': '着法列表',
  'othello.source': '黑白棋',
};

export default { en, zh };
