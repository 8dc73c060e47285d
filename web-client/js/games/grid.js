// The on-screen board of the games played on the squares of a grid (Othello, draughts, insect chess): draws a
// member's SVG into a container, and turns a click, a tap or the keyboard (arrows move a cursor, Enter or Space
// chooses) into the square chosen. Which squares mean something, and what a choice does, is the member's input model.

/**
 * Creates a grid view. `geometry()` is {cols, rows, cell, x0, y0, extent} for a square drawing area, or with
 * `width` and `height` in place of `extent` for one that is not square (insect chess's 7×11): the squares' grid in
 * SVG units; `onCell({col, row})` is called for a chosen square (rows and columns from 0, top left); `canPlay()`
 * says whether choices count now; `onPick(el, cell)`, when given, is offered a click on a drawn element carrying
 * `data-move` (a draughts route) before the square under it, which it gets when onPick returns false;
 * `startCursor(geometry)` is where the keyboard's cursor starts (the middle by default); `className` is added to
 * the container's. `update(svg)` shows a new drawing (the member's renderer draws the cursor it is given).
 */
export function createGridView({ geometry, onCell = () => {}, onPick = null, canPlay = () => false, label = '', startCursor = null, className = '' }) {
  const el = document.createElement('div');
  el.className = `board-wrap grid-board${className ? ` ${className}` : ''}`;
  el.tabIndex = 0;
  el.setAttribute('role', 'application');
  if (label) el.setAttribute('aria-label', label);
  let drawn = null;
  let cursor = null;
  let render = () => '';

  const draw = () => {
    const svg = render(canPlay() ? cursor : null);
    if (svg !== drawn) {
      drawn = svg;
      el.innerHTML = svg;
    }
    el.classList.toggle('playable', canPlay());
  };

  const cellAt = (ev) => {
    const svg = el.querySelector('svg');
    if (!svg) return null;
    const r = svg.getBoundingClientRect();
    const g = geometry();
    const sx = ((ev.clientX - r.left) / r.width) * (g.width ?? g.extent);
    const sy = ((ev.clientY - r.top) / r.height) * (g.height ?? g.extent);
    const col = Math.floor((sx - g.x0) / g.cell);
    const row = Math.floor((sy - g.y0) / g.cell);
    if (col < 0 || row < 0 || col >= g.cols || row >= g.rows) return null;
    return { col, row };
  };

  el.addEventListener('click', (ev) => {
    const c = cellAt(ev);
    const picked = onPick && canPlay() ? ev.target.closest?.('[data-move]') : null;
    // The member may decline the pick (a click on a square of the path under the line is that square).
    if (picked && el.contains(picked) && onPick(picked, c) !== false) return;
    if (c && canPlay()) onCell(c);
  });
  el.addEventListener('keydown', (ev) => {
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (!canPlay()) return;
    const g = geometry();
    const cur = cursor || (startCursor ? startCursor(g) : { col: Math.floor(g.cols / 2), row: Math.floor(g.rows / 2) });
    if (ev.key in steps) {
      ev.preventDefault();
      const [dx, dy] = steps[ev.key];
      cursor = { col: Math.min(g.cols - 1, Math.max(0, cur.col + dx)), row: Math.min(g.rows - 1, Math.max(0, cur.row + dy)) };
      draw();
    } else if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      cursor = cur;
      onCell(cur);
    }
  });
  el.addEventListener('blur', () => {
    cursor = null;
    draw();
  });

  return {
    el,
    /** Shows the drawing `draw(cursor)` makes (cursor: the keyboard's square or null); redrawn only when it differs. */
    update(next) {
      render = next;
      draw();
    },
  };
}

/** Escapes text for an SVG attribute or text node. */
export const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
