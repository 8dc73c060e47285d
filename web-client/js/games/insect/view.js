// The on-screen board of insect chess: like games/grid.js (a click, a tap or the keyboard — arrows move a cursor,
// Enter or Space chooses — to a square), but for a board that is taller than it is wide, which grid.js's square
// drawing area cannot map. What a choice does is the member's input model.

/**
 * Creates the view. `geometry()` is {cols, rows, cell, x0, y0, width, height} in SVG units; `onCell({col, row})`
 * gets a chosen square (screen column and row from 0, top left); `canPlay()` says whether choices count now.
 * `update(render)` shows `render(cursor)`, redrawn only when the drawing differs.
 */
export function createInsectView({ geometry, onCell = () => {}, canPlay = () => false, label = '' }) {
  const el = document.createElement('div');
  el.className = 'board-wrap grid-board insect-board';
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

  /** The square under a pointer event, from the SVG's box (it keeps the board's proportions). */
  const cellAt = (ev) => {
    const svg = el.querySelector('svg');
    if (!svg) return null;
    const r = svg.getBoundingClientRect();
    const g = geometry();
    const sx = ((ev.clientX - r.left) / r.width) * g.width;
    const sy = ((ev.clientY - r.top) / r.height) * g.height;
    const col = Math.floor((sx - g.x0) / g.cell);
    const row = Math.floor((sy - g.y0) / g.cell);
    if (col < 0 || row < 0 || col >= g.cols || row >= g.rows) return null;
    return { col, row };
  };

  el.addEventListener('click', (ev) => {
    const c = cellAt(ev);
    if (c && canPlay()) onCell(c);
  });
  el.addEventListener('keydown', (ev) => {
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (!canPlay()) return;
    const g = geometry();
    const cur = cursor || { col: Math.floor(g.cols / 2), row: g.rows - 2 };
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
    update(next) {
      render = next;
      draw();
    },
  };
}
