// International draughts' board: the 50 dark squares numbered 1–50 as the standard (and PDN) numbers them —
// square 1 at the top, second column from the left, counting left to right, row by row, Black's men on 1–20 at
// the top and White's on 31–50 below — the view's 50-character board text, and the SVG drawing. Pure.

import { esc } from '../grid.js';

/** The start: black men on 1–20, white men on 31–50. */
export const START_BOARD = 'b'.repeat(20) + '.'.repeat(10) + 'w'.repeat(20);

/** Column and row (from 0, top left) of square 1..50. */
export function cellOf(n) {
  const row = Math.floor((n - 1) / 5);
  const k = (n - 1) % 5;
  return { col: row % 2 === 0 ? 2 * k + 1 : 2 * k, row };
}

/** Column and row on screen of square 1..50: the board's own, or turned half round (`flip`) for Black's view. */
export function screenCell(n, flip = false) {
  const c = cellOf(n);
  return flip ? { col: 9 - c.col, row: 9 - c.row } : c;
}

/** The square at a screen column and row, the board turned half round or not. */
export function squareOnScreen(col, row, flip = false) {
  return flip ? squareAt(9 - col, 9 - row) : squareAt(col, row);
}

/** The square number at column and row (from 0, top left), or null on a light square or off the board. */
export function squareAt(col, row) {
  if (col < 0 || row < 0 || col > 9 || row > 9 || (col + row) % 2 === 0) return null;
  return row * 5 + Math.floor(col / 2) + 1;
}

/** Layout in SVG units: 10×10 squares of 46 and a thin frame. */
export function geometry() {
  const cell = 46;
  return { cols: 10, rows: 10, cell, x0: 12, y0: 12, extent: 24 + 10 * cell };
}

/** The pieces of a board text: square → {colour, king}. */
export function pieces(board) {
  const out = new Map();
  for (let i = 0; i < 50; i++) {
    const c = board[i];
    if (c && c !== '.') out.set(i + 1, { colour: c.toLowerCase() === 'w' ? 'white' : 'black', king: c === 'W' || c === 'B' });
  }
  return out;
}

/**
 * The board as an SVG string. model: {board (50 chars), movable?: squares whose piece may move, targets?: squares
 * the chosen path may go to next, ends?: squares the chosen piece can end on, routes?: capture moves to draw as
 * lines ({move, path, captured}; each line carries `data-move`, so a click on it picks it), path?: the squares
 * chosen so far, last?: the last move's path, cursor?: {col,row} on screen, flipped?: Black at the bottom (square
 * 50 top left), title?}
 */
