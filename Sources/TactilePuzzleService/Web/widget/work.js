/*
 * Proof of work: a nonce such that SHA-256(salt ":" nonce) starts with `difficulty` zero bits,
 * or, where the challenge offers `parts`, that many different nonces with log2(parts) bits
 * less each, sent joined by commas. The same work on average, but the time a person waits
 * varies less: the slowest 1 in 20 waits about 1.4 times the mean with 16 parts, 3 times with
 * one nonce.
 *
 * The search runs in Web Workers made from inline code (no file fetched), as many as the
 * machine has cores, at most 4, each hashing four nonces per instruction with WebAssembly
 * SIMD (hashing.js), or scalar JavaScript where the page's Content-Security-Policy refuses
 * WebAssembly. Where it refuses workers, the search runs on the page in slices of a few
 * milliseconds that leave the drag its frames.
 */
import {
  primes, fraction32, roundConstants, initialState, sha256Compress, sha256Words, zeroBits, blockNonce, laneWords,
  makeSearcher, sha256OfNonce, simdModuleBytes, ONE_BLOCK_PREFIX, BLOCK_NONCES,
} from './hashing.js';

/** The extra zero bits a proof of work alone (no drag) must have over the price. */
export const ALONE_SURCHARGE = 2;

/** How long an answer waits for the deeper proof of work before it goes with the price alone, ms. */
export const DEEPER_GRACE_MS = 1000;

/** The most workers a search starts. */
export const MOST_WORKERS = 4;

/** How long the search on the page runs before it yields to the page, ms. */
export const PAGE_SLICE_MS = 4;

/** Whether a challenge's proofOfWork field is one the widget can pay. */
export function validProofOfWork(p) {
  return Boolean(p && typeof p === 'object' && typeof p.salt === 'string' && p.salt.length > 0 && p.salt.length <= 256
    && Number.isInteger(p.difficulty) && p.difficulty >= 1 && p.difficulty <= 32
    && (p.parts === undefined || (Number.isInteger(p.parts) && p.parts >= 1 && p.parts <= 64
      && (p.parts & (p.parts - 1)) === 0 && p.difficulty > Math.log2(p.parts))));
}

/** How many nonces the widget sends for a challenge: its parts, or one. */
export const nonceCount = (p) => p.parts ?? 1;

/** The zero bits each of those nonces needs. */
export const nonceBits = (p) => p.difficulty - Math.log2(nonceCount(p));

/** The workers a search starts on this machine: one per core, at most MOST_WORKERS. */
export function workerCount() {
  const cores = Number(globalThis.navigator?.hardwareConcurrency) || 1;
  return Math.max(1, Math.min(MOST_WORKERS, Math.floor(cores)));
}

// A worker: searches blocks `first`, `first + stride`, … and reports each nonce with at least
// `bits` zero bits, and how many it tried, about every 50 ms.
function workerMain() {
  onmessage = (e) => {
    const { prefix, simd, first, stride, bits } = e.data;
    const searcher = makeSearcher(prefix, simd);
    postMessage({ kind: searcher.kind });
    let block = first;
    for (;;) {
      let hits = [];
      let tried = 0;
      const started = Date.now();
      while (hits.length === 0 && Date.now() - started < 50) {
        hits = searcher.search(block, bits);
        tried += 4000;
        block += stride;
      }
      postMessage({ hits, tried });
    }
  };
}

/** A worker's whole code: the functions it calls, then its main. */
export const WORKER_SOURCE = [
  primes, fraction32, roundConstants, initialState, sha256Compress, sha256Words, zeroBits,
  blockNonce, laneWords, makeSearcher, sha256OfNonce,
].map(String).join('\n') + `\n(${workerMain})();\n`;

let workerURL = null;

/** Set once a worker was refused, so later searches go straight to the page. */
let workersRefused = false;

/** SIMD modules by prefix length, emitted once. */
const modules = new Map();

function simdFor(length) {
  if (length > ONE_BLOCK_PREFIX) return null;
  if (!modules.has(length)) modules.set(length, simdModuleBytes(length));
  return modules.get(length);
}

/** Lets the page run (its frames, its pointer events) before the search goes on. */
function yieldToPage() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => { channel.port1.close(); resolve(); };
    channel.port2.postMessage(null);
  });
}

/**
 * A search for a challenge's nonces, which goes on until stopped: `found(bits)` resolves to the
 * answer (its nonces joined by commas) once that many nonces with at least `bits` zero bits
 * are known, or to null when stopped first. Asking for more bits later continues the same
 * search: nonces found so far count.
 */
export class Search {
  /**
   * @param {{salt: string, difficulty: number, parts?: number}} challenge
   * @param {{workers?: number}} options  workers: 0 searches on the page.
   */
  constructor(challenge, { workers = workerCount() } = {}) {
    this.prefix = new TextEncoder().encode(challenge.salt + ':');
    this.bits = nonceBits(challenge);
    this.count = nonceCount(challenge);
    this.tried = 0;
    this.kind = null;
    this.nonces = []; // [nonce, zero bits]
    this.waiting = []; // {bits, resolve}
    this.stopped = false;
    this.workers = [];
    this.progress = null;
    if (workers > 0 && !workersRefused) this.startWorkers(workers);
    if (this.workers.length === 0) this.searchOnPage();
  }

