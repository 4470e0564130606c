/*
 * The proof of work's hashing: SHA-256 of `salt ":" nonce`, searched a block of nonces at a time.
 *
 * A block is 4,000 nonces of 12 decimal digits: 8 digits of the block's number, one lane digit
 * (0–3) and 3 digits counted inside the block. Every nonce of a block has the same length, so
 * the message is one SHA-256 block whose words differ only where those last digits sit: the
 * rounds before the first of those words are done once per block, not once per nonce.
 *
 * Three ways to search a block, fastest first:
 * - WebAssembly with 128-bit SIMD, four lanes (one nonce per lane digit) per instruction. The
 *   module is emitted as bytes here (`simdModuleBytes`), for the prefix's length: no file is
 *   fetched, no build step.
 * - Scalar JavaScript, where a page's Content-Security-Policy refuses WebAssembly.
 * - Any message, one SHA-256 at a time, for a salt too long for one block.
 *
 * Every function from `sha256Compress` down uses nothing outside itself and the functions
 * below it: a worker is made of their source text.
 */

/** Nonces in one block: 4 lanes of 1,000. */
export const BLOCK_NONCES = 4000;

/** The longest `salt ":"` (UTF-8 bytes) whose nonces fit one SHA-256 block with their padding. */
export const ONE_BLOCK_PREFIX = 64 - 9 - 12;

/** The first `count` prime numbers. */
export function primes(count) {
  const found = [];
  for (let n = 2; found.length < count; n++) {
    if (found.every((p) => n % p !== 0)) found.push(n);
  }
  return found;
}

/** The first 32 bits of the fractional part of `x`. */
export function fraction32(x) {
  return Math.floor((x - Math.floor(x)) * 0x100000000) >>> 0;
}

/**
 * SHA-256's round constants, as FIPS 180-4 defines them: the first 32 bits of the fractional
 * parts of the cube roots of the first 64 primes (a double holds them with bits to spare).
 */
export function roundConstants() {
  return Uint32Array.from(primes(64), (p) => fraction32(Math.cbrt(p)));
}

/** SHA-256's initial state: the same of the square roots of the first 8 primes. */
export function initialState() {
  return Uint32Array.from(primes(8), (p) => fraction32(Math.sqrt(p)));
}

/**
 * One SHA-256 compression of the 16 words `block` into `state` (8 words), in place; `w` is
 * room for the 64-word schedule (given, so that a search allocates nothing per hash).
 */
export function sha256Compress(state, block, k, w = new Uint32Array(64)) {
  for (let t = 0; t < 16; t++) w[t] = block[t];
  for (let t = 16; t < 64; t++) {
    const a = w[t - 15], b = w[t - 2];
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
  }
  let a = state[0], b = state[1], c = state[2], d = state[3];
  let e = state[4], f = state[5], g = state[6], h = state[7];
  for (let t = 0; t < 64; t++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + s1 + ((e & f) ^ (~e & g)) + k[t] + w[t]) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g; g = f; f = e; e = (d + t1) | 0;
    d = c; c = b; b = a; a = (t1 + t2) | 0;
  }
  state[0] += a; state[1] += b; state[2] += c; state[3] += d;
  state[4] += e; state[5] += f; state[6] += g; state[7] += h;
}

/** SHA-256 of `bytes` (a Uint8Array): the digest's 8 words. */
export function sha256Words(bytes) {
  const k = roundConstants();
  const state = initialState();
  const blocks = Math.floor((bytes.length + 9 + 63) / 64);
  const padded = new Uint8Array(blocks * 64);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const bits = bytes.length * 8;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bits / 0x100000000));
  view.setUint32(padded.length - 4, bits >>> 0);
  const block = new Uint32Array(16);
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) block[i] = view.getUint32(offset + 4 * i);
    sha256Compress(state, block, k);
  }
  return state;
}

/** Leading zero bits of a digest given by its first two words. */
export function zeroBits(first, second) {
  return first !== 0 ? Math.clz32(first) : 32 + Math.clz32(second);
}

/** The nonce at `index` (0…3999) of block `block`: 12 decimal digits. */
export function blockNonce(block, index) {
  const lane = Math.floor(index / 1000);
  return String(block).padStart(8, '0') + lane + String(index % 1000).padStart(3, '0');
}

/**
 * The padded message of the nonces of block `block` as 16 words per lane, with the 3 inner
 * digits `000`: `words[4 * t + lane]`, as the SIMD module reads them.
 */
