// Insect chess's board (shared/rules/insect-chess.md): 7 files a–g by 11 ranks 1–11, south (the seam's `black`,
// upper-case letters) at ranks 1–2, north (`white`, lower case) at ranks 10–11; the fixed terrain (the pond c5–e7,
// each side's food and the mud walling it); the view's 77-character board text (rank 11 first, files a to g);
// the squares on screen, turned half round for north's player; and the SVG drawing. Pure.

import { esc } from '../grid.js';

export const FILES = 'abcdefg';
export const RANKS = 11;
export const COLS = 7;

/** The start (rank 11 first): `ld3cs/2w1t2/7/7/7/7/7/7/7/2T1W2/SC3DL`. */
export const START_BOARD = 'ld...cs' + '..w.t..' + '.'.repeat(7 * 7) + '..T.W..' + 'SC...DL';

/** The kinds by letter, strongest first (the page's table). */
export const KINDS = { s: 'scorpion', c: 'centipede', l: 'wolf_spider', t: 'tiger_beetle', w: 'wasp', d: 'diving_beetle' };
/** The kinds in the page's order. */
export const KIND_ORDER = ['scorpion', 'centipede', 'wolf_spider', 'tiger_beetle', 'wasp', 'diving_beetle'];
/** The one-character glyph of each kind, as the issue names them (蝎 蜈 狼 虎 蜂 虱). */
export const GLYPH = { scorpion: '蝎', centipede: '蜈', wolf_spider: '狼', tiger_beetle: '虎', wasp: '蜂', diving_beetle: '虱' };
/** Each kind's letter (upper case). */
export const LETTER = { scorpion: 'S', centipede: 'C', wolf_spider: 'L', tiger_beetle: 'T', wasp: 'W', diving_beetle: 'D' };

/** The seam's colour of a side: south is `black` (moves first), north is `white`. */
export const SIDE = { black: 'south', white: 'north' };

/** Index 0..76 of a square "e2" in the board text (rank 11 first); -1 when malformed. */
export function indexOf(square) {
  const m = /^([a-g])(\d{1,2})$/.exec(String(square));
  if (!m) return -1;
  const rank = Number(m[2]);
  if (rank < 1 || rank > RANKS || String(rank) !== m[2]) return -1;
  return (RANKS - rank) * COLS + FILES.indexOf(m[1]);
}

/** The square at a board-text index. */
export function squareOf(i) {
  return `${FILES[i % COLS]}${RANKS - Math.floor(i / COLS)}`;
}

/** File (0..6) and rank (1..11) of a square, or null. */
export function coords(square) {
  const i = indexOf(square);
  return i < 0 ? null : { file: i % COLS, rank: RANKS - Math.floor(i / COLS) };
}

/**
 * Column and row on screen (from 0, top left) of a square: rank 11 at the top for south's view, or turned half
 * round (`flip`, north's player) so that rank 1 is at the top and file g on the left.
 */
export function screenCell(square, flip = false) {
  const c = coords(square);
  if (!c) return null;
  const col = c.file;
  const row = RANKS - c.rank;
  return flip ? { col: COLS - 1 - col, row: RANKS - 1 - row } : { col, row };
}

/** The square at a screen column and row, the board turned half round or not; null off the board. */
export function squareOnScreen(col, row, flip = false) {
  if (col < 0 || row < 0 || col >= COLS || row >= RANKS) return null;
  const c = flip ? COLS - 1 - col : col;
  const r = flip ? RANKS - 1 - row : row;
  return `${FILES[c]}${RANKS - r}`;
}

/** The fixed terrain: the pond, each side's food and mud (south's around d1, north's around d11). */
const POND = new Set(['c5', 'd5', 'e5', 'c6', 'd6', 'e6', 'c7', 'd7', 'e7']);
const FOOD = { d1: 'south', d11: 'north' };
const MUD = { c1: 'south', d2: 'south', e1: 'south', c11: 'north', d10: 'north', e11: 'north' };

/** What a square is: {kind: 'pond'|'food'|'mud'|'land', side?: 'south'|'north' (whose food or mud)}. */
export function terrain(square) {
  if (POND.has(square)) return { kind: 'pond' };
  if (FOOD[square]) return { kind: 'food', side: FOOD[square] };
  if (MUD[square]) return { kind: 'mud', side: MUD[square] };
  return { kind: 'land' };
}

/** The piece on a board-text character: {side, kind, letter} or null. */
export function pieceOf(ch) {
  if (!ch || ch === '.') return null;
  const kind = KINDS[ch.toLowerCase()];
  if (!kind) return null;
  return { side: ch === ch.toUpperCase() ? 'south' : 'north', kind, letter: ch.toUpperCase() };
}

