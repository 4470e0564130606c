/*
 * One captcha on the page. Its flow is a PuzzleSession; the Widget performs the session's
 * effects (asks the service, sends the attempt, animates, hands over the token, shows the
 * phase, keeps one timer) and reports back with events. It holds no flow of its own.
 */

import { PuzzleSession } from './session.js';
import { SessionRunner } from './runner.js';
import { PuzzleView, loadStyles, reducedMotion } from './dom.js';
import { PuzzleInput } from './input.js';
import { post, readChallenge, readVerdict, pictureURLs } from './network.js';
import { Price, validProofOfWork, DEEPER_GRACE_MS } from './work.js';
import { TEXTS, language } from './texts.js';

/** The longest a browser timer waits, ms; a later wake-up is reached in several waits. */
const LONGEST_TIMER = 2147483647;

export class Widget {
  constructor(host, options, id) {
    this.host = host;
    this.id = id;
    const data = host.dataset;
    this.sitekey = options.sitekey ?? data.sitekey ?? '';
    this.action = options.action ?? data.action;
    const lang = language(options.lang ?? data.lang);
    this.text = TEXTS[lang];
    this.callbacks = {
      success: options.callback ?? data.callback,
      expired: options['expired-callback'] ?? data.expiredCallback,
      error: options['error-callback'] ?? data.errorCallback,
    };
    this.token = '';
    this.session = new PuzzleSession({ failurePause: reducedMotion() ? 0.6 : 0.9 });
    this.runner = new SessionRunner((effect) => this.perform(effect), () => this.callPage());
    this.now = 0; // when the event being handled was handed to the session, s
    this.calls = []; // the page's callbacks, called once the effects of an event are all performed
    this.pending = null; // the puzzle fetched for the session's request, until it is shown
    this.attempt = null; // what the session's next submit sends
    this.hole = null; // where the service says the hole is, for the pass's snap
    this.refusedForSetup = false; // whether the last refusal blames the site's set-up
    this.price = null;
    this.timer = null;
    this.removed = false;
    this.view = new PuzzleView(host, id, this.text, lang, options.theme ?? data.theme ?? 'auto');
    this.input = new PuzzleInput(this.view, {
      answerStarted: () => this.report({ type: 'answerStarted' }),
      answered: (body) => this.answer({ body }),
    });
    this.view.refreshButton.addEventListener('click', () => this.report({ type: 'newPuzzle' }));
    this.view.altButton.addEventListener('click', () => this.proveWork());
    this.report({ type: 'newPuzzle' });
  }

  /** Hands `event` to the session and performs its effects in order, then calls the page's callbacks. An
   * event reported while effects are performed waits until they are done. */
  report(event) {
    if (this.removed) return;
    this.runner.run(() => {
      if (this.removed) return [];
      this.now = Date.now() / 1000;
      return this.session.handle(event, this.now);
    });
  }

  /** Calls the page's callbacks that the last event's effects asked for. */
  callPage() {
    const calls = this.calls;
    this.calls = [];
    for (const [kind, ...args] of calls) this.call(kind, ...args);
  }

  perform(effect) {
    const now = this.now;
    switch (effect.type) {
      case 'fetch': return void this.load(effect.request);
      case 'submit': return void this.send(effect.request);
      case 'settle': return this.settle(effect.verdict);
      case 'token': return this.handOver(effect.token);
      case 'show': return this.show(effect, now);
      case 'schedule': return this.wakeAt(effect.at);
      default: return undefined;
    }
  }

  /** Whether `request` is still the session's latest: results for older ones are not worth reading. */
  isCurrent(request) {
    return !this.removed && request === this.session.request;
  }

  // Effects

  /** Asks the service for puzzle `request` and reports what came of it, once the style sheet applies too. */
  async load(request) {
    this.stopWorking();
    this.input.reset();
    this.pending = null;
    this.attempt = null;
    delete this.view.root.dataset.priceMs;
    let result;
    try {
      [result] = await Promise.all([this.fetchChallenge(request), loadStyles()]);
    } catch (_) {
      result = { reason: 'network-error' };
    }
    if (!this.isCurrent(request)) return;
    if (result.reason) {
      this.refusedForSetup = result.setup === true;
      this.report({ type: 'challengeRefused', request, reason: result.reason });
    } else if (result.retryAfter) {
      this.report({ type: 'challengeRefused', request, retryAfter: result.retryAfter });
    } else {
      this.pending = { request, challenge: result.challenge };
      this.report({ type: 'challengeLoaded', request, lifetime: result.lifetime });
    }
  }

  /** A challenge with its pictures loaded ({challenge, lifetime}), or why there is none. */
  async fetchChallenge(request) {
    if (!this.sitekey) return { reason: 'missing-sitekey', setup: true };
    const body = { sitekey: this.sitekey };
    if (this.action) body.action = this.action;
    const response = await post('v1/challenges', body);
    const result = await readChallenge(response);
    if (!result.challenge || !this.isCurrent(request)) return result;
    // Images come from the service's own origin, never from anywhere else.
    const pictures = pictureURLs(result.challenge);
    if (!pictures) return { reason: 'bad-challenge', setup: false };
    await this.view.loadPictures(pictures);
    return result;
  }

