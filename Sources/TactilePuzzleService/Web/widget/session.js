/*
 * The captcha's client flow as one value: `handle(event, now)` moves it forward and returns
 * the effects the host must perform. It does no I/O, reads no clock (`now` is seconds since
 * 1970, passed with every event) and keeps no timers; the host fetches, sends, animates and
 * wakes it up, and reports back with events.
 *
 * Events: {type: 'newPuzzle'} · {type: 'challengeLoaded', request, lifetime} ·
 * {type: 'challengeRefused', request, retryAfter} · {type: 'challengeRefused', request, reason} ·
 * {type: 'answerStarted'} · {type: 'answered'} ·
 * {type: 'verdictArrived', request, verdict: 'passed', token, lifetime} ·
 * {type: 'verdictArrived', request, verdict: 'expired' | 'not-passed'} ·
 * {type: 'verdictArrived', request, verdict: 'locked', retryAfter} ·
 * {type: 'checkFailed', request, reason} · {type: 'timePassed'}
 *
 * Effects: {type: 'fetch', request} · {type: 'submit', request} · {type: 'settle', verdict} ·
 * {type: 'token', token} (null: forget it) · {type: 'show', phase, notice?, until?, reason?} ·
 * {type: 'schedule', at} (replaces any earlier wake-up).
 *
 * No puzzle to be had, or an answer that could not be sent or read, is asked again by itself
 * after 5 s, then 10, 20, 40 and every 60 s while it goes on failing (RETRY_DELAYS); a puzzle
 * loaded starts the count again.
 *
 * Times and lifetimes are seconds. Tests/Shared/puzzle-session.json pins every rule.
 */

/** The phases whose `show` carries the notice: why the puzzle shown replaced the previous one. */
const NOTICE_PHASES = new Set(['loading', 'ready', 'failed']);

/** The longest lifetime a puzzle is believed to have; past it (or under a second) the clocks disagree. */
const LONGEST_LIFETIME = 86400;

/** Seconds before a fresh puzzle is asked for after the 1st, 2nd, … failure in a row to have one; the last repeats. */
const RETRY_DELAYS = [5, 10, 20, 40, 60];

export class PuzzleSession {
  /** @param {{failurePause?: number}} options  failurePause: seconds a miss stays on screen. */
  constructor({ failurePause = 0.9 } = {}) {
    this.failurePause = failurePause;
    /** Bumped by every fetch; events about an older request are stale. */
    this.request = 0;
    /** Failures in a row to have a puzzle or a verdict, since a puzzle last loaded. */
    this.unavailableCount = 0;
    this.startLoading(null);
  }

  /** Moves the session forward by `event` at `now` (seconds) and returns the effects, in order. */
  handle(event, now) {
    switch (event.type) {
      case 'newPuzzle': return this.newPuzzle();
      case 'challengeLoaded': return this.isAbout(event, 'loading') ? this.loaded(event.lifetime, now) : [];
      case 'challengeRefused': return this.isAbout(event, 'loading') ? this.refused(event, now) : [];
      case 'answerStarted': return this.answerStarted();
      case 'answered': return this.answered();
      case 'verdictArrived': return this.isAbout(event, 'checking') ? this.verdictArrived(event, now) : [];
      case 'checkFailed': return this.isAbout(event, 'checking') ? this.checkFailed(event.reason, now) : [];
      case 'timePassed': return this.timePassed(now);
      default: return [];
    }
  }

  /** Whether the event answers the latest request, in the phase that waits for it. */
  isAbout(event, phase) {
    return event.request === this.request && this.phase === phase;
  }

  newPuzzle() {
    if (this.phase === 'locked') return [];
    const forget = this.phase === 'passed' ? [{ type: 'token', token: null }] : [];
    return [...forget, ...this.reload(null)];
  }

  /** Asks for a fresh puzzle, showing `notice` while it comes. */
  reload(notice) {
    this.request += 1;
    this.startLoading(notice);
    return [{ type: 'fetch', request: this.request }, this.show()];
  }

  /** Waits for a puzzle, showing `notice`, with no answer, countdown or token pending. */
  startLoading(notice) {
    /** 'loading' | 'ready' | 'checking' | 'passed' | 'failed' | 'locked' | 'unavailable' */
    this.phase = 'loading';
    /** null | 'expired' | 'not-passed' | 'token-expired' */
    this.notice = notice;
    /** Whether a drag, key moves or a proof of work is under way on the ready puzzle. */
    this.answering = false;
    this.refreshAt = null;
    this.failedUntil = null;
    this.lockedUntil = null;
    this.tokenExpiresAt = null;
    this.retryAt = null;
  }

