// Othello's board: squares a1–h8 (column letter left to right, row digit top to bottom: a1 is the top-left
// corner, as rules/src/othello draws it), the view's 64-character board text, and the SVG drawing. Pure.

import { esc } from '../grid.js';

/** Column letters in board order. */
export const COLUMNS = 'abcdefgh';

/** The 64-character board of the start: white on d4 and e5, black on d5 and e4 (a1 first, row by row). */
export const START_BOARD = '.'.repeat(27) + 'wb' + '.'.repeat(6) + 'bw' + '.'.repeat(27);

/** Index 0..63 of a square "d3" (a1 = 0, h1 = 7, a2 = 8); -1 when malformed. */
export function indexOf(square) {
  const m = /^([a-h])([1-8])$/.exec(String(square));
  if (!m) return -1;
  return (Number(m[2]) - 1) * 8 + COLUMNS.indexOf(m[1]);
}

/** The square at column and row (both from 0, top left). */
export function squareAt(col, row) {
  return `${COLUMNS[col]}${row + 1}`;
}

/** Disc counts of a board text. */
export function counts(board) {
  let black = 0;
  let white = 0;
  for (const c of board) {
    if (c === 'b') black++;
    else if (c === 'w') white++;
  }
  return { black, white };
}

/** Layout in SVG units: 8×8 squares of 50, coordinates on the top and left, the disc counts below. */
export function geometry() {
  const cell = 50;
  return { cols: 8, rows: 8, cell, x0: 34, y0: 34, extent: 34 + 8 * cell + 34 };
}

/**
 * The board as an SVG string. model: {board (64 chars), legal?: squares to dot, last?: square or "pass",
 * black?, white? (disc counts; counted from the board when absent), flipped?: squares turned over by the last
 * move (drawn turning), cursor?: square, title?}
 */
export function renderOthello(model) {
  const g = geometry();
  const board = typeof model.board === 'string' && model.board.length === 64 ? model.board : START_BOARD;
  const n = counts(board);
  const black = model.black ?? n.black;
  const white = model.white ?? n.white;
  const legal = new Set(model.legal || []);
  const flipped = new Set(model.flipped || []);
  const parts = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" class="board othello" viewBox="0 0 ${g.extent} ${g.extent}" role="img" data-game="othello" aria-label="${esc(model.title || 'Othello')}">`);
  parts.push(`<rect class="felt" x="${g.x0}" y="${g.y0}" width="${8 * g.cell}" height="${8 * g.cell}"/>`);
  parts.push('<g class="grid">');
  for (let i = 0; i <= 8; i++) {
    const p = g.x0 + i * g.cell;
    parts.push(`<line x1="${g.x0}" y1="${p}" x2="${g.x0 + 8 * g.cell}" y2="${p}"/><line x1="${p}" y1="${g.y0}" x2="${p}" y2="${g.y0 + 8 * g.cell}"/>`);
  }
  for (const [c, r] of [[2, 2], [6, 2], [2, 6], [6, 6]]) parts.push(`<circle class="dot" cx="${g.x0 + c * g.cell}" cy="${g.y0 + r * g.cell}" r="4"/>`);
  parts.push('</g><g class="coords">');
  for (let i = 0; i < 8; i++) {
    const mid = g.x0 + (i + 0.5) * g.cell;
    parts.push(`<text x="${mid}" y="${g.y0 - 15}">${COLUMNS[i]}</text><text x="${g.x0 - 16}" y="${mid + 1}">${i + 1}</text>`);
  }
  parts.push('</g><g class="discs">');
  for (let i = 0; i < 64; i++) {
    const c = board[i];
    const sq = squareAt(i % 8, Math.floor(i / 8));
    const cx = g.x0 + ((i % 8) + 0.5) * g.cell;
    const cy = g.y0 + (Math.floor(i / 8) + 0.5) * g.cell;
    if (c === 'b' || c === 'w') {
      const colour = c === 'b' ? 'black' : 'white';
      const anim = flipped.has(sq) ? ' flip' : sq === model.last && flipped.size ? ' placed' : '';
      parts.push(`<g class="disc ${colour}${sq === model.last ? ' last' : ''}${anim}" data-square="${sq}"><circle cx="${cx}" cy="${cy}" r="20.5"/>`);
      if (sq === model.last) parts.push(`<circle class="lastmark" cx="${cx}" cy="${cy}" r="5"/>`);
      parts.push('</g>');
    } else if (legal.has(sq)) {
      parts.push(`<circle class="legal" data-square="${sq}" cx="${cx}" cy="${cy}" r="7"/>`);
    }
  }
  parts.push('</g>');
  if (model.cursor) {
    const i = indexOf(model.cursor);
    if (i >= 0) parts.push(`<rect class="cursor" x="${g.x0 + (i % 8) * g.cell + 2}" y="${g.y0 + Math.floor(i / 8) * g.cell + 2}" width="${g.cell - 4}" height="${g.cell - 4}" rx="6"/>`);
  }
  const cy = g.y0 + 8 * g.cell + 18;
  parts.push(`<g class="counts"><circle class="disc-icon black" cx="${g.x0 + 10}" cy="${cy}" r="9"/><text class="count" data-count="black" x="${g.x0 + 26}" y="${cy + 1}">${black}</text>`);
  parts.push(`<circle class="disc-icon white" cx="${g.x0 + 8 * g.cell - 10}" cy="${cy}" r="9"/><text class="count end" data-count="white" x="${g.x0 + 8 * g.cell - 26}" y="${cy + 1}">${white}</text></g>`);
  parts.push('</svg>');
  return parts.join('');
}

/**
 * The board after `colour` places on `square` (the discs it flanks flip), for replaying a record; the board
 * unchanged for a pass or a square that flips nothing.
 */
export function play(board, square, colour) {
  const i = indexOf(square);
  if (i < 0 || board[i] !== '.') return board;
  const me = colour === 'white' ? 'w' : 'b';
  const cells = board.split('');
  const col = i % 8;
  const row = Math.floor(i / 8);
  let flipped = 0;
  for (const [dc, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]]) {
    const run = [];
    let c = col + dc;
    let r = row + dr;
    while (c >= 0 && c < 8 && r >= 0 && r < 8 && cells[r * 8 + c] !== '.' && cells[r * 8 + c] !== me) {
      run.push(r * 8 + c);
      c += dc;
      r += dr;
    }
    if (run.length && c >= 0 && c < 8 && r >= 0 && r < 8 && cells[r * 8 + c] === me) {
      for (const k of run) cells[k] = me;
      flipped += run.length;
    }
  }
  if (!flipped) return board;
  cells[i] = me;
  return cells.join('');
}
