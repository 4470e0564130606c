/*
 * The track an attempt sends: samples {x, y, t} of the piece's top-left corner in background
 * pixels and the milliseconds since the attempt began, all rounded to hundredths. Pointer drags
 * and key presses record it the same way.
 */

/** The most samples the service accepts in a track (DragTrack.maximumSamples). */
export const MAX_SAMPLES = 10000;

/** Rounds to hundredths, the precision a track is sent with (never -0). */
export const round2 = (v) => Math.round(v * 100) / 100 + 0;

export class Track {
  /**
   * @param {{x: number, y: number}} start  where the piece is when the attempt begins: the first sample, at t 0
   * @param {number} origin  when the attempt begins, ms on the clock later times are read from
   * @param {{maxSamples?: number}} options
   */
  constructor(start, origin, { maxSamples = MAX_SAMPLES } = {}) {
    this.origin = origin;
    this.maxSamples = maxSamples;
    /** @type {{x: number, y: number, t: number}[]} */
    this.samples = [{ x: round2(start.x), y: round2(start.y), t: 0 }];
  }

  get length() { return this.samples.length; }

  /**
   * Adds the piece at (x, y) at `time` (ms, the origin's clock). Times strictly increase: a
   * sample at the same instant as the previous one (to the hundredth of a millisecond, or
   * earlier, when a clock steps back) replaces it, keeping its time, so the newer position wins.
   * A full track keeps its last sample current, so it still ends where the piece is.
   */
  record(x, y, time) {
    const last = this.samples[this.samples.length - 1];
    const t = round2(time - this.origin);
    if (t <= last.t) {
      last.x = round2(x);
      last.y = round2(y);
    } else if (this.samples.length < this.maxSamples) {
      this.samples.push({ x: round2(x), y: round2(y), t });
    } else {
      Object.assign(last, { x: round2(x), y: round2(y), t });
    }
  }
}