  loaded(lifetime, now) {
    this.phase = 'ready';
    this.answering = false;
    this.unavailableCount = 0;
    const effects = [this.show()];
    if (lifetime !== null && lifetime !== undefined) {
      // Replaced a little before it expires; a lifetime out of range means skewed clocks: a minute.
      const seconds = lifetime > 1 && lifetime < LONGEST_LIFETIME ? lifetime : 60;
      const margin = Math.min(15, Math.max(2, 0.1 * seconds));
      this.refreshAt = now + Math.max(3, seconds - margin);
      effects.push({ type: 'schedule', at: this.refreshAt });
    }
    return effects;
  }

  refused(event, now) {
    if (event.retryAfter !== undefined && event.retryAfter !== null) return this.lock(event.retryAfter, now, false);
    return this.unavailable(event.reason, now);
  }

  /** Shows why there is no puzzle, and asks again later, later each time it goes on. */
  unavailable(reason, now) {
    this.phase = 'unavailable';
    this.unavailableCount += 1;
    this.retryAt = now + RETRY_DELAYS[Math.min(this.unavailableCount, RETRY_DELAYS.length) - 1];
    return [this.show({ reason }), { type: 'schedule', at: this.retryAt }];
  }

  /** Refuses every puzzle for `retryAfter` seconds, counting down each second. */
  lock(retryAfter, now, fromVerdict) {
    this.lockedUntil = now + Math.max(0, retryAfter);
    this.phase = 'locked';
    this.notice = null;
    const settle = fromVerdict ? [{ type: 'settle', verdict: 'locked' }] : [];
    return [...settle, ...this.countdown(now)];
  }

  countdown(now) {
    return [this.show({ until: this.lockedUntil }), { type: 'schedule', at: Math.min(this.lockedUntil, now + 1) }];
  }

  answerStarted() {
    if (this.phase !== 'ready') return [];
    this.answering = true;
    if (this.notice === null) return [];
    this.notice = null;
    return [this.show()];
  }

  answered() {
    if (this.phase !== 'ready') return [];
    this.phase = 'checking';
    this.answering = false;
    this.refreshAt = null;
    return [{ type: 'submit', request: this.request }, this.show()];
  }

  verdictArrived(event, now) {
    switch (event.verdict) {
      case 'passed': {
        this.phase = 'passed';
        const effects = [{ type: 'settle', verdict: 'passed' }, { type: 'token', token: event.token }, this.show()];
        if (event.lifetime !== null && event.lifetime !== undefined) {
          this.tokenExpiresAt = now + Math.max(5, event.lifetime);
          effects.push({ type: 'schedule', at: this.tokenExpiresAt });
        }
        return effects;
      }
      case 'expired':
        return [{ type: 'settle', verdict: 'expired' }, ...this.reload('expired')];
      case 'not-passed':
        this.phase = 'failed';
        this.notice = 'not-passed';
        this.failedUntil = now + this.failurePause;
        return [{ type: 'settle', verdict: 'not-passed' }, this.show(), { type: 'schedule', at: this.failedUntil }];
      case 'locked':
        return this.lock(event.retryAfter, now, true);
      default:
        return [];
    }
  }

  checkFailed(reason, now) {
    return [{ type: 'settle', verdict: 'not-passed' }, ...this.unavailable(reason, now)];
  }

  timePassed(now) {
    switch (this.phase) {
      case 'ready':
        if (this.refreshAt === null || now < this.refreshAt) return [];
        this.refreshAt = null;
        return this.answering ? [] : this.reload(null); // an answer under way will say "expired" if it is late
      case 'failed':
        return now >= this.failedUntil ? this.reload('not-passed') : [];
      case 'locked':
        return now >= this.lockedUntil ? this.reload(null) : this.countdown(now);
      case 'passed':
        if (this.tokenExpiresAt === null || now < this.tokenExpiresAt) return [];
        return [{ type: 'token', token: null }, ...this.reload('token-expired')];
      case 'unavailable':
        return now >= this.retryAt ? this.reload(null) : [];
      default:
        return [];
    }
  }

  /** The `show` effect of the phase now, with the notice where it is shown and `extra` fields. */
  show(extra = {}) {
    const effect = { type: 'show', phase: this.phase };
    if (this.notice !== null && NOTICE_PHASES.has(this.phase)) effect.notice = this.notice;
    return Object.assign(effect, extra);
  }
}
