// Insect chess's rules as the rules page (pages/rules.js) shows them, in every language the client speaks:
// shared/rules/insect-chess.md (docs/rules-insect.md) shortened for a player, with the start board and the strength
// cycle drawn (the member's rulesFigure: 'board', 'cycle'). Blocks: ['h2' | 'p', text], ['ul', [text…]],
// ['table', head, rows], ['figure', name, caption] (**bold** marks).

/** English. */
export const en = {
  title: 'Insect chess (昆虫棋)',
  blurb: 'Six insects a side on a board with a pond, mud and food: step by step, the stronger insect takes the weaker, and the first to reach the enemy’s food wins.',
  blocks: [
    ['h2', 'The board'],
    ['figure', 'board', 'The start: South (red) at the bottom, North (blue) at the top.'],
    ['ul', [
      '7 files (a–g) by 11 ranks (1–11). **South** starts on ranks 1–2 and **moves first**; **North** starts on ranks 10–11, set up as South’s turned half round.',
      '**Pond** (池塘): the 3×3 squares c5–e7 in the middle.',
      '**Food** (食物储藏区): d1 is South’s, d11 North’s.',
      '**Mud** (泥潭): c1, d2 and e1 are South’s; c11, d10 and e11 North’s. Each side’s food is walled by its own mud on three sides.',
    ]],
    ['h2', 'The insects'],
    ['table', ['', '中文', 'Insect', 'Letter'], [
      ['蝎', '蝎子', 'scorpion', 'S'],
      ['蜈', '蜈蚣', 'centipede', 'C'],
      ['狼', '狼蛛', 'wolf spider', 'L'],
      ['虎', '虎甲', 'tiger beetle', 'T'],
      ['蜂', '黄蜂', 'wasp', 'W'],
      ['虱', '龙虱', 'diving beetle', 'D'],
    ]],
    ['h2', 'Who takes whom'],
    ['figure', 'cycle', 'The strength cycle: each insect takes those after it along the arrows, up to the diving beetle; the diving beetle takes only the scorpion.'],
    ['ul', [
      'Strongest first: scorpion, centipede, wolf spider, tiger beetle, wasp, diving beetle. Each takes the weaker ones and its own kind.',
      '**The diving beetle takes the scorpion**, and the scorpion cannot take the diving beetle: the order is a circle.',
      'Taking is never compulsory.',
    ]],
    ['h2', 'Moving'],
    ['ul', [
      'A move is one step forward, back, left or right (never diagonally) onto an empty square or onto an enemy piece it may take. There is no passing.',
      '**The pond**: only the **diving beetle** may enter it, one step at a time. Nothing is ever taken in the pond, and a diving beetle in the pond or leaving it takes nothing.',
      '**The wasp’s flight**: from a square next to the pond, a wasp moving toward it flies straight over the whole pond to the first square beyond (c4↔c8, d4↔d8, e4↔e8, b5↔f5, b6↔f6, b7↔f7), landing there or taking what stands there. A diving beetle in the pond does not stop it.',
      '**Your own food**: no piece may ever stand on it.',
      '**Your own mud**: you may not enter it, except to take an enemy piece standing there.',
      '**The enemy’s mud**: any piece may enter it, but there it has **no strength**: any enemy piece that can step onto it takes it, and it takes nothing. It may still step onto the enemy’s food, and it is strong again once it leaves.',
    ]],
    ['h2', 'End of the game'],
    ['ul', [
      '**A piece that steps onto the enemy’s food wins at once.**',
      'A side whose last piece is taken, or that has no legal move on its turn, loses.',
      'Drawn: the same position (same side to move) for the third time, or 100 moves in a row (both sides counted) without a capture.',
      'A player may also resign, offer a draw, or lose on time when the room has a clock.',
    ]],
    ['p', 'Squares are a file letter and a rank number (a1 … g11); a move is written from-to, such as e2-e3, or e4-e8 for a flight.'],
  ],
};

/** Chinese (simplified). */
export const zh = {
  title: '昆虫棋',
  blurb: '每方六只昆虫，棋盘上有池塘、泥潭和食物：一步一格，强者吃弱者，先攻入对方食物储藏区者胜。',
  blocks: [
    ['h2', '棋盘'],
    ['figure', 'board', '开局：南方（红）在下，北方（蓝）在上。'],
    ['ul', [
      '横 7 列（a–g），纵 11 行（1–11）。**南方**在 1–2 行，**先走**；**北方**在 10–11 行，布阵与南方旋转半周相同。',
      '**池塘**：中央 3×3 的 c5–e7。',
      '**食物储藏区**：d1 属南方，d11 属北方。',
      '**泥潭**：c1、d2、e1 属南方；c11、d10、e11 属北方。各方的食物三面被自己的泥潭围住。',
    ]],
    ['h2', '棋子'],
    ['table', ['', '名称', 'English', '字母'], [
      ['蝎', '蝎子', 'scorpion', 'S'],
      ['蜈', '蜈蚣', 'centipede', 'C'],
      ['狼', '狼蛛', 'wolf spider', 'L'],
      ['虎', '虎甲', 'tiger beetle', 'T'],
      ['蜂', '黄蜂', 'wasp', 'W'],
      ['虱', '龙虱', 'diving beetle', 'D'],
    ]],
    ['h2', '谁吃谁'],
    ['figure', 'cycle', '强弱循环：每种昆虫可吃箭头方向在它之后、直到龙虱的各种昆虫；龙虱只吃蝎子。'],
    ['ul', [
      '由强到弱：蝎子、蜈蚣、狼蛛、虎甲、黄蜂、龙虱。强者吃弱者，同类可互吃。',
      '**龙虱能吃蝎子**，蝎子却吃不了龙虱：强弱首尾相接成一个圈。',
      '吃子不是强制的。',
    ]],
    ['h2', '走法'],
    ['ul', [
      '每步前、后、左、右走一格（不能斜走），走到空格或走到可吃的对方棋子上。不能停着不走。',
      '**池塘**：只有**龙虱**能下水，每次一格。池塘里从不吃子，龙虱在池塘中或刚出池塘时也不能吃子。',
      '**黄蜂飞越**：黄蜂在紧邻池塘的格子上向池塘方向走时，沿直线飞越整个池塘，落在对岸第一格（c4↔c8、d4↔d8、e4↔e8、b5↔f5、b6↔f6、b7↔f7），可落在空格或吃掉那里的棋子。池塘里的龙虱挡不住它。',
      '**自己的食物储藏区**：任何棋子都不能进入。',
      '**自己的泥潭**：不能进入，除非是去吃停在那里的对方棋子。',
      '**对方的泥潭**：任何棋子都能进入，但在那里**失去战斗力**：对方任何能走到该格的棋子都能吃它，它也不能吃子。它仍可走进对方的食物储藏区，离开泥潭后恢复战斗力。',
    ]],
    ['h2', '终局'],
    ['ul', [
      '**走进对方食物储藏区的一方立即获胜。**',
      '棋子被吃光，或轮到走棋时无子可走的一方负。',
      '和棋：同一局面（同一方走棋）第三次出现，或双方连续 100 步无吃子。',
      '也可认输、提和，有计时的房间还会超时判负。',
    ]],
    ['p', '格子以列字母加行号表示（a1 … g11）；着法写作“起点-终点”，如 e2-e3，飞越写作 e4-e8。'],
  ],
};

export default { en, zh };
