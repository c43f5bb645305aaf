// Small DOM helpers. Every piece of text becomes a text node (never parsed
// as HTML), so names and messages from other people cannot inject markup.

// h builds an element: h('button', {class: 'x', onclick: fn}, 'text', child).
// Attributes starting with "on" become listeners; "aria-*", "data-*" and other
// keys become attributes; false/null/undefined attributes are left out.
export function h(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

const SVG = 'http://www.w3.org/2000/svg';

// svg builds an SVG element the same way (in the SVG namespace): svg('svg',
// {viewBox: '0 0 100 40'}, svg('polyline', {points: '0,0 10,5'})). Its
// attributes are set as they are (viewBox keeps its case).
export function svg(tag, attrs, ...children) {
  return build(document.createElementNS(SVG, tag), attrs, children);
}

function build(el, attrs, children) {
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === false || v === null || v === undefined) continue;
      if (k.startsWith('on') && typeof v === 'function') {
        el.addEventListener(k.slice(2), v);
      } else if (k === 'class') {
        el.setAttribute('class', v);
      } else if (k === 'text') {
        el.textContent = v;
      } else if (k === 'value' || k === 'checked' || k === 'selected' || k === 'disabled') {
        el[k] = v;
      } else {
        el.setAttribute(k, v === true ? '' : String(v));
      }
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

// replace empties el and fills it with children.
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

export const $ = (sel, root = document) => root.querySelector(sel);

// reducedMotion tells whether the person asked the system for less motion.
export function reducedMotion() {
  return window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
