// The board on screen: draws board.js's SVG into a container and turns pointer input into points. Taps
// place (optionally after a confirming second tap), a mouse shows a ghost stone, and a long press on a
// forbidden mark shows its kind (title tooltips do not exist on touch screens).

import { renderBoard, geometry, fromSvg, formatPoint, parsePoint } from './board.js';
import { t } from './i18n.js';

/** Creates a board view. onPoint(point) is called for an accepted tap; canPlay() says whether taps count. */
export function createBoardView({ onPoint = () => {}, canPlay = () => false, confirm = () => false } = {}) {
  const el = document.createElement('div');
  el.className = 'board-wrap';
  const tip = document.createElement('div');
  tip.className = 'board-tip';
  tip.hidden = true;
  let model = { size: 15, moves: [] };
  let hover = null;
  let pending = null;
  let pressTimer = null;

  const draw = () => {
    const ghostColor = model.ghostColor || 'black';
    el.innerHTML = renderBoard({
      ...model,
      hover: hover && canPlay() && !pending ? { point: hover, color: ghostColor } : null,
      pending: pending ? { point: pending, color: ghostColor } : null,
    });
    el.append(tip);
    el.classList.toggle('playable', canPlay());
  };

  const pointAt = (ev) => {
    const svg = el.querySelector('svg');
    if (!svg) return null;
    const r = svg.getBoundingClientRect();
    const g = geometry(model.size, { coords: model.coords !== false });
    const sx = ((ev.clientX - r.left) / r.width) * g.extent;
    const sy = ((ev.clientY - r.top) / r.height) * g.extent;
    const p = fromSvg(g, sx, sy, 0.45);
    return p ? formatPoint(p.x, p.y) : null;
  };

  const occupied = (point) => model.moves.slice(0, model.upto ?? model.moves.length).some((m) => (m.point || m) === point);

  const showTip = (point) => {
    const f = (model.forbidden || []).find((x) => x.point === point);
    if (!f) {
      tip.hidden = true;
      return false;
    }
    const p = parsePoint(point, model.size);
    const g = geometry(model.size, { coords: model.coords !== false });
    tip.textContent = t('room.forbidden_here', { kind: t(`kind.${f.kind}`) });
    tip.style.left = `${((g.margin + p.x * g.cell) / g.extent) * 100}%`;
    tip.style.top = `${((g.margin + (model.size - 1 - p.y) * g.cell) / g.extent) * 100}%`;
    tip.hidden = false;
    return true;
  };

  el.addEventListener('pointermove', (ev) => {
    if (ev.pointerType !== 'mouse') return;
    const p = pointAt(ev);
    showTip(p);
    const forbidden = (model.forbidden || []).some((f) => f.point === p);
    const next = p && !occupied(p) && !forbidden ? p : null;
    if (next !== hover) {
      hover = next;
      draw();
    }
  });
  el.addEventListener('pointerleave', () => {
    hover = null;
    tip.hidden = true;
    draw();
  });
  el.addEventListener('pointerdown', (ev) => {
    if (ev.pointerType === 'mouse') return;
    const p = pointAt(ev);
    clearTimeout(pressTimer);
    pressTimer = setTimeout(() => showTip(p), 450);
  });
  el.addEventListener('pointerup', () => {
    clearTimeout(pressTimer);
    setTimeout(() => (tip.hidden = true), 1800);
  });
  const choose = (p) => {
    if (!p || !canPlay() || occupied(p)) return;
    if (confirm() && pending !== p) {
      pending = p;
      draw();
      return;
    }
    pending = null;
    onPoint(p);
  };
  el.addEventListener('click', (ev) => choose(pointAt(ev)));

  // Keyboard play: arrows move a cursor (drawn as the ghost stone), Enter or Space places.
  el.tabIndex = 0;
  el.setAttribute('role', 'application');
  el.addEventListener('keydown', (ev) => {
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    if (!canPlay()) return;
    const cur = parsePoint(hover || formatPoint(Math.floor(model.size / 2), Math.floor(model.size / 2)), model.size);
    if (ev.key in steps) {
      ev.preventDefault();
      const [dx, dy] = steps[ev.key];
      const x = Math.min(model.size - 1, Math.max(0, cur.x + dx));
      const y = Math.min(model.size - 1, Math.max(0, cur.y + dy));
      hover = formatPoint(x, y);
      showTip(hover);
      draw();
    } else if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      choose(formatPoint(cur.x, cur.y));
    }
  });

  return {
    el,
    /** Redraws with a new model (see renderBoard for its fields). */
    update(next) {
      model = next;
      if (pending && occupied(pending)) pending = null;
      draw();
    },
    clearPending() {
      pending = null;
      draw();
    },
  };
}