  startWorkers(n) {
    const simd = simdFor(this.prefix.length);
    try {
      workerURL = workerURL || URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'text/javascript' }));
      for (let i = 0; i < n; i++) this.workers.push(new Worker(workerURL));
    } catch (_) {
      this.workers.forEach((worker) => worker.terminate());
      this.workers = [];
      workersRefused = true; // a Content-Security-Policy without blob: workers, in some browsers
      return;
    }
    this.workers.forEach((worker, i) => {
      worker.onmessage = (e) => {
        if (e.data.kind) this.kind = e.data.kind;
        else this.heard(e.data.hits, e.data.tried);
      };
      // Chromium refuses a worker that the page's Content-Security-Policy forbids here with an
      // error event, not in the constructor: the search goes on on the page.
      worker.onerror = (e) => {
        e.preventDefault();
        if (this.workers.length === 0) return;
        this.workers.forEach((w) => w.terminate());
        this.workers = [];
        workersRefused = true;
        if (!this.stopped) this.searchOnPage();
      };
      worker.postMessage({ prefix: this.prefix, simd, first: i, stride: n, bits: this.bits });
    });
  }

  async searchOnPage() {
    const searcher = makeSearcher(this.prefix, simdFor(this.prefix.length));
    this.kind = searcher.kind + ' on the page';
    // Blocks from the far end of the numbering, so a search that workers began and the
    // page continues never meets theirs.
    for (let block = 99_999_999; !this.stopped; ) {
      const started = performance.now();
      let hits = [];
      let tried = 0;
      while (performance.now() - started < PAGE_SLICE_MS) {
        hits = hits.concat(searcher.search(block, this.bits));
        tried += BLOCK_NONCES;
        block -= 1;
      }
      this.heard(hits, tried);
      await yieldToPage();
    }
  }

  heard(hits, tried) {
    if (this.stopped) return;
    this.tried += tried;
    for (const hit of hits) this.nonces.push(hit);
    this.waiting = this.waiting.filter(({ bits, resolve }) => {
      const answer = this.answer(bits);
      if (answer !== null) resolve(answer);
      return answer === null;
    });
    if (this.progress) this.progress(this.tried);
  }

  /** The answer with `bits` zero bits per nonce from the nonces known now, or null. */
  answer(bits) {
    const chosen = this.nonces.filter(([, zeros]) => zeros >= bits).slice(0, this.count);
    return chosen.length === this.count ? chosen.map(([nonce]) => nonce).join(',') : null;
  }

  /** Resolves to the answer with `bits` zero bits per nonce once found, or null when stopped. */
  found(bits) {
    if (this.stopped) return Promise.resolve(null);
    const answer = this.answer(bits);
    if (answer !== null) return Promise.resolve(answer);
    return new Promise((resolve) => this.waiting.push({ bits, resolve }));
  }

  /** Stops the workers; answers still awaited resolve to null. */
  stop() {
    if (this.stopped) return;
    this.stopped = true;
    this.workers.forEach((worker) => worker.terminate());
    this.workers = [];
    this.waiting.forEach(({ resolve }) => resolve(null));
    this.waiting = [];
  }
}

/**
 * A priced challenge's price, paid in the background while the person drags: the proof of
 * work every answer carries. Once it is paid, the same search goes on to the price of the
 * proof of work alone (ALONE_SURCHARGE more bits per nonce), which lets a drag the verifier
 * doubts pass anyway when it is dropped in the hole, and is what a person who cannot drag sends.
 */
export class Price {
  /** @param {(ms: number) => void} paid  hears how long the price took (for the page's own measurements). */
  constructor(challenge, paid, options) {
    this.challenge = challenge;
    this.search = new Search(challenge, options);
    const started = performance.now();
    this.nonce = this.search.found(nonceBits(challenge)).then((nonce) => {
      if (typeof nonce === 'string') paid(performance.now() - started);
      return nonce;
    });
    this.deeper = this.search.found(nonceBits(challenge) + ALONE_SURCHARGE);
    this.deeper.then(() => this.search.stop());
  }

  /** The hashes the search expects to try for `bits` zero bits on each nonce. */
  expected(bits) {
    return nonceCount(this.challenge) * 2 ** bits;
  }

  /** The nonces to send: the deeper ones when found within `graceMs` of now, else the price's. */
  async paid(graceMs) {
    const nonce = await this.nonce;
    if (typeof nonce !== 'string') return nonce;
    let timer;
    const deeper = await Promise.race([this.deeper, new Promise((resolve) => { timer = setTimeout(() => resolve(null), graceMs); })]);
    clearTimeout(timer);
    this.search.stop();
    return typeof deeper === 'string' ? deeper : nonce;
  }

  /**
   * The price of the proof of work alone, continuing the search; `report(tried, expected)`
   * hears its progress.
   */
  alone(report) {
    const bits = nonceBits(this.challenge) + ALONE_SURCHARGE;
    this.search.progress = (tried) => report(tried, this.expected(bits));
    return this.deeper;
  }

  /** Stops the search. */
  stop() {
    this.search.stop();
  }
}
