/*
 * The widget's elements: building them, laying the piece and the slider out for a puzzle,
 * showing a state and a message. The style sheet (widget.css) is adopted once per document.
 */

const ICONS = {
  arrowRight: '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M5 12h13M13 6l6 6-6 6" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/></svg>',
  arrowDown: '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M12 5v13M6 13l6 6 6-6" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/></svg>',
  check: '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M5 12.5l4.5 4.5L19 7.5" fill="none" stroke="currentColor" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"/></svg>',
  cross: '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M6 6l12 12M18 6L6 18" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"/></svg>',
  refresh: '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M19.5 12a7.5 7.5 0 1 1-2.2-5.3M19.5 4.5v4h-4" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/></svg>',
};

const STYLE_SHEET = new URL('./widget.css', import.meta.url);

/** Where a document keeps its promise of the style sheet, shared by every copy of the widget in it. */
const STYLED = Symbol.for('tactile-captcha.styles');

/**
 * Adopts the widget's style sheet, once per document; resolves when it applies, or when it could
 * not be had (the widget then shows unstyled rather than not at all). It is fetched from the
 * service like the puzzles, and adopted as a constructed sheet, which a strict style-src allows;
 * a <style> element in browsers without constructed sheets.
 */
export function loadStyles() {
  if (!document[STYLED]) {
    document[STYLED] = fetch(STYLE_SHEET, { mode: 'cors', credentials: 'omit' })
      .then((response) => (response.ok ? response.text() : Promise.reject(new Error(`HTTP ${response.status}`))))
      .then(adopt)
      .catch((error) => console.error('tactile-captcha: the style sheet could not be loaded', error));
  }
  return document[STYLED];
}

function adopt(css) {
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    return;
  } catch (_) { /* older browser */ }
  const style = document.createElement('style');
  style.id = 'tactile-captcha-styles';
  style.textContent = css;
  document.head.appendChild(style);
}

export const reducedMotion = () => typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;

const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));

function element(tag, className, attributes = {}) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

/** The slider's ARIA attributes, moved to the piece when a free puzzle has no slider. */
const SLIDER_ATTRIBUTES = ['role', 'tabindex', 'aria-label', 'aria-describedby', 'aria-valuemin', 'aria-valuemax',
  'aria-valuenow', 'aria-valuetext', 'aria-orientation', 'aria-disabled'];

/**
 * The widget on the page: its elements, the puzzle they show, where the piece is (`pos`, from
 * `start`, in background pixels) and the state shown (data-state: loading, ready, dragging,
 * working, checking, passed, failed, limited, error).
 */
export class PuzzleView {
  constructor(host, id, text, lang, theme) {
    this.text = text;
    this.state = 'loading';
    this.challenge = null;
    this.start = { x: 0, y: 0 };
    this.pos = { x: 0, y: 0 };
    this.scale = 1;
    this.offersWork = false;
    this.timers = {};
    this.build(host, id, lang, theme);
    // Shown once its style sheet applies, so no unstyled icons flash on the page.
    this.root.hidden = true;
    loadStyles().then(() => { this.root.hidden = false; });
  }

