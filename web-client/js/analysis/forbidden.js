// Black's forbidden points under renju, for the analysis board (the server says them in rooms; an imported record
// played through locally has no server to ask). Written for clarity, not speed: a 15×15 board has 225 points and a
// position is judged once per move shown. Checked against the rules crate's conformance vectors
// (rules/tests/data/forbidden.jsonl) by e2e/unit/forbidden.test.js.
//
// The rule (RIF): a black stone that makes five wins, whatever else it makes. Otherwise it is forbidden when it
// makes an overline (six or more), two fours, or two threes. A four is a line one stone short of exactly five;
// a three a line one stone short of a straight four (four in a row with both ends making exactly five), where that
// stone is itself allowed for black — so deciding a three may need the judgement of another point, recursively.

const DIRS = [
  [1, 0],
  [0, 1],
  [1, 1],
  [1, -1],
];
const EMPTY = 0;
const BLACK = 1;
const WHITE = 2;

/** A board to judge: `size` and `cells` (row-major from the bottom row, 0 empty, 1 black, 2 white). */
export function makeBoard(size, black = [], white = [], parse) {
  const cells = new Uint8Array(size * size);
  for (const p of black) {
    const q = parse(p, size);
    if (q) cells[q.y * size + q.x] = BLACK;
  }
  for (const p of white) {
    const q = parse(p, size);
    if (q) cells[q.y * size + q.x] = WHITE;
  }
  return { size, cells };
}

function at(b, x, y) {
  if (x < 0 || y < 0 || x >= b.size || y >= b.size) return WHITE; // the edge blocks like a white stone
  return b.cells[y * b.size + x];
}

/** The length of the black run through (x, y) along (dx, dy), counting (x, y) itself as black. */
function run(b, x, y, dx, dy) {
  let n = 1;
  for (let k = 1; at(b, x + k * dx, y + k * dy) === BLACK; k++) n++;
  for (let k = 1; at(b, x - k * dx, y - k * dy) === BLACK; k++) n++;
  return n;
}

/** Whether a black stone at the empty (x, y) makes exactly five along (dx, dy). */
function makesFive(b, x, y, dx, dy) {
  return at(b, x, y) === EMPTY && run(b, x, y, dx, dy) === 5;
}

/**
 * The empty points along one line near black's stone at (x, y) (already placed) where another black stone makes
 * exactly five through (x, y).
 */
function fivePoints(b, x, y, dx, dy) {
  const out = [];
  for (let k = -4; k <= 4; k++) {
    if (k === 0) continue;
    const qx = x + k * dx;
    const qy = y + k * dy;
    if (at(b, qx, qy) !== EMPTY) continue;
    b.cells[qy * b.size + qx] = BLACK;
    // The five must hold (x, y): a five elsewhere on the line is not this stone's four.
    const five = run(b, x, y, dx, dy) === 5 && run(b, qx, qy, dx, dy) === 5;
    b.cells[qy * b.size + qx] = EMPTY;
    if (five) out.push(k);
  }
  return out;
}

/** How many fours black's stone at (x, y) (placed) makes along one line: 0, 1, or 2 (as in X.XXX.X). */
function foursOn(b, x, y, dx, dy) {
  const ks = fivePoints(b, x, y, dx, dy);
  if (ks.length < 2) return ks.length;
  // Two five points five apart close one straight four (.XXXX.): one four, not two.
  if (ks.length === 2 && Math.abs(ks[0] - ks[1]) === 5) return 1;
  return Math.min(2, ks.length);
}

/** Whether black's stones through (x, y) (placed) form a straight four along the line: .XXXX. making fives at both ends. */
function straightFour(b, x, y, dx, dy) {
  if (run(b, x, y, dx, dy) !== 4) return false;
  let lo = 0;
  while (at(b, x + (lo - 1) * dx, y + (lo - 1) * dy) === BLACK) lo--;
  const hi = lo + 3;
  return makesFive(b, x + (lo - 1) * dx, y + (lo - 1) * dy, dx, dy) && makesFive(b, x + (hi + 1) * dx, y + (hi + 1) * dy, dx, dy);
}

/**
 * Whether black's stone at (x, y) (placed) makes a three along the line: an empty point near it where black,
 * allowed to play there, would make a straight four through (x, y).
 */
function threeOn(b, x, y, dx, dy, depth) {
  for (let k = -4; k <= 4; k++) {
    if (k === 0) continue;
    const qx = x + k * dx;
    const qy = y + k * dy;
    if (at(b, qx, qy) !== EMPTY) continue;
    b.cells[qy * b.size + qx] = BLACK;
    const four = straightFour(b, x, y, dx, dy);
    b.cells[qy * b.size + qx] = EMPTY;
    if (four && judge(b, qx, qy, depth + 1) === 'free') return true;
  }
  return false;
}

/**
 * Judges a black stone on the empty point (x, y): `five`, `free`, or the forbidden kind (`overline`,
 * `double_four`, `double_three`). The board is left as it was.
 */
export function judge(b, x, y, depth = 0) {
  if (at(b, x, y) !== EMPTY) return 'occupied';
  b.cells[y * b.size + x] = BLACK;
  try {
    const runs = DIRS.map(([dx, dy]) => run(b, x, y, dx, dy));
    if (runs.some((n) => n === 5)) return 'five';
    if (runs.some((n) => n > 5)) return 'overline';
    const fours = DIRS.map(([dx, dy]) => foursOn(b, x, y, dx, dy));
    if (fours.reduce((a, n) => a + n, 0) >= 2) return 'double_four';
    // Deep chains of threes depending on threes do not occur on a real board; the cap only bounds the work.
    if (depth > 8) return 'free';
    let threes = 0;
    for (let d = 0; d < 4; d++) {
      if (fours[d]) continue;
      if (threeOn(b, x, y, DIRS[d][0], DIRS[d][1], depth)) threes++;
      if (threes >= 2) return 'double_three';
    }
    return 'free';
  } finally {
    b.cells[y * b.size + x] = EMPTY;
  }
}

/** A point worth judging: two black stones on one line near it, else it can make neither three nor four twice. */
function mayMatter(b, x, y) {
  let lines = 0;
  for (const [dx, dy] of DIRS) {
    let n = 0;
    for (let k = -5; k <= 5; k++) if (k && at(b, x + k * dx, y + k * dy) === BLACK) n++;
    if (n >= 4) return true;
    if (n >= 2) lines++;
  }
  return lines >= 2;
}

/** Every forbidden point for black on the board, as [{point, kind}] in board order; `format(x, y)` names a point. */
export function forbiddenPoints(b, format) {
  const out = [];
  for (let y = 0; y < b.size; y++) {
    for (let x = 0; x < b.size; x++) {
      if (b.cells[y * b.size + x] !== EMPTY || !mayMatter(b, x, y)) continue;
      const kind = judge(b, x, y);
      if (kind === 'overline' || kind === 'double_four' || kind === 'double_three') out.push({ point: format(x, y), kind });
    }
  }
  return out;
}
