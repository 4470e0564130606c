// The track an attempt sends (widget/track.js): samples {x, y, t} in hundredths, times that
// strictly increase (a sample at the same instant as the previous one replaces it, the start
// included, as the Swift PuzzleModel records a drag), and the service's cap on samples.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Track, MAX_SAMPLES, round2 } from '../../Sources/TactilePuzzleService/Web/widget/track.js';

// Each case: the start, the origin (ms), options, the samples recorded as [x, y, time], and the track after them.
const cases = [
  {
    name: 'the start alone is the first sample, at t 0',
    start: { x: 0, y: 152 }, origin: 5000, record: [],
    samples: [{ x: 0, y: 152, t: 0 }],
  },
  {
    name: 'later samples are added, times counted from the origin',
    start: { x: 0, y: 152 }, origin: 5000,
    record: [[3, 152, 5016], [9, 153, 5032], [20, 151, 5050]],
    samples: [{ x: 0, y: 152, t: 0 }, { x: 3, y: 152, t: 16 }, { x: 9, y: 153, t: 32 }, { x: 20, y: 151, t: 50 }],
  },
  {
    name: 'positions and times are rounded to hundredths',
    start: { x: 12.3456, y: 7.891 }, origin: 1000.004,
    record: [[3.14159, -2.71828, 1016.6789], [-0.004, 99.996, 1033.333]],
    samples: [{ x: 12.35, y: 7.89, t: 0 }, { x: 3.14, y: -2.72, t: 16.67 }, { x: 0, y: 100, t: 33.33 }],
  },
  {
    name: 'a sample at the same instant as the previous one replaces its position',
    start: { x: 0, y: 40 }, origin: 0,
    record: [[5, 40, 10], [7, 41, 10], [8, 42, 10], [12, 40, 20]],
    samples: [{ x: 0, y: 40, t: 0 }, { x: 8, y: 42, t: 10 }, { x: 12, y: 40, t: 20 }],
  },
  {
    name: 'a sample at the start\u2019s instant replaces the start',
    start: { x: 0, y: 40 }, origin: 100,
    record: [[0.5, 40.25, 100], [6, 40, 116]],
    samples: [{ x: 0.5, y: 40.25, t: 0 }, { x: 6, y: 40, t: 16 }],
  },
  {
    name: 'instants the same to the hundredth of a millisecond are the same instant',
    start: { x: 0, y: 0 }, origin: 0,
    record: [[1, 0, 8.331], [2, 0, 8.334], [3, 0, 8.336]],
    samples: [{ x: 0, y: 0, t: 0 }, { x: 2, y: 0, t: 8.33 }, { x: 3, y: 0, t: 8.34 }],
  },
  {
    name: 'a sample from before the previous one (a clock that steps back) replaces it, keeping its time',
    start: { x: 0, y: 0 }, origin: 0,
    record: [[4, 0, 30], [6, 1, 25], [9, 0, 40]],
    samples: [{ x: 0, y: 0, t: 0 }, { x: 6, y: 1, t: 30 }, { x: 9, y: 0, t: 40 }],
  },
  {
    name: 'a full track keeps its last sample current, so it ends where the piece is',
    start: { x: 0, y: 0 }, origin: 0, options: { maxSamples: 3 },
    record: [[1, 0, 10], [2, 0, 20], [3, 0, 30], [4, 0, 40], [5, 0, 40]],
    samples: [{ x: 0, y: 0, t: 0 }, { x: 1, y: 0, t: 10 }, { x: 5, y: 0, t: 40 }],
  },
];

for (const { name, start, origin, options, record, samples } of cases) {
  test(name, () => {
    const track = new Track(start, origin, options);
    for (const [x, y, time] of record) track.record(x, y, time);
    assert.deepStrictEqual(track.samples, samples);
    assert.equal(track.length, samples.length);
  });
}

test('the cap is the service\u2019s: 10,000 samples, the last the newest', () => {
  assert.equal(MAX_SAMPLES, 10000);
  const track = new Track({ x: 0, y: 0 }, 0);
  for (let i = 1; i <= 10500; i++) track.record(i / 100, 0, i);
  assert.equal(track.length, 10000);
  assert.deepStrictEqual(track.samples.at(-2), { x: 99.98, y: 0, t: 9998 });
  assert.deepStrictEqual(track.samples.at(-1), { x: 105, y: 0, t: 10500 });
  assert.ok(track.samples.every((s, i, all) => i === 0 || s.t > all[i - 1].t), 'times strictly increase');
});

test('round2 rounds to hundredths and never gives -0', () => {
  const table = [[0, 0], [1.234, 1.23], [1.236, 1.24], [-1.234, -1.23], [-1.236, -1.24], [-0.001, 0], [1e-9, 0], [640, 640]];
  for (const [value, rounded] of table) assert.ok(Object.is(round2(value), rounded), `${value} -> ${round2(value)}`);
});

test('a drag says which device made it, as the service names them', async () => {
  const { pointerDevice } = await import('../../Sources/TactilePuzzleService/Web/widget/input.js');
  assert.equal(pointerDevice('touch'), 'touch');
  assert.equal(pointerDevice('pen'), 'pen');
  assert.equal(pointerDevice('mouse'), 'mouse');
  // Older browsers report an empty type for a mouse; anything else is judged as a mouse.
  assert.equal(pointerDevice(''), 'mouse');
  assert.equal(pointerDevice(undefined), 'mouse');
  assert.equal(pointerDevice('eraser'), 'mouse');
});
