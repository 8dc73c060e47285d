// The board on screen: draws board.js's SVG into a container and turns pointer input into points. Taps
// place (optionally after a confirming second tap), a mouse shows a ghost stone, and a long press on a
// forbidden mark shows its kind (title tooltips do not exist on touch screens).
//
// The board is drawn again only when its model changes; the ghost stone under the mouse or the keyboard
// cursor, the stone waiting for its confirming tap and the hints live in an overlay of their own, so moving
// the mouse never rebuilds the board (nor loses the focus held inside it).

import { renderBoard, geometry, fromSvg, formatPoint, parsePoint } from './board.js';
import { t } from '../../i18n.js';

const SVG = 'http://www.w3.org/2000/svg';

/** How long a touch must rest on a point before it counts as a long press (it then shows the mark's kind). */
const LONG_PRESS_MS = 450;

/**
 * Creates a board view. onPoint(point) is called for an accepted tap; canPlay() says whether taps count;
 * confirm() whether a tap must be confirmed by a second one. A tap on a forbidden mark is never held as a
 * pending stone: it goes straight to onPoint, whose caller warns (a pending stone there would make the next tap
 * play the forbidden point).
 */
export function createBoardView({ onPoint = () => {}, canPlay = () => false, confirm = () => false } = {}) {
  const el = document.createElement('div');
  el.className = 'board-wrap';
  const tip = document.createElement('div');
  tip.className = 'board-tip';
  tip.hidden = true;
  const hint = document.createElement('div');
  hint.className = 'board-tip confirm-hint';
  hint.id = 'confirm-hint';
  hint.setAttribute('role', 'status');
  hint.hidden = true;
  let model = { size: 15, moves: [] };
  let drawn = null;
  let hover = null;
  let pending = null;
  let pressTimer = null;
  let tipTimer = null;
  // A long press showed a mark's kind: the click the browser sends when the finger lifts is not a tap.
  let longPressed = false;

  const isForbidden = (point) => (model.forbidden || []).some((f) => f.point === point);
  const occupied = (point) => model.moves.slice(0, model.upto ?? model.moves.length).some((m) => (m.point || m) === point);
  const geo = () => geometry(model.size, { coords: model.coords !== false });

  /** Places an absolutely positioned hint over a point. */
  const placeAt = (node, point) => {
    const p = parsePoint(point, model.size);
    const g = geo();
    node.style.left = `${((g.margin + p.x * g.cell) / g.extent) * 100}%`;
    node.style.top = `${((g.margin + (model.size - 1 - p.y) * g.cell) / g.extent) * 100}%`;
  };

  /** The ghost and pending stones: only the overlay group changes, the board stays the same node. */
  const drawOverlay = () => {
    const svg = el.querySelector('svg');
    if (!svg) return;
    let layer = svg.querySelector('g.cursor');
    if (!layer) {
      layer = document.createElementNS(SVG, 'g');
      layer.setAttribute('class', 'cursor');
      svg.append(layer);
    }
    layer.replaceChildren();
    const color = model.ghostColor || 'black';
    const g = geo();
    const stone = (point, kind) => {
      const p = parsePoint(point, model.size);
      if (!p || occupied(point)) return;
      const c = document.createElementNS(SVG, 'circle');
      c.setAttribute('class', `${kind} ${color}`);
      c.setAttribute('data-point', point);
      c.setAttribute('cx', String(g.margin + p.x * g.cell));
      c.setAttribute('cy', String(g.margin + (model.size - 1 - p.y) * g.cell));
      c.setAttribute('r', '18.5');
      layer.append(c);
    };
    if (hover && canPlay() && !pending) stone(hover, 'ghost');
    if (pending) stone(pending, 'pending');
    if (pending) {
      hint.textContent = t('room.confirm_tap');
      placeAt(hint, pending);
      hint.hidden = false;
    } else {
      hint.hidden = true;
    }
    el.classList.toggle('playable', canPlay());
  };

  const draw = () => {
    const key = JSON.stringify(model);
    if (key !== drawn) {
      drawn = key;
      el.innerHTML = renderBoard(model);
      el.append(tip, hint);
    }
    drawOverlay();
  };

  const pointAt = (ev) => {
    const svg = el.querySelector('svg');
    if (!svg) return null;
    const r = svg.getBoundingClientRect();
    const g = geo();
    const sx = ((ev.clientX - r.left) / r.width) * g.extent;
    const sy = ((ev.clientY - r.top) / r.height) * g.extent;
    const p = fromSvg(g, sx, sy, 0.45);
    return p ? formatPoint(p.x, p.y) : null;
  };

  // The point whose forbidden mark the tooltip explains now (null while it is hidden).
  let tipPoint = null;
  const hideTip = () => {
    clearTimeout(tipTimer);
    tipPoint = null;
    tip.hidden = true;
  };
  const showTip = (point) => {
    const f = point && (model.forbidden || []).find((x) => x.point === point);
    if (!f) {
      hideTip();
      return false;
    }
    tip.textContent = t('room.forbidden_here', { kind: t(`kind.${f.kind}`) });
    placeAt(tip, point);
    tip.hidden = false;
    tipPoint = point;
    return true;
  };

  el.addEventListener('pointermove', (ev) => {
    if (ev.pointerType !== 'mouse') return;
    const p = pointAt(ev);
    // Shown again only when the mouse comes to a mark anew: a click on the point put it away.
    if (p !== tipPoint && p !== clickedTip) showTip(p);
    if (p !== clickedTip) clickedTip = null;
    const next = p && !occupied(p) && !isForbidden(p) ? p : null;
    if (next !== hover) {
      hover = next;
      drawOverlay();
    }
  });
  el.addEventListener('pointerleave', () => {
    hover = null;
    clickedTip = null;
    hideTip();
    drawOverlay();
  });
  el.addEventListener('pointerdown', (ev) => {
    if (ev.pointerType === 'mouse') return;
    const p = pointAt(ev);
    longPressed = false;
    clearTimeout(pressTimer);
    clearTimeout(tipTimer);
    pressTimer = setTimeout(() => {
      pressTimer = null;
      if (showTip(p)) longPressed = true;
    }, LONG_PRESS_MS);
  });
  const release = () => {
    clearTimeout(pressTimer);
    pressTimer = null;
    clearTimeout(tipTimer);
    tipTimer = setTimeout(hideTip, 1800);
  };
  el.addEventListener('pointerup', release);
  el.addEventListener('pointercancel', () => {
    release();
    longPressed = false;
  });
  // A long press opens no context menu over the board: it is the way to read a mark.
  el.addEventListener('contextmenu', (ev) => ev.preventDefault());

  const choose = (p) => {
    if (!p || !canPlay() || occupied(p)) return;
    if (isForbidden(p)) {
      // Never a pending stone on a forbidden point: the caller asks in words, once.
      pending = null;
      drawOverlay();
      onPoint(p);
      return;
    }
    if (confirm() && pending !== p) {
      pending = p;
      drawOverlay();
      return;
    }
    pending = null;
    drawOverlay();
    onPoint(p);
  };
  // The point a click put the tooltip away on: it stays away while the mouse rests there.
  let clickedTip = null;
  el.addEventListener('click', (ev) => {
    if (longPressed) {
      longPressed = false;
      return;
    }
    const p = pointAt(ev);
    // The tooltip has been read: a click acts (or asks), and the tooltip must not outlive it on the board.
    if (tipPoint) {
      clickedTip = p;
      hideTip();
    }
    choose(p);
  });

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
      drawOverlay();
    } else if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      choose(formatPoint(cur.x, cur.y));
    }
  });

  return {
    el,
    /** Shows a new model (see renderBoard for its fields); the board is redrawn only when it differs. */
    update(next) {
      model = next;
      if (pending && (occupied(pending) || isForbidden(pending))) pending = null;
      // A mark that is gone (played, the game over, another position) takes its tooltip with it.
      if (tipPoint && !isForbidden(tipPoint)) hideTip();
      draw();
    },
    /** Forgets a stone waiting for its confirming tap. */
    clearPending() {
      pending = null;
      drawOverlay();
    },
  };
}
