/*
 * Carries out what a session asks, in order: the one way the widget drives its PuzzleSession
 * (the app's pages drive theirs with TactileCore's SessionRunner, the same rule in Swift).
 *
 * A step changes the session and returns its effects, which the runner hands to `perform` one
 * by one. Performing may report something back at once (a verdict already known, a callback
 * of the page); such a step waits until every effect of the step before has been performed,
 * so effects are never interleaved and a step always sees the session its predecessor left.
 * `settled` runs after each step's effects.
 */

export class SessionRunner {
  constructor(perform, settled = () => {}) {
    this.perform = perform;
    this.settled = settled;
    this.waiting = [];
    this.running = false;
  }

  /** Runs `step` and performs its effects; from inside an effect, after the steps already waiting. */
  run(step) {
    this.waiting.push(step);
    if (this.running) return;
    this.running = true;
    try {
      while (this.waiting.length) {
        for (const effect of this.waiting.shift()()) this.perform(effect);
        this.settled();
      }
    } finally {
      this.running = false;
    }
  }
}
