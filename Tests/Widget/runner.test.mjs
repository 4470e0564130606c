// The widget's session runner (widget/runner.js): each step's effects in order, a step asked
// for while effects are performed waits for them, and the page is told after each step — the
// same rule as TactileCore's SessionRunner, with the same cases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionRunner } from '../../Sources/TactilePuzzleService/Web/widget/runner.js';

/** A session that counts, and the log of what its host did. */
function host({ echo }) {
  const state = { count: 0, log: [] };
  state.step = (name) => {
    state.count += 1;
    return name === 'start'
      ? [`show ${state.count}`, 'ask', `show again ${state.count}`]
      : [`got ${name} at ${state.count}`];
  };
  state.runner = new SessionRunner(
    (effect) => {
      state.log.push(effect);
      // An effect that reports back at once, as a verdict already known does.
      if (echo && effect === 'ask') state.runner.run(() => state.step('answer'));
    },
    () => state.log.push(`settled at ${state.count}`),
  );
  return state;
}

test('effects run in order, and a step asked for by one of them waits for the rest', () => {
  const h = host({ echo: true });
  h.runner.run(() => h.step('start'));
  assert.deepEqual(h.log, ['show 1', 'ask', 'show again 1', 'settled at 1', 'got answer at 2', 'settled at 2']);
});

test('steps one after another each settle', () => {
  const h = host({ echo: false });
  h.runner.run(() => h.step('start'));
  h.runner.run(() => h.step('tap'));
  assert.deepEqual(h.log, ['show 1', 'ask', 'show again 1', 'settled at 1', 'got tap at 2', 'settled at 2']);
});

test('a step that throws does not leave the runner stuck', () => {
  const h = host({ echo: false });
  assert.throws(() => h.runner.run(() => { throw new Error('broken'); }));
  h.runner.run(() => h.step('tap'));
  assert.deepEqual(h.log, ['got tap at 1', 'settled at 1']);
});