/** The pieces of a board text: square → piece. */
export function pieces(board) {
  const out = new Map();
  for (let i = 0; i < COLS * RANKS; i++) {
    const p = pieceOf(board[i]);
    if (p) out.set(squareOf(i), p);
  }
  return out;
}

/** The kinds each side has lost so far (each starts with one of every kind): {south: [kind], north: [kind]}. */
export function lostKinds(board) {
  const left = { south: new Set(), north: new Set() };
  for (const p of pieces(board).values()) left[p.side].add(p.kind);
  return {
    south: KIND_ORDER.filter((k) => !left.south.has(k)),
    north: KIND_ORDER.filter((k) => !left.north.has(k)),
  };
}

/** A move's squares: "e2-e3" → ["e2", "e3"]; null when malformed. */
export function parseMove(text) {
  const m = /^([a-g]\d{1,2})-([a-g]\d{1,2})$/.exec(String(text));
  if (!m || indexOf(m[1]) < 0 || indexOf(m[2]) < 0) return null;
  return [m[1], m[2]];
}

/** The board after a move: the piece goes from `from` to `to`, taking whatever stood there. */
export function applyMove(board, from, to) {
  const a = indexOf(from);
  const b = indexOf(to);
  if (a < 0 || b < 0) return board;
  const cells = board.split('');
  cells[b] = cells[a];
  cells[a] = '.';
  return cells.join('');
}

/** Layout in SVG units: 7×11 squares of 48 with the coordinates in a margin all round. Not square. */
export function geometry() {
  const cell = 48;
  const m = 24;
  return { cols: COLS, rows: RANKS, cell, x0: m, y0: m, width: 2 * m + COLS * cell, height: 2 * m + RANKS * cell };
}

/**
 * The board as an SVG string. model: {board (77 chars), flipped?: north at the bottom, last?: "e2-e3",
 * selected?: square, targets?: squares the chosen piece may go to, movable?: squares of pieces that may move,
 * cursor?: {col,row} on screen, glyph?: 'letter'|'char' (the big sign on a piece), names?: kind → its name in the
 * page's language (for the hover titles), terrainNames?: {pond, food_south, …}, title?}
 */