export function laneWords(prefix, block) {
  const message = new Uint8Array(64);
  message.set(prefix);
  const digits = String(block).padStart(8, '0');
  for (let i = 0; i < 8; i++) message[prefix.length + i] = digits.charCodeAt(i);
  message.fill(48, prefix.length + 8, prefix.length + 12);
  message[prefix.length + 12] = 0x80;
  const bits = (prefix.length + 12) * 8;
  message[62] = bits >>> 8;
  message[63] = bits & 0xff;
  const words = new Uint32Array(64);
  for (let lane = 0; lane < 4; lane++) {
    message[prefix.length + 8] = 48 + lane;
    for (let t = 0; t < 16; t++) {
      const o = 4 * t;
      words[4 * t + lane] = ((message[o] << 24) | (message[o + 1] << 16) | (message[o + 2] << 8) | message[o + 3]) >>> 0;
    }
  }
  return words;
}

/**
 * A searcher for `prefix` (the UTF-8 bytes of `salt ":"`): `search(block, bits)` hashes the
 * block's 4,000 nonces and returns those whose digest starts with at least `bits` zero bits
 * (1…32), as `[nonce, zeroBits]` pairs. `kind` says how it hashes: `simd`, `scalar` or `any`.
 * `simdBytes` is the SIMD module for the prefix's length, or null for no WebAssembly.
 */
export function makeSearcher(prefix, simdBytes) {
  const k = roundConstants();
  const iv = initialState();
  if (prefix.length > 64 - 9 - 12) {
    // A long salt: whole messages, one at a time.
    const message = new Uint8Array(prefix.length + 12);
    message.set(prefix);
    return {
      kind: 'any',
      search(block, bits) {
        const hits = [];
        for (let index = 0; index < 4000; index++) {
          const nonce = blockNonce(block, index);
          for (let i = 0; i < 12; i++) message[prefix.length + i] = nonce.charCodeAt(i);
          const digest = sha256Words(message);
          const zeros = zeroBits(digest[0], digest[1]);
          if (zeros >= bits) hits.push([nonce, zeros]);
        }
        return hits;
      },
    };
  }
  if (simdBytes) {
    try {
      const instance = new WebAssembly.Instance(new WebAssembly.Module(simdBytes), {});
      const memory = new Uint32Array(instance.exports.memory.buffer);
      const run = instance.exports.run;
      return {
        kind: 'simd',
        search(block, bits) {
          memory.set(laneWords(prefix, block), 0);
          const mask = bits >= 32 ? -1 : ~(0xffffffff >>> bits);
          const records = run(mask);
          const hits = [];
          for (let r = 0; r < records; r++) {
            const at = (512 + 32 * r) / 4;
            const inner = memory[at];
            for (let lane = 0; lane < 4; lane++) {
              const first = memory[at + 4 + lane];
              if ((first & mask) !== 0) continue;
              const index = lane * 1000 + inner;
              // Past 32 bits the second word tells; the module keeps the first only.
              const zeros = first === 0 ? zeroBits(0, sha256OfNonce(prefix, blockNonce(block, index))[1]) : Math.clz32(first);
              hits.push([blockNonce(block, index), zeros]);
            }
          }
          return hits;
        },
      };
    } catch (_) {
      // WebAssembly refused (a Content-Security-Policy without 'wasm-unsafe-eval'): scalar.
    }
  }
  const words = new Uint32Array(16);
  const state = new Uint32Array(8);
  const schedule = new Uint32Array(64);
  // Where each of the 3 inner digits sits: its word, and its shift in that word.
  const innerAt = [0, 1, 2].map((i) => prefix.length + 9 + i);
  const [w0, w1, w2] = innerAt.map((at) => at >>> 2);
  const [s0, s1, s2] = innerAt.map((at) => 8 * (3 - (at & 3)));
  return {
    kind: 'scalar',
    search(block, bits) {
      const lanes = laneWords(prefix, block);
      const hits = [];
      for (let lane = 0; lane < 4; lane++) {
        for (let inner = 0; inner < 1000; inner++) {
          for (let t = 0; t < 16; t++) words[t] = lanes[4 * t + lane];
          words[w0] += ((inner / 100) | 0) << s0;
          words[w1] += (((inner / 10) | 0) % 10) << s1;
          words[w2] += (inner % 10) << s2;
          state.set(iv);
          sha256Compress(state, words, k, schedule);
          const zeros = zeroBits(state[0], state[1]);
          if (zeros >= bits) hits.push([blockNonce(block, lane * 1000 + inner), zeros]);
        }
      }
      return hits;
    },
  };
}

