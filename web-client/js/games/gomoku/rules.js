// Gomoku's and Renju's rules as the rules page (pages/rules.js) shows them, in every language the client speaks:
// what docs/rules.md says, shortened for a player. Blocks: ['h2' | 'p', text], ['ul', [text…]] (**bold** marks).

/** English. */
export const en = {
  title: 'Gomoku and Renju',
  blurb: 'Black and white stones take turns on the points of the board; the first to make five in a row wins.',
  blocks: [
    ['h2', 'The game'],
    ['p', 'Black moves first; the players take turns placing one stone of their colour on an empty point. Stones never move and are never taken. A player who makes an unbroken line of five of their stones across, down or diagonally wins at once. A full board without such a line is a draw. Points are named by column (a–o) and row (1–15 from the bottom): h8 is the centre.'],
    ['h2', 'Rule sets'],
    ['ul', [
      '**Freestyle**: five or more in a row wins. 15×15 or 19×19.',
      '**Standard**: exactly five wins, for both sides; six or more (an overline) does not win and the game goes on. 15×15 or 19×19.',
      '**Renju** (15×15): white wins with five or more; black only with exactly five, and black may not play a forbidden move.',
    ]],
    ['h2', 'Forbidden moves (Renju, black only)'],
    ['ul', [
      '**Overline**: a stone that makes six or more black stones in a row.',
      '**Double four**: a stone that makes two fours at once (a four is a line that one more stone turns into exactly five; both fours may lie on one line, as in X.X*X.X).',
      '**Double three**: a stone that makes two threes at once (a three is a line that one more stone turns into an open four, .XXXX., which makes five at either end). A three that can only become an open four through a forbidden point is not a three.',
      'Making exactly five always wins, even when the same stone also makes one of these shapes.',
    ]],
    ['p', 'The board marks black’s forbidden points while black is to move. Each Renju room says what a forbidden stone does: **refused** (black plays elsewhere), **loses** at once, or **claim**: the stone stays, and white may claim it as its very next action to win; once white plays a stone instead, that chance is gone.'],
    ['h2', 'Opening rules'],
    ['p', 'Black moves first, which is an advantage; an opening rule balances it by letting the players exchange colours (swap) after the first stones. Each room names its rule.'],
    ['ul', [
      '**None**: black’s first stone goes anywhere.',
      '**Swap after three** (三手交换): black 1 on the centre, white 2 touching it, black 3 anywhere; then the player holding white may swap colours.',
      '**Swap after three, fifth move with two options** (五手两打): as swap after three; then black proposes two points for move 5 (not symmetric to each other), white chooses which one stays and plays move 6.',
      '**Swap1**: the first player places three stones (black, white, black) anywhere; the other chooses a colour; white plays move 4.',
      '**Swap2**: as Swap1, but the second player may also place two more stones (white 4 and black 5) and leave the choice of colour to the first player.',
      '**Soosõrv-N** (Renju): the first player places one of the 26 canonical openings (black on the centre, white touching it, black within the central 5×5); the other may swap; white plays move 4 and declares how many fifth moves black will offer (1 to N); the other may swap; black offers that many, no two symmetric; white chooses one and plays move 6.',
      '**Taraguchi-N** (Renju): moves 1 to 4 go inside growing central squares (the centre, 3×3, 5×5, 7×7), with a swap offered after each; then black either plays move 5 within the central 9×9 (one more swap offered) or offers N fifth moves for white to choose from.',
    ]],
    ['h2', 'End of the game'],
    ['p', 'Five in a row (by the rule set) wins; a full board is a draw. A player may also resign, offer a draw, or lose on time when the room has a clock.'],
  ],
};

/** Chinese (simplified). */
export const zh = {
  title: '五子棋与连珠',
  blurb: '黑白双方轮流在棋盘交叉点上落子，先连成五子者胜。',
  blocks: [
    ['h2', '基本玩法'],
    ['p', '黑方先行，双方轮流在空的交叉点上放一枚己方棋子。棋子落下后不移动、不被吃。先在横、竖或斜方向连成不间断的五子者立即获胜；棋盘下满仍无人连五则为和棋。交叉点以列（a–o）和行（1–15，自下而上）命名，h8 为天元。'],
    ['h2', '规则'],
    ['ul', [
      '**无禁手**：五子或更多连珠即胜。15×15 或 19×19。',
      '**标准**：双方都只有恰好五子才算胜；六子以上（长连）不算胜，棋局继续。15×15 或 19×19。',
      '**连珠**（15×15）：白方五子或更多即胜；黑方只有恰好五子才胜，且不得下禁手。',
    ]],
    ['h2', '禁手（连珠，仅黑方）'],
    ['ul', [
      '**长连**：落子后形成六个或更多黑子相连。',
      '**四四**：一子同时形成两个“四”（再下一子即成恰好五子的棋形；两个四也可在同一条线上，如 X.X*X.X）。',
      '**三三**：一子同时形成两个“活三”（再下一子即成两端都能成五的活四 .XXXX.）。只能经由禁点才能成活四的三不算三。',
      '成恰好五子总是获胜，即使同一子也形成上述棋形。',
    ]],
    ['p', '轮到黑方时，棋盘会标出黑方的禁点。每个连珠房间注明禁手的处理：**拒绝**（黑方须另下）、**判负**（立即输棋），或**指出**：禁手留在盘上，白方可在紧接着的一步指出而获胜；白方若改为落子，则失去这次机会。'],
    ['h2', '开局规则'],
    ['p', '黑方先行占优；开局规则让双方在前几手之后可以交换执子颜色（交换）来求得平衡。每个房间都注明其开局规则。'],
    ['ul', [
      '**无**：黑方第一手可下在任意位置。',
      '**三手交换**：黑 1 下在天元，白 2 紧贴黑 1，黑 3 任意；随后执白者可选择交换。',
      '**五手两打**：同三手交换；之后黑方为第 5 手提出两个互不对称的点，白方选定其一保留，再下第 6 手。',
      '**Swap1**：先手方任意放三子（黑、白、黑），对方选择执黑或执白；白方下第 4 手。',
      '**Swap2**：同 Swap1，但后手方也可再放两子（白 4、黑 5），把选色权交回先手方。',
      '**索索夫-N**（连珠）：先手方摆出 26 种标准开局之一（黑 1 天元、白 2 紧贴、黑 3 在中央 5×5 内）；对方可交换；白方下第 4 手并声明黑方须提供几个第 5 手（1 至 N）；对方可交换；黑方提供该数目、互不对称的第 5 手，白方选定其一并下第 6 手。',
      '**塔拉古奇-N**（连珠）：第 1 至 4 手依次下在逐渐扩大的中央区域内（天元、3×3、5×5、7×7），每手之后都可交换；之后黑方或在中央 9×9 内下第 5 手（再给一次交换），或提供 N 个第 5 手由白方选择。',
    ]],
    ['h2', '终局'],
    ['p', '按规则连五者胜；棋盘下满为和棋。也可认输、提和，有计时的房间还会超时判负。'],
  ],
};

export default { en, zh };
