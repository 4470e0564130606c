/*
 * Tactile puzzle captcha — the browser widget.
 *
 * A plain ES module served by `tactile puzzle serve` at /widget.js; no build step, no
 * dependencies, and no requests except to the service it was loaded from. A site adds
 *
 *   <div class="tactile-captcha" data-sitekey="…"></div>
 *   <script type="module" src="https://service.example/widget.js"></script>
 *
 * inside its form. The widget fetches a puzzle, lets the person drag the piece (or the
 * slider under the picture) with mouse, touch or pen, or move it with the keyboard, and
 * sends the release position and the drag's track to the service. On a pass it puts the
 * token in a hidden <input name="tactile-captcha-response">, which the site's server
 * checks with POST /v1/siteverify. People who cannot do the puzzle can verify by proof of
 * work instead, when the site allows it.
 *
 * Attributes of the div (or options of render()): data-sitekey (required), data-action,
 * data-lang ("en", "zh-CN"), data-theme ("auto", "light", "dark"), data-callback,
 * data-expired-callback, data-error-callback (names of global functions; render() also
 * takes functions as callback, "expired-callback", "error-callback").
 *
 * JavaScript API, like Turnstile's and hCaptcha's:
 *   window.tactileCaptcha.render(element | selector, options) → widgetId
 *   window.tactileCaptcha.reset(widgetId?)        a fresh puzzle, the token forgotten
 *   window.tactileCaptcha.getResponse(widgetId?)  the token, or "" before a pass
 *   window.tactileCaptcha.remove(widgetId?)
 * The same functions are exported by the module. Load it with ?render=explicit to stop
 * it from rendering the .tactile-captcha divs by itself.
 *
 * The widget takes its container's width, but shows the picture no wider than its natural
 * width and no narrower than 280 px while the container has room: a narrower container (a
 * phone) gets a widget as wide as itself. To make it smaller, make its container smaller.
 *
 * The rest are modules in /widget/ beside this one: the flow as a state machine (session.js),
 * one widget on the page (host.js performing the flow's effects, dom.js, input.js, track.js),
 * the service (network.js), proof of work (work.js, its hashing in hashing.js), texts.js and
 * widget.css.
 */

import { Widget } from './widget/host.js';

const EXPLICIT = new URL(import.meta.url).searchParams.get('render') === 'explicit';
const RENDERED = 'data-tactile-widget';

const widgets = new Map();
let nextId = 1;

function find(widgetId) {
  if (widgetId === undefined || widgetId === null) return widgets.values().next().value || null;
  if (widgets.has(widgetId)) return widgets.get(widgetId);
  if (widgetId instanceof Element) return widgets.get(widgetId.getAttribute(RENDERED)) || null;
  return null;
}

/** Renders a widget into `target` (an element or a selector) and returns its id. */
export function render(target, options = {}) {
  const host = typeof target === 'string' ? document.querySelector(target) : target;
  if (!(host instanceof Element)) throw new TypeError('tactileCaptcha.render: no such element');
  const existing = host.getAttribute(RENDERED);
  if (existing && widgets.has(existing)) return existing;
  const id = `tactile-${nextId++}`;
  host.setAttribute(RENDERED, id);
  widgets.set(id, new Widget(host, options || {}, id));
  return id;
}

/** Forgets the token and shows a fresh puzzle. */
export function reset(widgetId) {
  const widget = find(widgetId);
  if (widget) widget.reset();
}

/** The widget's token, or "" before a pass. */
export function getResponse(widgetId) {
  const widget = find(widgetId);
  return widget ? widget.token : '';
}

/** Takes a widget off the page. */
export function remove(widgetId) {
  const widget = find(widgetId);
  if (!widget) return;
  widget.remove();
  widget.host.removeAttribute(RENDERED);
  widgets.delete(widget.id);
}

window.tactileCaptcha = { render, reset, getResponse, remove };

function renderAll() {
  for (const host of document.querySelectorAll('.tactile-captcha')) {
    if (!host.hasAttribute(RENDERED)) render(host);
  }
}

if (!EXPLICIT) {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', renderAll, { once: true });
  else renderAll();
}
