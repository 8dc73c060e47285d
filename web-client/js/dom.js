// A tiny element builder: h('button', {class: 'primary', onclick}, 'Text'). Strings become text nodes, so
// names and chat from other players can never inject markup.

/** Builds an element with attributes, properties (on* handlers, dataset) and children. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'class') el.className = v;
    else if (k === 'value' || k === 'checked' || k === 'selected') el[k] = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** Replaces an element's children. */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/**
 * A transient message over the header (css: #toasts). One at a time: a new one replaces the last, so a pile of
 * them never reaches down over the page.
 */
export function toast(text, kind = 'info') {
  let box = document.getElementById('toasts');
  if (!box) {
    box = h('div', { id: 'toasts', 'aria-live': 'polite' });
    document.body.append(box);
  }
  const item = h('div', { class: `toast ${kind}` }, text);
  box.replaceChildren(item);
  setTimeout(() => item.classList.add('gone'), 3200);
  setTimeout(() => item.remove(), 3800);
}
