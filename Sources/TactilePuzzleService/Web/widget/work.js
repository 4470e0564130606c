/*
 * Proof of work: a decimal nonce such that SHA-256(salt ":" nonce) starts with `difficulty`
 * zero bits. The search runs in a Web Worker made from inline code (no file fetched), or on the
 * page when the page's Content-Security-Policy refuses the worker.
 */

/** The extra zero bits a proof of work alone (no drag) must have over the price. */
export const ALONE_SURCHARGE = 2;

/** How long an answer waits for the deeper proof of work before it goes with the price alone, ms. */
export const DEEPER_GRACE_MS = 1000;

/** Whether a challenge's proofOfWork field is one the widget can pay. */
export function validProofOfWork(p) {
  return Boolean(p && typeof p === 'object' && typeof p.salt === 'string' && p.salt.length > 0 && p.salt.length <= 256
    && Number.isInteger(p.difficulty) && p.difficulty >= 1 && p.difficulty <= 32);
}

/** Whether this browser can hash (crypto.subtle needs a secure context). */
export const canWork = () => Boolean(globalThis.crypto && crypto.subtle);

// The two functions below are also the worker's source: they use nothing from outside.

function leadingZeroBits(bytes) {
  let bits = 0;
  for (const byte of bytes) {
    if (byte === 0) { bits += 8; continue; }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

async function searchNonce(salt, difficulty, report, shouldStop) {
  const encoder = new TextEncoder();
  const prefix = salt + ':';
  const batch = 128;
  let lastReport = 0;
  for (let base = 0; ; base += batch) {
    if (shouldStop && shouldStop()) return null;
    const digests = [];
    for (let i = 0; i < batch; i++) digests.push(crypto.subtle.digest('SHA-256', encoder.encode(prefix + (base + i))));
    const done = await Promise.all(digests);
    for (let i = 0; i < batch; i++) {
      if (leadingZeroBits(new Uint8Array(done[i])) >= difficulty) return String(base + i);
    }
    const now = Date.now();
    if (now - lastReport > 100) { lastReport = now; report(base + batch); }
  }
}

const WORKER_SOURCE = `${leadingZeroBits}\n${searchNonce}\n` +
  'onmessage = async (e) => { const nonce = await searchNonce(e.data.salt, e.data.difficulty, (tried) => postMessage({ tried })); postMessage({ nonce }); };';

let workerURL = null;

/** Set once a worker was refused, so later searches go straight to the page. */
let workersRefused = false;

/**
 * Searches for a nonce; resolves to it, or to null when stopped. `report(tried)` hears how
 * many were tried now and then. While it runs, `owner.stopWork()` stops it.
 */
export function solveProofOfWork(salt, difficulty, report, owner) {
  return new Promise((resolve, reject) => {
    const onPage = () => {
      let stopped = false;
      owner.stopWork = () => { stopped = true; owner.stopWork = null; };
      searchNonce(salt, difficulty, report, () => stopped).then(resolve, reject);
    };
    let worker = null;
    if (!workersRefused) {
      try {
        workerURL = workerURL || URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'text/javascript' }));
        worker = new Worker(workerURL);
      } catch (_) {
        workersRefused = true; // a Content-Security-Policy without blob: workers, in some browsers
      }
    }
    if (!worker) return onPage();
    owner.stopWork = () => { worker.terminate(); owner.stopWork = null; resolve(null); };
    worker.onmessage = (e) => {
      if (typeof e.data.tried === 'number') report(e.data.tried);
      if (typeof e.data.nonce === 'string') { worker.terminate(); owner.stopWork = null; resolve(e.data.nonce); }
    };
    // Chromium refuses a worker that the page's Content-Security-Policy forbids here, with an
    // error event, not in the constructor: the search goes on on the page.
    worker.onerror = (e) => {
      worker.terminate();
      e.preventDefault();
      workersRefused = true;
      onPage();
    };
    worker.postMessage({ salt, difficulty });
  });
}

/**
 * A priced challenge's price, paid in the background while the person drags: the proof of
 * work every answer carries (about a second on a mid-range phone). Once it is paid, the search
 * goes on to the price of the proof of work alone (ALONE_SURCHARGE more bits), which lets a
 * drag the verifier doubts pass anyway when it is dropped in the hole.
 */
export class Price {
  /** @param {(ms: number) => void} paid  hears how long the price took (for the page's own measurements). */
  constructor({ salt, difficulty }, paid) {
    this.stopWork = null;
    this.deeper = null;
    this.stopped = false;
    const started = performance.now();
    this.nonce = solveProofOfWork(salt, difficulty, () => {}, this).then((nonce) => {
      if (typeof nonce === 'string' && !this.stopped) {
        paid(performance.now() - started);
        this.deeper = solveProofOfWork(salt, difficulty + ALONE_SURCHARGE, () => {}, this).catch(() => null);
      }
      return nonce;
    }, () => null);
  }

  /** The nonce to send: the deeper one when it is found within `graceMs` of now, else the price's. */
  async paid(graceMs) {
    const nonce = await this.nonce;
    if (typeof nonce !== 'string' || !this.deeper) return nonce;
    const deeper = await Promise.race([this.deeper, new Promise((resolve) => setTimeout(() => resolve(null), graceMs))]);
    if (typeof deeper === 'string') return deeper;
    if (this.stopWork) this.stopWork();
    return nonce;
  }

  /** Stops the search, whichever is running. */
  stop() {
    this.stopped = true;
    if (this.stopWork) this.stopWork();
  }
}
