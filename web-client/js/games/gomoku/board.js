// Board geometry, notation and SVG drawing. Everything here is pure (strings in, strings out) so that
// Node's test runner can check it without a browser; the DOM wiring lives in view.js.

/** Column letters in board order; the server never skips a letter (no "i" gap as in Go). */
export const COLUMNS = 'abcdefghijklmnopqrst';

/** The largest board side (rules::MAX_SIZE): 20x20, Gomocup's freestyle and standard board. */
export const MAX_SIZE = 20;

/** Reads "h8" into zero-based {x, y} with y counted from the bottom row; null when malformed or off the board. */
export function parsePoint(text, size = MAX_SIZE) {
  if (typeof text !== 'string') return null;
  const m = /^([a-t])([1-9][0-9]?)$/.exec(text.trim().toLowerCase());
  if (!m) return null;
  const x = COLUMNS.indexOf(m[1]);
  const y = Number(m[2]) - 1;
  if (x >= size || y >= size) return null;
  return { x, y };
}

/** Writes zero-based coordinates back as "h8". */
export function formatPoint(x, y) {
  return `${COLUMNS[x]}${y + 1}`;
}

/** The traditional star points (hoshi): centre plus the four or eight points three/four lines from the edges. */
export function starPoints(size) {
  if (size === 19) {
    const l = [3, 9, 15];
    return l.flatMap((x) => l.map((y) => ({ x, y })));
  }
  if (size === 20) {
    // No middle point on an even side: the four points on the fourth lines from the edges.
    const l = [3, 16];
    return l.flatMap((x) => l.map((y) => ({ x, y })));
  }
  if (size === 15) {
    return [
      { x: 7, y: 7 },
      { x: 3, y: 3 },
      { x: 11, y: 3 },
      { x: 3, y: 11 },
      { x: 11, y: 11 },
    ];
  }
  const c = Math.floor(size / 2);
  return [{ x: c, y: c }];
}

/** Layout of a board in SVG user units: one cell is 40 units, with a margin wide enough for the coordinates. */
export function geometry(size, { coords = true } = {}) {
  const cell = 40;
  const margin = coords ? 46 : 26;
  const span = cell * (size - 1);
  return { size, cell, margin, span, extent: span + 2 * margin };
}

/** SVG position of an intersection; rows count from the bottom as in the notation, SVG y grows downwards. */
export function toSvg(g, x, y) {
  return { cx: g.margin + x * g.cell, cy: g.margin + (g.size - 1 - y) * g.cell };
}

/**
 * The intersection nearest to an SVG position, or null when the position is off the grid or too far from any
 * intersection (a tap between points should not guess).
 */
export function fromSvg(g, sx, sy, tolerance = 0.5) {
  const fx = (sx - g.margin) / g.cell;
  const fy = g.size - 1 - (sy - g.margin) / g.cell;
  const x = Math.round(fx);
  const y = Math.round(fy);
  if (x < 0 || y < 0 || x >= g.size || y >= g.size) return null;
  if (Math.abs(fx - x) > tolerance || Math.abs(fy - y) > tolerance) return null;
  return { x, y };
}

/** Colour of the stone at ply index i (0-based) when stones alternate from black. */
export function colorOfPly(i) {
  return i % 2 === 0 ? 'black' : 'white';
}

/**
 * Position after the first `upto` stones of a move list: a Map from "h8" to {color, number}. The list is
 * either point strings (alternating from black) or objects {point, color}.
 */
export function position(moves, upto = moves.length) {
  const map = new Map();
  for (let i = 0; i < Math.min(upto, moves.length); i++) {
    const m = moves[i];
    const point = typeof m === 'string' ? m : m.point;
    const color = typeof m === 'string' ? colorOfPly(i) : m.color || colorOfPly(i);
    map.set(point, { color, number: i + 1 });
  }
  return map;
}