export function renderInsect(model) {
  const g = geometry();
  const flip = Boolean(model.flipped);
  const board = typeof model.board === 'string' && model.board.length === COLS * RANKS ? model.board : START_BOARD;
  const names = model.names || {};
  const tn = model.terrainNames || {};
  const targets = new Set(model.targets || []);
  const movable = new Set(model.movable || []);
  const last = model.last ? parseMove(model.last) : null;
  const at = (sq) => {
    const c = screenCell(sq, flip);
    return { x: g.x0 + c.col * g.cell, y: g.y0 + c.row * g.cell, cx: g.x0 + (c.col + 0.5) * g.cell, cy: g.y0 + (c.row + 0.5) * g.cell };
  };
  const parts = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" class="board insect${flip ? ' flipped' : ''}" viewBox="0 0 ${g.width} ${g.height}" role="img" data-game="insect" aria-label="${esc(model.title || 'Insect chess')}">`);
  parts.push(`<rect class="frame" x="0" y="0" width="${g.width}" height="${g.height}" rx="10"/>`);
  // Coordinates: files along the bottom and top, ranks down both sides, as seen from the bottom player's side.
  parts.push('<g class="coords">');
  for (let col = 0; col < COLS; col++) {
    const f = FILES[flip ? COLS - 1 - col : col];
    const x = g.x0 + (col + 0.5) * g.cell;
    parts.push(`<text x="${x}" y="${g.y0 / 2 + 1}">${f}</text><text x="${x}" y="${g.height - g.y0 / 2 + 1}">${f}</text>`);
  }
  for (let row = 0; row < RANKS; row++) {
    const r = flip ? row + 1 : RANKS - row;
    const y = g.y0 + (row + 0.5) * g.cell;
    parts.push(`<text x="${g.x0 / 2}" y="${y}">${r}</text><text x="${g.width - g.x0 / 2}" y="${y}">${r}</text>`);
  }
  parts.push('</g><g class="squares">');
  for (let row = 0; row < RANKS; row++) {
    for (let col = 0; col < COLS; col++) {
      const sq = squareOnScreen(col, row, flip);
      const tr = terrain(sq);
      const x = g.x0 + col * g.cell;
      const y = g.y0 + row * g.cell;
      const cls = ['sq', tr.kind, tr.side || '', (col + row) % 2 ? 'odd' : 'even', last && last[0] === sq ? 'last-from' : '', last && last[1] === sq ? 'last-to' : ''].filter(Boolean).join(' ');
      const label = tr.kind === 'land' ? '' : tn[tr.side ? `${tr.kind}_${tr.side}` : tr.kind] || '';
      parts.push(`<g class="${cls}" data-square="${sq}"><rect x="${x}" y="${y}" width="${g.cell}" height="${g.cell}"/>`);
      if (label) parts.push(`<title>${esc(`${sq} · ${label}`)}</title>`);
      if (tr.kind === 'pond') {
        // Ripples: two short waves on each pond square.
        for (const dy of [16, 32]) parts.push(`<path class="wave" d="M${x + 9} ${y + dy}q${6} -5 ${12} 0t${12} 0t${6} -2"/>`);
      } else if (tr.kind === 'mud') {
        for (const [dx, dy, r] of [[12, 14, 2.6], [30, 10, 2], [36, 30, 3], [18, 34, 2.2], [26, 22, 1.6]]) parts.push(`<circle class="blob" cx="${x + dx}" cy="${y + dy}" r="${r}"/>`);
      } else if (tr.kind === 'food') {
        // The food store: a heap of grains in a bowl.
        const cx = x + g.cell / 2;
        const cy = y + g.cell / 2;
        parts.push(`<path class="bowl" d="M${cx - 15} ${cy + 1}h30a15 13 0 0 1 -30 0z"/>`);
        for (const [dx, dy] of [[-8, -3], [0, -6], [8, -3], [-4, -10], [4, -10]]) parts.push(`<ellipse class="grain" cx="${cx + dx}" cy="${cy + dy}" rx="3.6" ry="2.6"/>`);
      }
      parts.push('</g>');
    }
  }
  parts.push('</g>');
  // The wasp's flights over the pond chosen piece → landing square, dashed.
  if (model.selected) {
    const s = at(model.selected);
    for (const t of targets) {
      const c = coords(t);
      const o = coords(model.selected);
      if (c && o && Math.abs(c.file - o.file) + Math.abs(c.rank - o.rank) > 1) {
        const e = at(t);
        parts.push(`<line class="flight" x1="${s.cx}" y1="${s.cy}" x2="${e.cx}" y2="${e.cy}"/>`);
      }
    }
  }
  // The last move as a line under the pieces (a wasp's flight shows where it flew from).
  if (last) {
    const a = at(last[0]);
    const b = at(last[1]);
    parts.push(`<line class="lastline" x1="${a.cx}" y1="${a.cy}" x2="${b.cx}" y2="${b.cy}"/>`);
  }
  parts.push('<g class="pieces">');
  const glyph = model.glyph === 'char' ? 'char' : 'letter';
  for (const [sq, p] of pieces(board)) {
    const { cx, cy } = at(sq);
    const cls = ['piece', p.side, p.kind, sq === model.selected ? 'chosen' : '', movable.has(sq) ? 'movable' : '', targets.has(sq) ? 'prey' : ''].filter(Boolean).join(' ');
    const big = glyph === 'char' ? GLYPH[p.kind] : p.letter;
    const small = glyph === 'char' ? p.letter : GLYPH[p.kind];
    const name = names[p.kind] ? `${names[p.kind]} (${GLYPH[p.kind]} · ${p.letter}) · ${sq}` : `${p.kind} ${sq}`;
    parts.push(`<g class="${cls}" data-square="${sq}" data-kind="${p.kind}" data-side="${p.side}"><title>${esc(name)}</title>`);
    parts.push(`<circle class="shadow" cx="${cx}" cy="${cy + 1.8}" r="19"/><circle class="token" cx="${cx}" cy="${cy}" r="19"/>`);
    parts.push(`<text class="big ${glyph}" x="${cx}" y="${cy + 1}">${big}</text><text class="small" x="${cx + 13}" y="${cy + 13}">${small}</text></g>`);
  }
  parts.push('</g>');
  for (const t of targets) {
    const { cx, cy } = at(t);
    const taken = pieceOf(board[indexOf(t)]);
    parts.push(taken ? `<circle class="target capture" data-target="${t}" cx="${cx}" cy="${cy}" r="22"/>` : `<circle class="target" data-target="${t}" cx="${cx}" cy="${cy}" r="7.5"/>`);
  }
  if (model.cursor) {
    parts.push(`<rect class="cursor" x="${g.x0 + model.cursor.col * g.cell + 2}" y="${g.y0 + model.cursor.row * g.cell + 2}" width="${g.cell - 4}" height="${g.cell - 4}" rx="6"/>`);
  }
  parts.push('</svg>');
  return parts.join('');
}
