// The widget's proof of work (widget/hashing.js, widget/work.js): its SHA-256 against Node's,
// the SIMD WebAssembly and scalar searches against the table of answers whose verdicts
// Python's hashlib decided (Tests/Shared/proof-of-work-cases.json, which the Swift verifier is
// tested with too), and the search: several nonces, the deeper price continuing the same search.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import {
  sha256Words, sha256OfNonce, makeSearcher, simdModuleBytes, blockNonce, zeroBits, ONE_BLOCK_PREFIX, BLOCK_NONCES,
} from '../../Sources/TactilePuzzleService/Web/widget/hashing.js';
import {
  Search, Price, validProofOfWork, ALONE_SURCHARGE, WORKER_SOURCE,
} from '../../Sources/TactilePuzzleService/Web/widget/work.js';

const table = JSON.parse(readFileSync(new URL('../Shared/proof-of-work-cases.json', import.meta.url), 'utf8'));
const encode = (text) => new TextEncoder().encode(text);

/** Leading zero bits of SHA-256(text), by Node's crypto. */
function nodeZeros(text) {
  const digest = createHash('sha256').update(text).digest();
  let bits = 0;
  for (const byte of digest) {
    if (byte === 0) { bits += 8; continue; }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

test('SHA-256 of every length up to three blocks matches Node', () => {
  for (let length = 0; length <= 200; length++) {
    const bytes = randomBytes(length);
    const words = sha256Words(new Uint8Array(bytes));
    const hex = Array.from(words, (w) => w.toString(16).padStart(8, '0')).join('');
    assert.equal(hex, createHash('sha256').update(bytes).digest('hex'), `length ${length}`);
  }
});

test('the SIMD module is valid WebAssembly for every prefix that fits one block', () => {
  for (let length = 1; length <= ONE_BLOCK_PREFIX; length++) {
    assert.ok(WebAssembly.validate(simdModuleBytes(length)), `prefix of ${length} bytes`);
  }
});

test('every answer of the table hashes to its verdict', () => {
  assert.ok(table.cases.length >= 20);
  for (const c of table.cases) {
    const prefix = encode(c.salt + ':');
    const nonces = c.answer.split(',');
    const split = Math.log2(c.parts);
    const splits = nonces.length === c.parts && Number.isInteger(split) && c.parts <= 64 && c.difficulty > split;
    const bits = (nonces.length === 1 ? c.difficulty : c.difficulty - split) + c.extraBits;
    const each = nonces.map((n) => {
      const d = sha256OfNonce(prefix, n);
      return /^[0-9]{1,20}$/.test(n) && zeroBits(d[0], d[1]) >= bits;
    });
    const solved = (nonces.length === 1 || splits) && new Set(nonces).size === nonces.length && each.every(Boolean);
    assert.equal(solved, c.solved, c.note);
  }
});

test('the SIMD and scalar searches find exactly the nonces of a block Node finds', () => {
  const salts = new Set(table.cases.map((c) => c.salt));
  for (const salt of salts) {
    const prefix = encode(salt + ':');
    const simd = makeSearcher(prefix, prefix.length <= ONE_BLOCK_PREFIX ? simdModuleBytes(prefix.length) : null);
    const scalar = makeSearcher(prefix, null);
    assert.equal(simd.kind, prefix.length <= ONE_BLOCK_PREFIX ? 'simd' : 'any');
    for (const block of [0, 1, 99_999_999]) {
      const truth = [];
      for (let i = 0; i < BLOCK_NONCES; i++) {
        const nonce = blockNonce(block, i);
        const zeros = nodeZeros(`${salt}:${nonce}`);
        if (zeros >= 5) truth.push([nonce, zeros]);
      }
      const sorted = (hits) => hits.map(([n, z]) => `${n}:${z}`).sort();
      assert.deepEqual(sorted(simd.search(block, 5)), sorted(truth), `${simd.kind}, salt ${salt}, block ${block}`);
      assert.deepEqual(sorted(scalar.search(block, 5)), sorted(truth), `${scalar.kind}, salt ${salt}, block ${block}`);
    }
  }
  // And every widget nonce of the table is found by the search of its block, with its bits.
  for (const c of table.cases.filter((c) => c.solved && /^\d{12}(,\d{12}){15}$/.test(c.answer))) {
    const prefix = encode(c.salt + ':');
    const searcher = makeSearcher(prefix, prefix.length <= ONE_BLOCK_PREFIX ? simdModuleBytes(prefix.length) : null);
    for (const nonce of c.answer.split(',')) {
      const hits = searcher.search(Number(nonce.slice(0, 8)), c.difficulty - Math.log2(c.parts) + c.extraBits);
      assert.ok(hits.some(([n]) => n === nonce), `${nonce} of "${c.note}"`);
    }
  }
});

test('a challenge may offer its price in parts; a bad split is refused', () => {
  assert.ok(validProofOfWork({ salt: 'ab', difficulty: 22, parts: 16 }));
  assert.ok(validProofOfWork({ salt: 'ab', difficulty: 22 }));
  assert.ok(validProofOfWork({ salt: 'ab', difficulty: 5, parts: 16 }));
  for (const parts of [0, 12, 128, 1.5, '16', null]) {
    assert.ok(!validProofOfWork({ salt: 'ab', difficulty: 22, parts }), `parts ${parts}`);
  }
  assert.ok(!validProofOfWork({ salt: 'ab', difficulty: 4, parts: 16 }), 'no bit left for each part');
});

test('a search on the page finds 16 different nonces, and the deeper price continues it', async () => {
  const salt = '5d1c0a7e93b24f68a1e0c3b79d2f4a65';
  const search = new Search({ salt, difficulty: 12, parts: 16 }, { workers: 0 });
  const answer = await search.found(8);
  const nonces = answer.split(',');
  assert.equal(nonces.length, 16);
  assert.equal(new Set(nonces).size, 16);
  for (const n of nonces) assert.ok(nodeZeros(`${salt}:${n}`) >= 8, n);
  const triedBefore = search.tried;
  const knownBefore = search.nonces.map(([n]) => n);
  const deeper = await search.found(8 + ALONE_SURCHARGE);
  search.stop();
  for (const n of deeper.split(',')) assert.ok(nodeZeros(`${salt}:${n}`) >= 10, n);
  // Continued, not restarted: what was found before is still there, first, and no nonce twice.
  assert.deepEqual(search.nonces.slice(0, knownBefore.length).map(([n]) => n), knownBefore);
  assert.equal(new Set(search.nonces.map(([n]) => n)).size, search.nonces.length);
  assert.ok(search.tried >= triedBefore);
  // A nonce of the price that already had the deeper bits counts for the deeper price.
  const early = search.nonces.filter(([n, z]) => knownBefore.includes(n) && z >= 10).map(([n]) => n);
  for (const n of early.slice(0, 16)) assert.ok(deeper.split(',').includes(n), `${n} was searched again`);
  assert.equal(await search.found(30), null, 'a stopped search answers null');
});

test('a price hands the deeper nonces when they come in time, its own otherwise', async () => {
  const salt = '0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f';
  let paidMs = null;
  const price = new Price({ salt, difficulty: 10, parts: 16 }, (ms) => { paidMs = ms; }, { workers: 0 });
  const deeper = await price.paid(60_000);
  assert.ok(typeof paidMs === 'number');
  for (const n of deeper.split(',')) assert.ok(nodeZeros(`${salt}:${n}`) >= 6 + ALONE_SURCHARGE);
  // No time to wait: the price's own nonces, which pay at least the price.
  const hard = new Price({ salt, difficulty: 11, parts: 16 }, () => {}, { workers: 0 });
  const quick = await hard.paid(0);
  assert.equal(quick.split(',').length, 16);
  for (const n of quick.split(',')) assert.ok(nodeZeros(`${salt}:${n}`) >= 7);
  assert.ok(hard.search.stopped, 'the search stops once the answer goes');
});

test('a challenge without parts is paid with one nonce of all its bits', async () => {
  const salt = 'a';
  const search = new Search({ salt, difficulty: 12 }, { workers: 0 });
  const answer = await search.found(12);
  search.stop();
  assert.match(answer, /^\d{12}$/);
  assert.ok(nodeZeros(`${salt}:${answer}`) >= 12);
});

test('a search on the page leaves the page its timers', async () => {
  // A price no search finishes in the time: the page must still run a 10 ms timer many times
  // a second (a search that never yields runs it 0 times).
  const search = new Search({ salt: 'b', difficulty: 32 }, { workers: 0 });
  let fired = 0;
  const timer = setInterval(() => { fired += 1; }, 10);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  clearInterval(timer);
  search.stop();
  assert.ok(search.tried > 0, 'the search ran');
  assert.ok(fired >= 10, `a 10 ms timer fired ${fired} times in a second of searching`);
});

test('a worker\'s code runs on its own: everything it calls is in it', () => {
  // A worker gets nothing from the page's modules: its source alone, in an empty context. It
  // searches until it is ended: its second message (the first block's finds) ends it here.
  const said = [];
  const ended = new Error('ended');
  const postMessage = (message) => {
    said.push(message);
    if (said.length === 2) throw ended;
  };
  const context = vm.createContext({ postMessage, TextEncoder });
  vm.runInContext(WORKER_SOURCE, context);
  const salt = 'c2FsdA';
  const prefix = new TextEncoder().encode(`${salt}:`);
  for (const simd of [simdModuleBytes(prefix.length), null]) {
    said.length = 0;
    assert.throws(() => context.onmessage({ data: { prefix, simd, first: 0, stride: 1, bits: 8 } }),
      (error) => error === ended);
    assert.equal(said[0].kind, simd ? 'simd' : 'scalar');
    const { hits } = said[1];
    assert.ok(hits.length > 0, 'a block of 4,000 nonces holds a nonce of 8 bits');
    for (const [nonce] of hits) {
      const digest = createHash('sha256').update(`${salt}:${nonce}`).digest();
      assert.equal(digest[0], 0, `${nonce} starts with 8 zero bits`);
    }
  }
});