/** The points of a winning line given as a list or as {start, direction, len}; direction is dx,dy text or array. */
export function linePoints(line, size = MAX_SIZE) {
  if (!line) return [];
  if (Array.isArray(line)) return line.filter((p) => parsePoint(p, size));
  const start = parsePoint(line.start, size);
  if (!start) return [];
  const dirs = {
    horizontal: [1, 0],
    east: [1, 0],
    vertical: [0, 1],
    north: [0, 1],
    diagonal: [1, 1],
    north_east: [1, 1],
    anti_diagonal: [1, -1],
    south_east: [1, -1],
  };
  const d = Array.isArray(line.direction) ? line.direction : dirs[line.direction];
  if (!d) return [];
  const out = [];
  for (let k = 0; k < (line.len || 5); k++) {
    const x = start.x + d[0] * k;
    const y = start.y + d[1] * k;
    if (x < 0 || y < 0 || x >= size || y >= size) break;
    out.push(formatPoint(x, y));
  }
  return out;
}

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/**
 * The whole board as an SVG string.
 *
 * model: {size, moves, upto?, numbers?, coords?, winLine?: string[], forbidden?: [{point, kind, label}],
 *         options?: (string | {point, label?, color?})[] (fifth-move proposals and offers, picked stones), pending?: {point, color} (a tap waiting for confirmation),
 *         hover?: {point, color}, title?}
 */
