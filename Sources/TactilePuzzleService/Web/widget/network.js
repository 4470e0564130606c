/*
 * Talking to the service the widget was loaded from: requests with a timeout, and what its
 * answers mean — a challenge, a verdict, a refusal — read into the words of the session's events.
 */

/** The service: where /widget.js came from (this module is /widget/network.js). */
export const SERVICE = new URL('../', import.meta.url);

/** How long a request may take, ms. */
const REQUEST_TIMEOUT = 15000;

/** Refusal codes that mean the site is set up wrongly, not that the service is down. */
const SETUP_CODES = ['invalid-sitekey', 'invalid-hostname', 'origin-not-allowed'];

/** POSTs `body` as JSON to `path` of the service, giving up after REQUEST_TIMEOUT. */
export async function post(path, body) {
  const controller = typeof AbortController === 'function' ? new AbortController() : null;
  const timer = controller && setTimeout(() => controller.abort(), REQUEST_TIMEOUT);
  try {
    return await fetch(new URL(path, SERVICE), {
      method: 'POST', mode: 'cors', credentials: 'omit', cache: 'no-store',
      headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
      signal: controller ? controller.signal : undefined,
    });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What POST /v1/challenges answered: {challenge, lifetime} (seconds until it expires by the
 * service's clock, or null), {retryAfter} (seconds, a 429), or {reason, setup} (a code, and
 * whether the site's set-up is to blame).
 */
export async function readChallenge(response) {
  if (response.status === 429) return { retryAfter: retryAfter(response) };
  const json = await response.json().catch(() => null);
  if (!response.ok) {
    const reason = errorCode(json, response.status);
    return { reason, setup: SETUP_CODES.includes(reason) || response.status === 403 };
  }
  const challenge = validChallenge(json);
  if (!challenge) return { reason: 'bad-challenge', setup: false };
  return { challenge, lifetime: secondsUntil(challenge.expiresAt, response) };
}

/**
 * What POST /v1/challenges/ID/answer answered: {verdict: 'passed', token, lifetime, x, y}
 * (x, y: where the hole is, when the service says), {verdict: 'expired' | 'not-passed'},
 * {verdict: 'locked', retryAfter}, or {reason} when it cannot be read as a verdict.
 */
export async function readVerdict(response) {
  if (response.status === 429) return { verdict: 'locked', retryAfter: retryAfter(response) };
  const json = await response.json().catch(() => null);
  if (response.ok && json && json.success === true && typeof json.token === 'string' && json.token) {
    return { verdict: 'passed', token: json.token, lifetime: secondsUntil(json.expiresAt, response), x: json.x, y: json.y };
  }
  if (response.ok && json && json.success === false) {
    const codes = Array.isArray(json['error-codes']) ? json['error-codes'] : [];
    if (codes.includes('rate-limited')) return { verdict: 'locked', retryAfter: retryAfter(response) };
    if (codes.includes('expired')) return { verdict: 'expired' };
    return { verdict: 'not-passed' };
  }
  return { reason: errorCode(json, response.status) };
}

/** The challenge's pictures, from the service's own origin only; null when either is elsewhere. */
export function pictureURLs(challenge) {
  const background = new URL(challenge.background, SERVICE);
  const piece = new URL(challenge.piece, SERVICE);
  if (background.origin !== SERVICE.origin || piece.origin !== SERVICE.origin) return null;
  return { background: background.href, piece: piece.href };
}

/** Seconds from the response's Date (the service's clock; this one's when unreadable) to `time`, or null. */
function secondsUntil(time, response) {
  const at = Date.parse(time || '');
  if (!Number.isFinite(at)) return null;
  const serverNow = Date.parse(response.headers.get('Date') || '');
  return (at - (Number.isFinite(serverNow) ? serverNow : Date.now())) / 1000;
}

/** Seconds to wait from a Retry-After header (seconds or an HTTP date), 1…3600; 30 when absent. */
function retryAfter(response) {
  const value = response.headers.get('Retry-After');
  let seconds = Number.NaN;
  if (value && /^\d+$/.test(value.trim())) seconds = Number(value.trim());
  else if (value) seconds = (Date.parse(value) - Date.now()) / 1000;
  return Number.isFinite(seconds) ? Math.min(3600, Math.max(1, Math.ceil(seconds))) : 30;
}

/** The code of a refusal: the first of "error-codes", or "error" when it is a code (the service
 * says {"error": "invalid-sitekey"}), else "http-" and the status. */
function errorCode(json, status) {
  const first = json && Array.isArray(json['error-codes']) ? json['error-codes'][0] : undefined;
  if (typeof first === 'string' && first) return first;
  if (json && typeof json.error === 'string' && /^[a-z][a-z0-9-]{0,63}$/.test(json.error)) return json.error;
  return `http-${status}`;
}

const isCount = (v) => Number.isInteger(v) && v > 0 && v <= 10000;

/** The challenge if the service's answer has every field the widget needs, else null. */
function validChallenge(c) {
  if (!c || typeof c !== 'object') return null;
  if (typeof c.id !== 'string' || !/^[\w-]{1,128}$/.test(c.id)) return null;
  if (!['horizontal', 'vertical', 'free'].includes(c.axis)) return null;
  if (![c.imageWidth, c.imageHeight, c.pieceWidth, c.pieceHeight].every(isCount)) return null;
  if (c.pieceWidth > c.imageWidth || c.pieceHeight > c.imageHeight) return null;
  if (typeof c.background !== 'string' || typeof c.piece !== 'string') return null;
  return c;
}
