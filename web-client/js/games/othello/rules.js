// Othello's rules as the rules page (pages/rules.js) shows them, in every language the client speaks: what
// docs/rules-othello.md says, shortened for a player. Blocks: ['h2' | 'p', text], ['ul', [text…]] (**bold** marks).

/** English. */
export const en = {
  title: 'Othello',
  blurb: 'Place a disc to enclose your opponent’s discs in a line and turn them to your colour; most discs at the end wins.',
  blocks: [
    ['h2', 'The board'],
    ['p', 'An 8×8 board. The game starts with four discs in the centre: white on d4 and e5, black on e4 and d5. Columns are a–h from the left, rows 1–8 from the top. **Black moves first**, then the players take turns.'],
    ['h2', 'Moves'],
    ['ul', [
      'A move puts a disc of your colour on an empty square so that, in at least one of the eight directions (across, down or diagonally), an unbroken line of your opponent’s discs runs from it to one of your discs.',
      'Every such line, in every direction at once, is flipped to your colour. A move that would flip nothing is not allowed.',
      'A player with no legal move **passes** (the room does it at once and says so) and the other plays again; a player who has a move may not pass.',
    ]],
    ['h2', 'End of the game'],
    ['p', 'The game ends when neither player can move: the board is full, one colour has no disc left, or no empty square is a legal move for either. The player with more discs wins; equal counts are a draw. A player may also resign, offer a draw, or lose on time when the room has a clock.'],
    ['ul', [
      '**Japanese scoring**: empty squares left at the end count for the winner.',
      '**European scoring**: empty squares are shared evenly; an odd one goes to the winner.',
      'The winner is the same either way; only the score shown differs.',
    ]],
  ],
};

/** Chinese (simplified). */
export const zh = {
  title: '黑白棋',
  blurb: '落子夹住对方一行棋子，把它们翻成己方颜色；终局时棋子多者胜。',
  blocks: [
    ['h2', '棋盘'],
    ['p', '8×8 棋盘。开局时中央有四枚棋子：白子在 d4、e5，黑子在 e4、d5。列自左向右为 a–h，行自上而下为 1–8。**黑方先行**，双方轮流走棋。'],
    ['h2', '走法'],
    ['ul', [
      '在空格放一枚己方棋子，且至少在一个方向（横、竖或斜，共八个方向）上，从该子到另一枚己方棋子之间是连续不断的对方棋子。',
      '所有方向上被夹住的对方棋子同时翻成己方颜色。不能翻转任何棋子的落子不合法。',
      '无处可下的一方**跳过**（房间会自动跳过并提示），由对方继续走；有棋可下时不能跳过。',
    ]],
    ['h2', '终局'],
    ['p', '双方都无棋可下时终局：棋盘已满、一方棋子被吃光，或剩下的空格双方都下不了。棋子多者胜，相等为和棋。也可认输、提和，有计时的房间还会超时判负。'],
    ['ul', [
      '**日式计分**：终局时剩余的空格都计给胜方。',
      '**欧式计分**：空格双方平分，单数的一格计给胜方。',
      '两种计分胜负相同，只是显示的比分不同。',
    ]],
  ],
};

export default { en, zh };