/** SHA-256 of `prefix` followed by the text `nonce`: the digest's 8 words. */
export function sha256OfNonce(prefix, nonce) {
  const message = new Uint8Array(prefix.length + nonce.length);
  message.set(prefix);
  for (let i = 0; i < nonce.length; i++) message[prefix.length + i] = nonce.charCodeAt(i);
  return sha256Words(message);
}

/**
 * The bytes of a WebAssembly module that hashes a block of nonces for a prefix of
 * `prefixLength` bytes (at most ONE_BLOCK_PREFIX), four lanes at a time with 128-bit SIMD.
 *
 * Its memory: bytes 0–255 the message words per lane (`laneWords`); from byte 512, one record of
 * 32 bytes per inner count where some lane hit: the count, then at +16 the four lanes' first
 * digest words. `run(mask)` returns the number of records; a lane hit when its first digest
 * word AND `mask` is 0.
 */
export function simdModuleBytes(prefixLength) {
  const k = roundConstants();
  const iv = initialState();
  const code = [];
  const emit = (...bytes) => { for (const b of bytes) code.push(b); };
  const uleb = (n) => { const out = []; do { let b = n & 0x7f; n >>>= 7; if (n) b |= 0x80; out.push(b); } while (n); return out; };
  const sleb = (n) => {
    const out = [];
    for (;;) {
      const b = n & 0x7f;
      n >>= 7;
      if ((n === 0 && !(b & 0x40)) || (n === -1 && (b & 0x40))) { out.push(b); return out; }
      out.push(b | 0x80);
    }
  };
  const simd = (op) => emit(0xfd, ...uleb(op));
  const get = (l) => emit(0x20, ...uleb(l));
  const set = (l) => emit(0x21, ...uleb(l));
  const i32 = (n) => emit(0x41, ...sleb(n | 0));
  const splatConst = (n) => { simd(0x0c); for (let i = 0; i < 4; i++) emit(n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff); };
  const add = () => simd(0xae);
  const xor = () => simd(0x51);
  const rotr = (l, n) => { get(l); i32(n); simd(0xad); get(l); i32(32 - n); simd(0xab); simd(0x50); };
  const shr = (l, n) => { get(l); i32(n); simd(0xad); };

  // Locals: 0 mask (param); i32: 1 inner, 2 records, 3–5 digits; v128 from 6.
  const i32Locals = 5;
  let nextLocal = 1 + i32Locals;
  const v128 = () => nextLocal++;
  const INNER = 1, RECORDS = 2, DIGIT = 3;
  const maskLocal = v128(), t1 = v128(), zero = v128();
  const stateLocals = Array.from({ length: 8 }, v128);
  const savedLocals = Array.from({ length: 8 }, v128);
  const w = Array.from({ length: 64 }, v128);       // the schedule, W[t]
  const wk = Array.from({ length: 64 }, v128);      // W[t] + K[t], where W[t] is the same for the whole block
  const partial = Array.from({ length: 64 }, v128); // the part of W[t] that is the same for the whole block

  // Which words change with the inner count, and by how much per digit.
  const innerAt = prefixLength + 9;
  const innerWords = new Map();
  for (let i = 0; i < 3; i++) {
    const at = innerAt + i;
    const word = at >>> 2;
    if (!innerWords.has(word)) innerWords.set(word, []);
    innerWords.get(word).push({ digit: i, shift: 8 * (3 - (at & 3)) });
  }
  const varies = new Array(64).fill(false);
  for (let t = 0; t < 16; t++) varies[t] = innerWords.has(t);
  const terms = (t) => [[t - 2, 's1'], [t - 7, ''], [t - 15, 's0'], [t - 16, '']];
  for (let t = 16; t < 64; t++) varies[t] = terms(t).some(([u]) => varies[u]);
  const firstVarying = varies.indexOf(true);

  // Pushes one schedule term: σ0, σ1 or the word itself.
  const term = (u, kind) => {
    if (kind === 's0') { rotr(w[u], 7); rotr(w[u], 18); xor(); shr(w[u], 3); xor(); }
    else if (kind === 's1') { rotr(w[u], 17); rotr(w[u], 19); xor(); shr(w[u], 10); xor(); }
    else get(w[u]);
  };
  // Computes W[t] (t ≥ 16) from the terms that do (`moving`) or do not change within the block.
  const schedule = (t, moving) => {
    const chosen = terms(t).filter(([u]) => varies[u] === moving);
    if (!moving) {
      if (chosen.length === 0) return;
      chosen.forEach(([u, kind], i) => { term(u, kind); if (i > 0) add(); });
      set(varies[t] ? partial[t] : w[t]);
      return;
    }
    get(partial[t]);
    for (const [u, kind] of chosen) { term(u, kind); add(); }
    set(w[t]);
  };
  // One round with the working variables in `names` [a…h]; returns the names after it.
  const round = (t, names) => {
    const [a, b, c, d, e, f, g, h] = names;
    get(h);
    rotr(e, 6); rotr(e, 11); xor(); rotr(e, 25); xor(); add();
    get(f); get(g); get(e); simd(0x52); add(); // Ch = bitselect(f, g, e)
    if (varies[t]) { get(w[t]); splatConst(k[t]); add(); } else get(wk[t]);
    add();
    set(t1);
    get(d); get(t1); add(); set(d);
    get(t1);
    rotr(a, 2); rotr(a, 13); xor(); rotr(a, 22); xor(); add();
    get(c); get(b); get(a); get(b); xor(); simd(0x52); add(); // Maj = bitselect(c, b, a ^ b)
    set(h);
    return [h, a, b, c, d, e, f, g];
  };

  // Once per block: the words, the schedule's fixed parts, and the rounds before the first change.
  get(0); simd(0x11); set(maskLocal);
  splatConst(0); set(zero);
  for (let t = 0; t < 16; t++) {
    i32(0); simd(0x00); emit(4, ...uleb(16 * t)); set(w[t]);
  }
  for (let t = 16; t < 64; t++) schedule(t, false);
  for (let t = 0; t < 64; t++) {
    if (!varies[t]) { get(w[t]); splatConst(k[t]); add(); set(wk[t]); }
  }
  let names = stateLocals;
  for (let i = 0; i < 8; i++) { splatConst(iv[i]); set(names[i]); }
  for (let t = 0; t < firstVarying; t++) names = round(t, names);
  const saved = names;
  for (let i = 0; i < 8; i++) { get(saved[i]); set(savedLocals[i]); }
  i32(0); set(INNER);
  i32(0); set(RECORDS);

  // Per inner count: its digits into the words that hold them, then the remaining rounds.
  emit(0x03, 0x40); // loop
  get(INNER); i32(100); emit(0x6e); set(DIGIT);
  get(INNER); i32(10); emit(0x6e); i32(10); emit(0x70); set(DIGIT + 1);
  get(INNER); i32(10); emit(0x70); set(DIGIT + 2);
  for (const [word, digits] of innerWords) {
    i32(0); simd(0x00); emit(4, ...uleb(16 * word));
    digits.forEach(({ digit, shift }, i) => {
      get(DIGIT + digit); i32(shift); emit(0x74);
      if (i > 0) emit(0x72);
    });
    simd(0x11); add(); set(w[word]);
  }
  for (let t = 16; t < 64; t++) if (varies[t]) schedule(t, true);
  names = saved;
  for (let i = 0; i < 8; i++) { get(savedLocals[i]); set(names[i]); }
  for (let t = firstVarying; t < 64; t++) names = round(t, names);
  // The first digest word: a + IV[0]; a record when some lane's masked word is 0.
  get(names[0]); splatConst(iv[0]); add(); set(t1);
  get(t1); get(maskLocal); simd(0x4e); get(zero); simd(0x37); simd(0x53);
  emit(0x04, 0x40); // if
  get(RECORDS); i32(5); emit(0x74); i32(512); emit(0x6a); get(INNER); emit(0x36, 2, 0);
  get(RECORDS); i32(5); emit(0x74); i32(512); emit(0x6a); get(t1); simd(0x0b); emit(4, 16);
  get(RECORDS); i32(1); emit(0x6a); set(RECORDS);
  emit(0x0b); // end if
  get(INNER); i32(1); emit(0x6a); set(INNER);
  get(INNER); i32(1000); emit(0x49); emit(0x0d, 0); // br_if loop while inner < 1000
  emit(0x0b); // end loop
  get(RECORDS);
  emit(0x0b); // end function

  const locals = [2, ...uleb(i32Locals), 0x7f, ...uleb(nextLocal - 1 - i32Locals), 0x7b];
  const body = [...locals, ...code];
  const section = (id, bytes) => [id, ...uleb(bytes.length), ...bytes];
  const name = (text) => [text.length, ...Array.from(text, (ch) => ch.charCodeAt(0))];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 1, 0x7f, 1, 0x7f]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0, 1]),
    ...section(7, [2, ...name('run'), 0, 0, ...name('memory'), 2, 0]),
    ...section(10, [1, ...uleb(body.length), ...body]),
  ]);
}
