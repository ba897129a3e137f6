// Small DOM helpers: build elements without innerHTML, so text from the server is never parsed as HTML.

const SVG_NS = "http://www.w3.org/2000/svg";

/** Sets attributes, event handlers (`on*`) and properties on `node`. */
function assign(node, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else if (key === "value" || key === "checked" || key === "selected") {
      node[key] = value;
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
  return node;
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false || child === "") continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An HTML element: `h("button", {class: "x", onclick: f}, "text", child)`. */
export function h(tag, attrs, ...children) {
  return append(assign(document.createElement(tag), attrs), children);
}

/** An SVG element, same calling convention as `h`. */
export function s(tag, attrs, ...children) {
  return append(assign(document.createElementNS(SVG_NS, tag), attrs), children);
}

/** Replaces the children of `node`. */
export function replace(node, ...children) {
  node.replaceChildren();
  return append(node, children);
}

/** Says `text` to screen readers through the page's live region. */
export function announce(text) {
  const region = document.getElementById("announcer");
  if (!region) return;
  // Clearing first makes a repeated message ("Ludus played a1") be read again.
  region.textContent = "";
  window.setTimeout(() => { region.textContent = text; }, 30);
}

/** True when the person asked the system for less motion. */
export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}
