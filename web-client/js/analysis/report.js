// A game's computer analysis (issue #33) as the record page shows it: the evaluation graph (pure geometry:
// analysis -> SVG string, so the unit tests check it), the marks of inaccuracies, mistakes and blunders, and
// which analysed position a record's move shows.

/** The judgments, mildest first, with the symbol lichess players know. */
export const SYMBOLS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/**
 * The analysed position shown at a record's `ply`. A record that lists every action (Othello's passes,
 * draughts, insect chess) counts positions by action; Gomoku's record counts stones, which the analysis gives
 * as each position's `ply` (the last position of that move number: after a swap decision, say).
 */
export function positionAt(analysis, ply, recordMoves) {
  const positions = analysis?.positions || [];
  if (!positions.length) return -1;
  if (recordMoves === analysis.moves.length) return Math.max(0, Math.min(positions.length - 1, ply));
  let at = 0;
  for (let i = 0; i < positions.length; i++) if (positions[i].ply <= ply) at = i;
  return at;
}

/** The record's ply that shows analysed position `i` (the inverse of positionAt). */
export function plyOf(analysis, i, recordMoves) {
  if (recordMoves === analysis.moves.length) return i;
  return analysis.positions[i]?.ply ?? 0;
}

/** The judged moves: [{index, move, mover, judgment, reason, loss, best}] in game order. */
export function markedMoves(analysis) {
  return (analysis?.moves || [])
    .map((m, index) => ({ index, ...m }))
    .filter((m) => m.judgment);
}

/** How many of each judgment each side made: {black: {inaccuracy, mistake, blunder}, white: {…}}. */
export function tally(analysis) {
  const out = {};
  for (const m of markedMoves(analysis)) {
    const side = (out[m.mover || '?'] ||= { inaccuracy: 0, mistake: 0, blunder: 0 });
    side[m.judgment] += 1;
  }
  return out;
}

/**
 * The evaluation graph: the first colour's advantage (-1…1) after each move as a line over the moves, the area
 * above or below the middle filled, each judged move a dot of its judgment's class (drawn after the move, where
 * its effect shows), and the position shown (`current`) a vertical marker.
 */
export function evaluationGraph(analysis, { width = 600, height = 140, current = -1, label = '' } = {}) {
  const pos = analysis?.positions || [];
  const pad = 6;
  const w = width - 2 * pad;
  const mid = height / 2;
  const half = height / 2 - pad;
  const x = (i) => pad + (pos.length <= 1 ? w / 2 : (i / (pos.length - 1)) * w);
  const y = (a) => mid - Math.max(-1, Math.min(1, Number(a) || 0)) * half;
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" class="eval-graph" viewBox="0 0 ${width} ${height}" role="img" aria-label="${label}" preserveAspectRatio="none">`];
  parts.push(`<rect class="second" x="0" y="0" width="${width}" height="${height}"/>`);
  if (pos.length) {
    const d = pos.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)} ${y(p.advantage).toFixed(1)}`).join('');
    parts.push(`<path class="first" d="${d}L${x(pos.length - 1).toFixed(1)} ${height}L${x(0).toFixed(1)} ${height}Z"/>`);
    parts.push(`<line class="midline" x1="0" x2="${width}" y1="${mid}" y2="${mid}"/>`);
    parts.push(`<path class="line" d="${d}"/>`);
    if (current >= 0 && current < pos.length) {
      parts.push(`<line class="current" x1="${x(current).toFixed(1)}" x2="${x(current).toFixed(1)}" y1="0" y2="${height}"/>`);
    }
    for (const m of markedMoves(analysis)) {
      const i = Math.min(m.index + 1, pos.length - 1);
      parts.push(`<circle class="mark ${m.judgment}" data-index="${m.index}" cx="${x(i).toFixed(1)}" cy="${y(pos[i].advantage).toFixed(1)}" r="4.5"/>`);
    }
  }
  parts.push('</svg>');
  return parts.join('');
}

/** The analysed position nearest to a click at `fraction` (0…1) of the graph's width. */
export function positionAtFraction(analysis, fraction) {
  const n = analysis?.positions?.length || 0;
  if (n <= 1) return 0;
  return Math.max(0, Math.min(n - 1, Math.round(fraction * (n - 1))));
}

/**
 * A score as people read it, from the side to act's view: `+1.5` (units of a hundred: discs, men), `#` for a
 * forced win, `-#` for a loss, `=12` for Othello's exact disc difference.
 */
export function scoreText(score) {
  if (!score) return '';
  switch (score.kind) {
    case 'win': return '#';
    case 'loss': return '-#';
    case 'exact': return `=${score.value > 0 ? '+' : ''}${score.value}`;
    case 'units': {
      const v = score.value / 100;
      return `${v > 0 ? '+' : ''}${v.toFixed(1)}`;
    }
    default: return '';
  }
}
