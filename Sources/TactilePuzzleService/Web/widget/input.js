/*
 * Moving the piece: a pointer (mouse, touch, pen) dragging the piece or the slider's thumb, or
 * the keyboard on whichever carries role="slider". Each attempt records a Track; the attempt
 * goes to the delegate when it is complete.
 */

import { Track, round2 } from './track.js';

/** The service's name for the device behind a pointer event: mouse, touch or pen (another or
 * none, as some browsers report for a mouse, counts as a mouse). The service judges a drag by
 * what its device produces. */
export function pointerDevice(pointerType) {
  return pointerType === 'touch' || pointerType === 'pen' ? pointerType : 'mouse';
}

/** Background pixels an arrow key moves the piece: 1 with Shift, else 4 for the first three
 * presses of a key held (or pressed again within KEY_REPEAT_MS), then twice as much every three
 * presses, up to 32, so crossing a picture takes about 30 presses. The service checks each step
 * against these (PuzzleKeySteps in the Swift library). */
const KEY_REPEAT_MS = 300;
function keyStep(repeats) {
  return Math.min(32, 4 * 2 ** Math.min(3, Math.floor(Math.max(0, repeats) / 3)));
}

export class PuzzleInput {
  /**
   * @param {import('./dom.js').PuzzleView} view
   * @param {{answerStarted(): void, answered(attempt: object): void}} delegate  hears when an
   *   attempt starts (the first press of a drag, the first key move) and when it is complete
   *   (the release of a drag, Enter): {x, y, displayWidth, track, pointer} of a drag, {x, y,
   *   displayWidth, track, input: 'keyboard'} of key presses.
   */
  constructor(view, delegate) {
    this.view = view;
    this.delegate = delegate;
    this.drag = null; // a pointer attempt under way
    this.keys = null; // a keyboard attempt under way
    this.heldKey = null;
    this.keyOrigin = 0; // when a keyboard attempt would start: the puzzle shown or the slider focused, ms
    for (const source of [view.piece, view.thumb]) {
      source.addEventListener('pointerdown', (e) => this.pointerDown(e, source));
      source.addEventListener('pointermove', (e) => this.pointerMove(e));
      source.addEventListener('pointerup', (e) => this.pointerUp(e));
      source.addEventListener('pointercancel', (e) => this.pointerCancel(e));
      source.addEventListener('lostpointercapture', (e) => this.pointerCancel(e));
      source.addEventListener('keydown', (e) => this.keyDown(e));
      source.addEventListener('focus', () => { this.keyOrigin = Math.max(this.keyOrigin, performance.now()); });
    }
  }

  /** Drops any attempt under way; the next keyboard attempt starts from now. */
  reset() {
    this.drag = null;
    this.keys = null;
    this.keyOrigin = performance.now();
  }

  // Pointer

  pointerDown(e, source) {
    const view = this.view;
    if (view.state !== 'ready' || this.drag || !view.challenge) return;
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    e.preventDefault();
    if (this.keys) { this.keys = null; view.pos = { ...view.start }; } // the pointer takes over from the keys
    try { source.setPointerCapture(e.pointerId); } catch (_) { /* not capturable */ }
    let rx = 1 / view.scale;
    let ry = 1 / view.scale;
    if (source === view.thumb) {
      const g = view.railGeometry();
      if (view.challenge.axis === 'horizontal') rx = view.maxX / g.travel;
      if (view.challenge.axis === 'vertical') ry = view.maxY / g.travel;
    }
    this.drag = { pointerId: e.pointerId, pointer: pointerDevice(e.pointerType), source, clientX: e.clientX, clientY: e.clientY, rx, ry, track: new Track(view.start, e.timeStamp) };
    this.delegate.answerStarted();
    view.setState('dragging');
  }

  /** Records one pointer sample: the piece's top-left where the pointer would put it, in background pixels. */
  sample(event) {
    const { view, drag: d } = this;
    const x = view.start.x + (event.clientX - d.clientX) * d.rx;
    const y = view.start.y + (event.clientY - d.clientY) * d.ry;
    d.track.record(x, y, event.timeStamp);
    view.moveTo({ x, y });
  }

  pointerMove(e) {
    if (!this.drag || e.pointerId !== this.drag.pointerId) return;
    const events = typeof e.getCoalescedEvents === 'function' ? e.getCoalescedEvents() : [];
    for (const event of events.length ? events : [e]) this.sample(event);
    this.view.layout();
  }

  pointerUp(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.pointerId) return;
    this.sample(e);
    this.drag = null;
    try { d.source.releasePointerCapture(e.pointerId); } catch (_) { /* already released */ }
    const view = this.view;
    if (Math.hypot(view.pos.x - view.start.x, view.pos.y - view.start.y) < 1) return this.putBack(); // a click, not a drag
    this.delegate.answered({ ...view.release(round2), track: d.track.samples, pointer: d.pointer });
  }

  pointerCancel(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.pointerId) return;
    this.drag = null;
    this.putBack();
  }

  putBack() {
    const view = this.view;
    view.pos = { ...view.start };
    view.setState('ready');
    view.layout();
  }

  // Keyboard

  keyDown(e) {
    const view = this.view;
    if (!view.challenge || this.drag || e.altKey || e.ctrlKey || e.metaKey) return;
    const axis = view.challenge.axis;
    const now = e.timeStamp || performance.now();
    const held = this.heldKey && this.heldKey.key === e.key && (e.repeat || now - this.heldKey.time < KEY_REPEAT_MS);
    this.heldKey = { key: e.key, repeats: held ? this.heldKey.repeats + 1 : 0, time: now };
    const step = e.shiftKey ? 1 : keyStep(this.heldKey.repeats);
    let { x, y } = view.pos;
    switch (e.key) {
      case 'ArrowRight': if (axis === 'vertical') return; x += step; break;
      case 'ArrowLeft': if (axis === 'vertical') return; x -= step; break;
      case 'ArrowDown': if (axis === 'horizontal') return; y += step; break;
      case 'ArrowUp': if (axis === 'horizontal') return; y -= step; break;
      case 'Home': if (axis === 'vertical') y = 0; else x = 0; break;
      case 'End': if (axis === 'vertical') y = view.maxY; else x = view.maxX; break;
      case 'Enter':
        e.preventDefault();
        if (view.state === 'ready' && this.keys && this.keys.length > 1) {
          const track = this.keys.samples;
          this.keys = null;
          this.delegate.answered({ ...view.release(round2), track, input: 'keyboard' });
        }
        return;
      default: return;
    }
    e.preventDefault();
    if (view.state !== 'ready') return;
    if (!this.keys) {
      // The attempt starts when the slider got focus or the puzzle appeared, with the piece at its start.
      this.keys = new Track(view.start, Math.min(this.keyOrigin, now));
      this.delegate.answerStarted();
    }
    view.pos = { x: Math.min(view.maxX, Math.max(0, x)), y: Math.min(view.maxY, Math.max(0, y)) };
    this.keys.record(view.pos.x, view.pos.y, now);
    view.layout();
  }
}
