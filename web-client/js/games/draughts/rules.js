// International draughts' rules as the rules page (pages/rules.js) shows them, in every language the client speaks:
// what docs/rules-draughts.md says (the rules crate's draughts module), shortened for a player. Blocks:
// ['h2' | 'p', text], ['ul', [text…]] (**bold** marks).

/** English. */
export const en = {
  title: 'International draughts',
  blurb: 'Twenty men a side on a 10×10 board; capturing is compulsory, the longest capture must be taken, and kings fly.',
  blocks: [
    ['h2', 'The board'],
    ['p', 'A 10×10 board; play is on the 50 dark squares, numbered 1 to 50. Each side has 20 men: black on 1–20, white on 31–50. **White moves first**, then the players take turns.'],
    ['h2', 'Moves'],
    ['ul', [
      'A man moves one square diagonally forward to an empty square.',
      'A man captures by jumping over an adjacent enemy piece, forward or backward, to the empty square just beyond it, and goes on jumping while it can.',
      'A man that **ends** its move on the far row becomes a king. One that only passes the far row during a capture stays a man.',
      'A king moves any distance along a diagonal over empty squares, and captures an enemy piece at any distance on its diagonal, landing on any empty square beyond it.',
    ]],
    ['h2', 'Capturing'],
    ['ul', [
      '**Capturing is compulsory.**',
      '**Majority rule**: you must take the sequence that captures the most pieces (kings and men count the same); among equally long ones you choose.',
      'Captured pieces come off only when the whole sequence is done: until then they stay in the way, and none may be jumped twice.',
      'The board shows the routes of the captures you may make; tap the one you mean.',
    ]],
    ['h2', 'End of the game'],
    ['p', 'A player who has no pieces left, or no legal move on their turn, loses. The game is drawn:'],
    ['ul', [
      'when the same position, with the same player to move, occurs for the third time;',
      'after 25 moves by each player with kings only, without a capture;',
      'in the endgame: three pieces (at least one a king) against a lone king draw after 16 moves each; two pieces, or a king, against a lone king after 5 moves each;',
      'by agreement (a draw offer accepted).',
    ]],
    ['p', 'Moves are written with square numbers: 32-28 for a move, 28x19x10 for a capture with every square it lands on.'],
  ],
};

/** Chinese (simplified). */
export const zh = {
  title: '国际跳棋',
  blurb: '10×10 棋盘，每方 20 枚兵；有吃必吃，且须吃最多的子，王棋可远飞。',
  blocks: [
    ['h2', '棋盘'],
    ['p', '10×10 棋盘，只在 50 个深色格上走棋，编号 1 至 50。每方 20 枚兵：黑方在 1–20，白方在 31–50。**白方先行**，双方轮流走棋。'],
    ['h2', '走法'],
    ['ul', [
      '兵沿斜线向前走一格到空格。',
      '兵吃子时跳过斜向相邻的对方棋子，落到紧邻其后的空格，可向前也可向后，能连跳就继续跳。',
      '兵的一步**停在**对方底线时升为王。吃子途中经过底线却未停在那里的仍是兵。',
      '王可沿斜线走任意多个空格；吃子时可吃同一斜线上任意距离的对方棋子，落在其后任意空格。',
    ]],
    ['h2', '吃子'],
    ['ul', [
      '**有吃必吃。**',
      '**吃多原则**：必须选吃子最多的路线（王和兵同样计数）；数目相同时自选其一。',
      '整个连跳完成后被吃的子才拿掉：之前它们仍挡路，且同一枚子不能被跳两次。',
      '棋盘会画出可选的吃子路线，点选你要走的那条。',
    ]],
    ['h2', '终局'],
    ['p', '轮到走棋时已无棋子或无子可走的一方负。以下情况为和棋：'],
    ['ul', [
      '同一局面（且同一方走棋）第三次出现；',
      '双方只走王棋各 25 步而无吃子；',
      '残局限制：三子（至少一个王）对单王，各走 16 步后和棋；两子或一王对单王，各走 5 步后和棋；',
      '双方同意（提和被接受）。',
    ]],
    ['p', '着法以格子编号记录：32-28 为一步走子，28x19x10 为吃子，写出每个落点。'],
  ],
};

export default { en, zh };