export function renderBoard(model) {
  const size = model.size || 15;
  const g = geometry(size, { coords: model.coords !== false });
  const upto = model.upto ?? model.moves.length;
  const pos = position(model.moves, upto);
  const last = upto > 0 ? model.moves[upto - 1] : null;
  const lastPoint = last ? (typeof last === 'string' ? last : last.point) : null;
  const win = new Set(model.winLine || []);
  const parts = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 ${g.extent} ${g.extent}" role="img"` +
      ` data-size="${size}" aria-label="${esc(model.title || 'board')}">`,
  );
  parts.push(
    `<defs><radialGradient id="sb" cx="35%" cy="30%" r="70%"><stop offset="0" stop-color="#6b6b6b"/>` +
      `<stop offset="0.45" stop-color="#1c1c1c"/><stop offset="1" stop-color="#000"/></radialGradient>` +
      `<radialGradient id="sw" cx="35%" cy="30%" r="75%"><stop offset="0" stop-color="#fff"/>` +
      `<stop offset="0.7" stop-color="#ecebe6"/><stop offset="1" stop-color="#c9c6bc"/></radialGradient></defs>`,
  );
  parts.push(`<rect class="wood" x="0" y="0" width="${g.extent}" height="${g.extent}" rx="10"/>`);
  const a = g.margin;
  const b = g.margin + g.span;
  parts.push('<g class="grid">');
  for (let i = 0; i < size; i++) {
    const p = g.margin + i * g.cell;
    parts.push(`<line x1="${a}" y1="${p}" x2="${b}" y2="${p}"/><line x1="${p}" y1="${a}" x2="${p}" y2="${b}"/>`);
  }
  parts.push(`<rect class="edge" x="${a}" y="${a}" width="${g.span}" height="${g.span}" fill="none"/>`);
  parts.push('</g><g class="stars">');
  for (const s of starPoints(size)) {
    const { cx, cy } = toSvg(g, s.x, s.y);
    parts.push(`<circle cx="${cx}" cy="${cy}" r="4.5"/>`);
  }
  parts.push('</g>');
  if (model.coords !== false) {
    parts.push('<g class="coords">');
    for (let i = 0; i < size; i++) {
      const { cx } = toSvg(g, i, 0);
      const { cy } = toSvg(g, 0, i);
      parts.push(`<text x="${cx}" y="${a - 24}">${COLUMNS[i]}</text><text x="${cx}" y="${b + 30}">${COLUMNS[i]}</text>`);
      parts.push(`<text x="${a - 28}" y="${cy + 1}">${i + 1}</text><text x="${b + 28}" y="${cy + 1}">${i + 1}</text>`);
    }
    parts.push('</g>');
  }
  parts.push('<g class="marks">');
  for (const f of model.forbidden || []) {
    const p = parsePoint(f.point, size);
    if (!p || pos.has(f.point)) continue;
    const { cx, cy } = toSvg(g, p.x, p.y);
    parts.push(
      `<g class="forbidden" data-point="${esc(f.point)}" data-kind="${esc(f.kind)}"><title>${esc(f.label || f.kind)}</title>` +
        `<rect x="${cx - 20}" y="${cy - 20}" width="40" height="40" fill="transparent"/>` +
        `<path d="M${cx - 8} ${cy - 8}L${cx + 8} ${cy + 8}M${cx + 8} ${cy - 8}L${cx - 8} ${cy + 8}"/></g>`,
    );
  }
  parts.push('</g><g class="stones">');
  for (const [point, s] of pos) {
    const p = parsePoint(point, size);
    if (!p) continue;
    const { cx, cy } = toSvg(g, p.x, p.y);
    const cls = `stone ${s.color}${win.has(point) ? ' win' : ''}${point === lastPoint ? ' last' : ''}`;
    parts.push(
      `<g class="${cls}" data-point="${point}"><circle class="shadow" cx="${cx + 1.5}" cy="${cy + 2.5}" r="18.5"/>` +
        `<circle class="body" cx="${cx}" cy="${cy}" r="18.5" fill="url(#${s.color === 'black' ? 'sb' : 'sw'})"/>`,
    );
    if (model.numbers) {
      parts.push(`<text class="num" x="${cx}" y="${cy + 1}">${s.number}</text>`);
    } else if (point === lastPoint) {
      parts.push(`<circle class="lastmark" cx="${cx}" cy="${cy}" r="5.5"/>`);
    }
    parts.push('</g>');
  }
  parts.push('</g>');
  if (win.size) {
    const pts = [...win].map((q) => parsePoint(q, size)).filter(Boolean);
    pts.sort((p, q) => p.x - q.x || p.y - q.y);
    const s = toSvg(g, pts[0].x, pts[0].y);
    const e = toSvg(g, pts[pts.length - 1].x, pts[pts.length - 1].y);
    parts.push(`<line class="winline" x1="${s.cx}" y1="${s.cy}" x2="${e.cx}" y2="${e.cy}"/>`);
  }
  parts.push('<g class="overlay">');
  for (const item of model.options || []) {
    // A bare point is a marked candidate; {point, label?, color?} a numbered one, or a picked stone of a colour.
    const o = typeof item === 'string' ? { point: item } : item;
    const p = parsePoint(o.point, size);
    if (!p || pos.has(o.point)) continue;
    const { cx, cy } = toSvg(g, p.x, p.y);
    const colour = o.color === 'black' || o.color === 'white' ? ` ${o.color}` : o.label != null ? ' numbered' : '';
    const mark = o.label != null
      ? `<text class="optlabel" x="${cx}" y="${cy + 1}">${esc(o.label)}</text>`
      : `<circle class="dot" cx="${cx}" cy="${cy}" r="6"/>`;
    parts.push(`<g class="option${colour}" data-point="${o.point}"><circle cx="${cx}" cy="${cy}" r="18.5"/>${mark}</g>`);
  }
  for (const ghost of [model.hover, model.pending]) {
    if (!ghost) continue;
    const p = parsePoint(ghost.point, size);
    if (!p || pos.has(ghost.point)) continue;
    const { cx, cy } = toSvg(g, p.x, p.y);
    const kind = ghost === model.pending ? 'pending' : 'ghost';
    parts.push(
      `<circle class="${kind} ${ghost.color}" data-point="${ghost.point}" cx="${cx}" cy="${cy}" r="18.5"/>`,
    );
  }
  parts.push('</g></svg>');
  return parts.join('');
}
