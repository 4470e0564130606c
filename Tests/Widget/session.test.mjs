// The captcha's client flow (widget/session.js) against the table the Swift PuzzleSession reads
// too: every step's effects compared as a whole array.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PuzzleSession } from '../../Sources/TactilePuzzleService/Web/widget/session.js';

const table = JSON.parse(readFileSync(new URL('../Shared/puzzle-session.json', import.meta.url), 'utf8'));

for (const { name, options, steps } of table) {
  test(name, () => {
    const session = new PuzzleSession(options);
    steps.forEach(({ now, event, effects }, index) => {
      assert.deepStrictEqual(session.handle(event, now), effects, `step ${index + 1}: ${JSON.stringify(event)} at ${now}`);
    });
  });
}

test('the table names every event and effect of the spec', () => {
  const events = new Set(table.flatMap((c) => c.steps.map((s) => s.event.type)));
  const effects = new Set(table.flatMap((c) => c.steps.flatMap((s) => s.effects.map((e) => e.type))));
  assert.deepStrictEqual([...events].sort(), ['answerStarted', 'answered', 'challengeLoaded', 'challengeRefused',
    'checkFailed', 'newPuzzle', 'timePassed', 'verdictArrived']);
  assert.deepStrictEqual([...effects].sort(), ['fetch', 'schedule', 'settle', 'show', 'submit', 'token']);
});

test('a fresh session waits for newPuzzle: loading, request 0, no notice, no times', () => {
  const s = new PuzzleSession();
  assert.deepStrictEqual(
    [s.request, s.phase, s.notice, s.answering, s.refreshAt, s.failedUntil, s.lockedUntil, s.tokenExpiresAt, s.failurePause],
    [0, 'loading', null, false, null, null, null, null, 0.9]);
});