export function renderDraughts(model) {
  const g = geometry();
  const flip = Boolean(model.flipped);
  const cellOf = (n) => screenCell(n, flip);
  const board = typeof model.board === 'string' && model.board.length === 50 ? model.board : START_BOARD;
  const movable = new Set(model.movable || []);
  const targets = new Set(model.targets || []);
  const path = new Set(model.path || []);
  const last = new Set(model.last || []);
  const parts = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" class="board draughts" viewBox="0 0 ${g.extent} ${g.extent}" role="img" data-game="draughts" aria-label="${esc(model.title || 'Draughts')}">`);
  parts.push(`<rect class="frame" x="0" y="0" width="${g.extent}" height="${g.extent}" rx="10"/>`);
  parts.push('<g class="squares">');
  for (let row = 0; row < 10; row++) {
    for (let col = 0; col < 10; col++) {
      const x = g.x0 + col * g.cell;
      const y = g.y0 + row * g.cell;
      // Screen column and row; the board's are turned half round when Black sits at the bottom.
      const n = flip ? squareAt(9 - col, 9 - row) : squareAt(col, row);
      if (n == null) {
        parts.push(`<rect class="light" x="${x}" y="${y}" width="${g.cell}" height="${g.cell}"/>`);
        continue;
      }
      const cls = ['dark', last.has(n) ? 'last' : '', movable.has(n) ? 'movable' : '', targets.has(n) ? 'target' : '', path.has(n) ? 'path' : ''].filter(Boolean).join(' ');
      parts.push(`<g class="sq" data-square="${n}"><rect class="${cls}" x="${x}" y="${y}" width="${g.cell}" height="${g.cell}"/><text class="num" x="${x + 2.5}" y="${y + 9.5}">${n}</text></g>`);
    }
  }
  parts.push('</g><g class="pieces">');
  for (const [n, p] of pieces(board)) {
    const { col, row } = cellOf(n);
    const cx = g.x0 + (col + 0.5) * g.cell;
    const cy = g.y0 + (row + 0.5) * g.cell;
    parts.push(`<g class="piece ${p.colour}${p.king ? ' king' : ''}${path.has(n) ? ' chosen' : ''}" data-square="${n}">`);
    parts.push(`<circle class="rim" cx="${cx}" cy="${cy + 1.8}" r="15.5"/><circle class="top" cx="${cx}" cy="${cy}" r="15.5"/><circle class="ring" cx="${cx}" cy="${cy}" r="10"/>`);
    if (p.king) parts.push(`<path class="crown" d="M${cx - 8} ${cy + 5}L${cx - 9} ${cy - 5}L${cx - 3.5} ${cy - 1}L${cx} ${cy - 7}L${cx + 3.5} ${cy - 1}L${cx + 9} ${cy - 5}L${cx + 8} ${cy + 5}Z"/>`);
    parts.push('</g>');
  }
  parts.push('</g>');
  const centre = (n) => {
    const { col, row } = cellOf(n);
    return [g.x0 + (col + 0.5) * g.cell, g.y0 + (row + 0.5) * g.cell];
  };
  const routes = model.routes || [];
  if (routes.length) {
    // The pieces a route takes are crossed; each route is a line through its squares, slightly offset from the
    // others so that routes sharing a stretch stay apart, with a wide invisible stroke that is easy to hit.
    const taken = new Set(routes.flatMap((r) => r.captured));
    parts.push('<g class="captures">');
    for (const n of taken) {
      const [cx, cy] = centre(n);
      parts.push(`<path class="taken" d="M${cx - 7} ${cy - 7}L${cx + 7} ${cy + 7}M${cx + 7} ${cy - 7}L${cx - 7} ${cy + 7}"/>`);
    }
    parts.push('</g><g class="routes">');
    routes.forEach((r, i) => {
      const shift = routes.length > 1 ? (i - (routes.length - 1) / 2) * 5 : 0;
      const pts = r.path.map((n) => centre(n).map((v) => v + shift).join(',')).join(' ');
      const [ex, ey] = centre(r.path[r.path.length - 1]);
      parts.push(`<g class="route route-${i % 4}" data-move="${esc(r.move)}" role="button" aria-label="${esc(r.move)}">`);
      parts.push(`<polyline class="hit" points="${pts}"/><polyline class="line" points="${pts}"/><circle class="end" cx="${ex + shift}" cy="${ey + shift}" r="9"/>`);
      parts.push(`<text class="route-label" x="${ex + shift}" y="${ey + shift - 13}">${esc(r.move)}</text></g>`);
    });
    parts.push('</g>');
  }
  for (const n of model.ends || []) {
    if (targets.has(n)) continue;
    const [cx, cy] = centre(n);
    parts.push(`<circle class="end-ring" cx="${cx}" cy="${cy}" r="12"/>`);
  }
  for (const n of targets) {
    const { col, row } = cellOf(n);
    parts.push(`<circle class="target-dot" cx="${g.x0 + (col + 0.5) * g.cell}" cy="${g.y0 + (row + 0.5) * g.cell}" r="7"/>`);
  }
  if (model.cursor) {
    parts.push(`<rect class="cursor" x="${g.x0 + model.cursor.col * g.cell + 2}" y="${g.y0 + model.cursor.row * g.cell + 2}" width="${g.cell - 4}" height="${g.cell - 4}" rx="5"/>`);
  }
  parts.push('</svg>');
  return parts.join('');
}