  /** Sends the attempt held for puzzle `request` and reports the verdict. */
  async send(request) {
    const attempt = this.attempt;
    this.attempt = null;
    if (attempt.error) return this.report({ type: 'checkFailed', request, reason: attempt.error });
    let result;
    try {
      let body = attempt.body;
      if (!body.proofOfWork && this.price) {
        const nonce = await this.price.paid(DEEPER_GRACE_MS);
        if (!this.isCurrent(request)) return;
        if (typeof nonce === 'string') body = { ...body, proofOfWork: { nonce } };
      }
      const id = encodeURIComponent(this.view.challenge.id);
      result = await readVerdict(await post(`v1/challenges/${id}/answer`, body));
    } catch (_) {
      result = { reason: 'network-error' };
    }
    if (!this.isCurrent(request)) return;
    if (result.reason) return this.report({ type: 'checkFailed', request, reason: result.reason });
    this.hole = { x: result.x, y: result.y };
    const { verdict, token, lifetime, retryAfter } = result;
    this.report({ type: 'verdictArrived', request, verdict, token, lifetime, retryAfter });
  }

  settle(verdict) {
    if (verdict === 'passed') this.view.snap(this.hole || {});
    if (verdict === 'not-passed') this.view.flash('tactile-shake', 450);
  }

  /** Puts the token in the form and tells the page; forgets it (the page hears it lapsed) on null. */
  handOver(token) {
    if (token) {
      this.setToken(token);
      this.calls.push(['success', token]);
    } else if (this.token) {
      this.setToken('');
      this.calls.push(['expired']);
    }
  }

  setToken(token) {
    this.token = token;
    this.view.input.value = token;
  }

  show({ phase, notice, until, reason }, now) {
    const { view, text } = this;
    const noticeText = { expired: text.expired, 'not-passed': text.notPassed, 'token-expired': text.tokenExpired }[notice] || '';
    switch (phase) {
      case 'loading':
        view.setState('loading');
        // Read out when the puzzle goes because of the service; a miss was read out as it happened.
        return view.say(noticeText, { tone: notice ? 'bad' : '', announce: notice === 'expired' || notice === 'token-expired' });
      case 'ready':
        if (this.pending && this.isCurrent(this.pending.request)) this.showPuzzle(this.pending.challenge);
        view.setState('ready');
        return view.say(noticeText, { tone: notice ? 'bad' : '', announce: false });
      case 'checking':
        view.setState('checking');
        return view.say(text.checking, { announce: false });
      case 'passed':
        view.setState('passed');
        return view.say(text.passed, { tone: 'ok' });
      case 'failed':
        view.setState('failed');
        return view.say(text.notPassed, { tone: 'bad' });
      case 'locked': {
        const first = view.state !== 'limited'; // read out once; the countdown is visual
        this.stopWorking();
        view.setState('limited');
        return view.say(text.limited(Math.max(1, Math.ceil(until - now))), { tone: 'bad', announce: first });
      }
      case 'unavailable':
        view.setState('error');
        view.say(this.refusedForSetup ? text.misconfigured : text.error, { tone: 'bad' });
        this.refusedForSetup = false;
        this.calls.push(['error', reason]);
        return undefined;
      default:
        return undefined;
    }
  }

  showPuzzle(challenge) {
    this.pending = null;
    const offersWork = validProofOfWork(challenge.proofOfWork);
    this.view.install(challenge, offersWork);
    this.input.reset();
    if (offersWork) {
      const price = new Price(challenge.proofOfWork, (ms) => {
        // How long the price took, for the page's own measurements (no answer in it).
        if (this.price === price) this.view.root.dataset.priceMs = String(Math.round(ms));
      });
      this.price = price;
    }
  }

  /** One timer: a wake-up at `at` (seconds since 1970) replaces any earlier one. */
  wakeAt(at) {
    clearTimeout(this.timer);
    const wait = () => {
      const ms = Math.ceil(at * 1000 - Date.now());
      if (ms > 0) this.timer = setTimeout(wait, Math.min(ms, LONGEST_TIMER));
      else { this.timer = null; this.report({ type: 'timePassed' }); }
    };
    wait();
  }

  // Answers

  /** Holds the attempt for the session's submit and tells it the attempt is complete. */
  answer(attempt) {
    this.attempt = attempt;
    this.report({ type: 'answered' });
  }

  /** Proof of work alone, for people who cannot drag or cannot see the picture: 4 times the price (2 more bits). */
  async proveWork() {
    const { view, text } = this;
    const c = view.challenge;
    if (view.state !== 'ready' || !c || !validProofOfWork(c.proofOfWork)) return;
    const request = this.session.request;
    this.input.reset();
    view.pos = { ...view.start };
    view.layout();
    this.report({ type: 'answerStarted' });
    view.setState('working');
    view.say(text.workingStart);
    const progress = (tried, expected) => {
      if (!this.isCurrent(request)) return;
      const percent = Math.min(99, Math.floor((tried / expected) * 100));
      view.say(text.working(percent), { announce: false });
      view.showProgress(percent);
    };
    // The price's search goes on to the deeper nonces; a stopped one starts again.
    if (!this.price || this.price.search.stopped) {
      if (this.price) this.price.stop();
      this.price = new Price(c.proofOfWork, () => {});
    }
    const nonce = await this.price.alone(progress);
    if (nonce === null || !this.isCurrent(request)) return;
    view.say(text.working(100), { announce: false });
    this.answer({ body: { proofOfWork: { nonce } } });
  }

  stopWorking() {
    if (this.price) this.price.stop();
    this.price = null;
  }

  call(kind, ...args) {
    const callback = this.callbacks[kind];
    const fn = typeof callback === 'function' ? callback : typeof callback === 'string' ? globalThis[callback] : null;
    if (typeof fn !== 'function') return;
    try { fn(...args); } catch (error) { console.error(`tactile-captcha: the ${kind} callback failed`, error); }
  }

  // API

  /** Forgets the token (the page asked: no expired-callback) and asks for a fresh puzzle. */
  reset() {
    this.setToken('');
    this.report({ type: 'newPuzzle' });
  }

  remove() {
    this.removed = true;
    clearTimeout(this.timer);
    this.stopWorking();
    this.view.remove(this.host);
  }
}