  build(host, id, lang, theme) {
    const t = this.text;
    const hintId = `${id}-keys`;
    this.root = element('div', 'tactile-widget', { role: 'group', 'aria-label': t.group, lang, 'data-state': 'loading' });
    if (theme === 'light' || theme === 'dark') this.root.dataset.theme = theme;
    this.body = element('div', 'tactile-body');
    this.stage = element('div', 'tactile-stage');
    this.background = element('img', 'tactile-bg', { alt: '', draggable: 'false' });
    this.piece = element('div', 'tactile-piece');
    this.pieceImage = element('img', '', { alt: '', draggable: 'false' });
    this.piece.appendChild(this.pieceImage);
    this.veil = element('div', 'tactile-veil', { 'aria-hidden': 'true' });
    this.veil.innerHTML = `<span>${ICONS.check}</span>`;
    this.stage.append(this.background, this.piece, this.veil);
    this.rail = element('div', 'tactile-rail');
    this.fill = element('div', 'tactile-fill');
    this.railText = element('span', 'tactile-rail-text', { 'aria-hidden': 'true' });
    this.railText.textContent = t.prompt;
    this.thumb = element('div', 'tactile-thumb', { role: 'slider', tabindex: '0', 'aria-label': t.slider, 'aria-describedby': hintId,
      'aria-valuemin': '0', 'aria-valuemax': '0', 'aria-valuenow': '0', 'aria-orientation': 'horizontal' });
    this.thumb.innerHTML = ICONS.arrowRight;
    this.rail.append(this.fill, this.railText, this.thumb);
    this.body.append(this.stage, this.rail);
    this.status = element('div', 'tactile-status', { 'aria-hidden': 'true' });
    this.live = element('div', 'tactile-sr', { role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' });
    this.hint = element('div', 'tactile-sr', { id: hintId });
    this.hint.textContent = t.keys;
    this.foot = element('div', 'tactile-foot');
    this.refreshButton = element('button', 'tactile-refresh', { type: 'button', 'aria-label': t.refresh, title: t.refresh });
    this.refreshButton.innerHTML = ICONS.refresh;
    this.altButton = element('button', 'tactile-alt', { type: 'button', hidden: '' });
    this.altButton.textContent = t.alternative;
    this.foot.append(this.refreshButton, this.altButton);
    this.root.append(this.body, this.status, this.foot, this.live, this.hint);
    this.input = element('input', '', { type: 'hidden', name: 'tactile-captcha-response', value: '' });
    host.replaceChildren(this.root, this.input);
    if (typeof ResizeObserver === 'function') {
      this.resizer = new ResizeObserver(() => this.layout());
      this.resizer.observe(this.stage);
      this.resizer.observe(this.rail);
    }
  }

  /** The element that carries role="slider": the thumb, or the piece itself for a free puzzle. */
  get handle() { return this.challenge && this.challenge.axis === 'free' ? this.piece : this.thumb; }

  get maxX() { return this.challenge ? this.challenge.imageWidth - this.challenge.pieceWidth : 0; }
  get maxY() { return this.challenge ? this.challenge.imageHeight - this.challenge.pieceHeight : 0; }

  /** Puts the pictures of the next puzzle in place; resolves once both are decoded. */
  loadPictures({ background, piece }) {
    this.background.src = background;
    this.pieceImage.src = piece;
    return Promise.all([this.background.decode(), this.pieceImage.decode()]);
  }

  /** Shows `challenge` (its pictures already loaded), the piece at its start. */
  install(challenge, offersWork) {
    this.challenge = challenge;
    this.offersWork = offersWork;
    const vertical = challenge.axis === 'vertical';
    const free = challenge.axis === 'free';
    this.start = {
      x: vertical && Number.isFinite(challenge.pieceX) ? challenge.pieceX : 0,
      y: challenge.axis === 'horizontal' && Number.isFinite(challenge.pieceY) ? challenge.pieceY : 0,
    };
    this.pos = { ...this.start };
    this.root.dataset.challenge = challenge.id;
    this.root.classList.toggle('tactile-vertical', vertical);
    this.root.classList.toggle('tactile-free', free);
    this.stage.style.aspectRatio = `${challenge.imageWidth} / ${challenge.imageHeight}`;
    this.root.style.setProperty('--tactile-picture-width', `${challenge.imageWidth}px`);
    // The slider role sits on the thumb, or on the piece when there is no slider.
    const [on, off] = free ? [this.piece, this.thumb] : [this.thumb, this.piece];
    for (const name of SLIDER_ATTRIBUTES) off.removeAttribute(name);
    Object.entries({ role: 'slider', tabindex: '0', 'aria-label': this.text.slider, 'aria-describedby': this.hint.id,
      'aria-valuemin': '0', 'aria-orientation': vertical ? 'vertical' : 'horizontal' })
      .forEach(([name, value]) => on.setAttribute(name, value));
    if (free) on.removeAttribute('aria-orientation');
  }

  /** Moves the piece to `to` along the puzzle's axis, within the picture. */
  moveTo(to) {
    const axis = this.challenge.axis;
    this.pos = {
      x: axis === 'vertical' ? this.start.x : clamp(to.x, 0, this.maxX),
      y: axis === 'horizontal' ? this.start.y : clamp(to.y, 0, this.maxY),
    };
  }

  /** Where the piece is, as the answer reports it: background pixels, the fixed coordinate as given. */
  release(round) {
    const axis = this.challenge.axis;
    return {
      x: round(axis === 'vertical' ? this.start.x : this.pos.x),
      y: round(axis === 'horizontal' ? this.start.y : this.pos.y),
      // The width the picture is shown at: the service's tolerance is at least 8 of these pixels.
      displayWidth: round(this.stage.clientWidth),
    };
  }

  /** Lengths of the rail and the thumb along the slider, in CSS pixels. */
  railGeometry() {
    const vertical = this.challenge && this.challenge.axis === 'vertical';
    const rail = vertical ? this.rail.clientHeight : this.rail.clientWidth;
    const pieceLength = this.challenge ? (vertical ? this.challenge.pieceHeight : this.challenge.pieceWidth) * this.scale : 44;
    const thumb = Math.min(Math.max(pieceLength, 44), rail / 2);
    return { rail, thumb, travel: Math.max(1, rail - thumb) };
  }

  layout() {
    const c = this.challenge;
    if (!c) return;
    const width = this.stage.clientWidth;
    if (!width) return;
    this.scale = width / c.imageWidth;
    const s = this.scale;
    Object.assign(this.piece.style, {
      width: `${c.pieceWidth * s}px`, height: `${c.pieceHeight * s}px`, left: `${this.pos.x * s}px`, top: `${this.pos.y * s}px`,
    });
    const g = this.railGeometry();
    if (c.axis === 'horizontal') {
      const left = this.maxX ? (this.pos.x / this.maxX) * g.travel : 0;
      Object.assign(this.thumb.style, { width: `${g.thumb}px`, left: `${left}px`, height: '', top: '' });
      this.fill.style.width = `${left + g.thumb / 2}px`;
      this.railText.style.paddingLeft = `${g.thumb + 8}px`;
      this.railText.style.opacity = this.pos.x === this.start.x ? '' : '0'; // the prompt gives way once the piece moves
    } else if (c.axis === 'vertical') {
      const top = this.maxY ? (this.pos.y / this.maxY) * g.travel : 0;
      Object.assign(this.thumb.style, { height: `${g.thumb}px`, top: `${top}px`, width: '', left: '' });
      this.fill.style.height = `${top + g.thumb / 2}px`;
    }
    this.updateValue();
  }

  updateValue() {
    const c = this.challenge;
    if (!c) return;
    const h = this.handle;
    const x = Math.round(this.pos.x);
    const y = Math.round(this.pos.y);
    const vertical = c.axis === 'vertical';
    h.setAttribute('aria-valuemax', String(vertical ? this.maxY : this.maxX));
    h.setAttribute('aria-valuenow', String(vertical ? y : x));
    h.setAttribute('aria-valuetext', c.axis === 'free' ? this.text.value2(x, y, this.maxX, this.maxY)
      : this.text.value(vertical ? y : x, vertical ? this.maxY : this.maxX));
  }

  setState(state) {
    this.state = state;
    this.root.dataset.state = state;
    const focused = document.activeElement;
    const accepts = state === 'ready';
    const h = this.handle;
    if (accepts || state === 'dragging') h.removeAttribute('aria-disabled');
    else h.setAttribute('aria-disabled', 'true');
    this.refreshButton.disabled = !['ready', 'failed', 'error'].includes(state);
    this.refreshButton.hidden = state === 'passed';
    this.altButton.hidden = !(this.challenge && this.offersWork) || state === 'passed';
    this.altButton.disabled = !accepts;
    this.foot.hidden = this.refreshButton.hidden && this.altButton.hidden;
    // A button that goes away with the focus on it hands the focus to the slider, so a
    // keyboard (or screen reader) stays in the widget instead of going back to the page's top.
    if ((focused === this.refreshButton || focused === this.altButton) && (focused.hidden || focused.disabled)) {
      this.handle.focus({ preventScroll: true });
    }
    this.railText.textContent = this.text.prompt;
    this.status.dataset.prompt = this.challenge && this.challenge.axis === 'free' ? this.text.promptFree : this.text.prompt;
    this.root.classList.toggle('tactile-empty', !this.challenge);
    if (state !== 'working') this.layout();
    this.thumb.innerHTML = state === 'passed' ? ICONS.check : state === 'failed' ? ICONS.cross
      : this.challenge && this.challenge.axis === 'vertical' ? ICONS.arrowDown : ICONS.arrowRight;
  }

  /** Shows a message; `announce` also reads it out (once) to screen readers. */
  say(message, { tone = '', announce = true } = {}) {
    this.status.textContent = message;
    if (tone) this.status.dataset.tone = tone; else delete this.status.dataset.tone;
    if (announce) this.live.textContent = message;
  }

  /** The proof of work's progress on the rail, 0…100. */
  showProgress(percent) {
    if (this.challenge && this.challenge.axis !== 'vertical') this.fill.style.width = `${percent}%`;
  }

  /** Snaps the piece to where the service says the hole is, when it says. */
  snap(to) {
    if (Number.isFinite(to.x) && Number.isFinite(to.y)) this.moveTo(to);
    if (!reducedMotion()) {
      this.root.classList.add('tactile-snap');
      this.later('tactile-snap', 250, () => this.root.classList.remove('tactile-snap'));
    }
    this.layout();
  }

  /** Plays a class's animation once (not when the person prefers reduced motion). */
  flash(className, ms) {
    if (reducedMotion()) return;
    this.root.classList.remove(className);
    void this.root.offsetWidth; // restart the animation
    this.root.classList.add(className);
    this.later(className, ms, () => this.root.classList.remove(className));
  }

  later(name, ms, fn) {
    clearTimeout(this.timers[name]);
    this.timers[name] = setTimeout(() => { delete this.timers[name]; fn(); }, ms);
  }

  remove(host) {
    for (const id of Object.values(this.timers)) clearTimeout(id);
    this.timers = {};
    if (this.resizer) this.resizer.disconnect();
    host.replaceChildren();
  }
}
