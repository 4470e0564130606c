// Reading the service's answers (widget/network.js) into the session's words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readChallenge, readVerdict } from '../../Sources/TactilePuzzleService/Web/widget/network.js';

const DATE = 'Fri, 04 Dec 2026 07:00:00 GMT';
const reply = (status, json, headers = {}) =>
  new Response(json === undefined ? '' : JSON.stringify(json), { status, headers: { 'Content-Type': 'application/json', ...headers } });
const challenge = {
  id: 'c-1', axis: 'horizontal', imageWidth: 640, imageHeight: 360, pieceWidth: 80, pieceHeight: 80, pieceY: 152,
  background: '/v1/challenges/c-1/background', piece: '/v1/challenges/c-1/piece', expiresAt: '2026-12-04T07:01:00Z',
};
const { expiresAt: _, ...lasting } = challenge;

const challengeCases = [
  ['a challenge, its lifetime by the service\u2019s Date', reply(200, challenge, { Date: DATE }), { challenge, lifetime: 60 }],
  ['a challenge without expiresAt lives on', reply(200, lasting), { challenge: lasting, lifetime: null }],
  ['a 429 with Retry-After in seconds', reply(429, { 'error-codes': ['rate-limited'] }, { 'Retry-After': '12' }), { retryAfter: 12 }],
  ['a 429 without Retry-After waits 30 s', reply(429, undefined), { retryAfter: 30 }],
  ['Retry-After is held to 1 s…1 h', reply(429, undefined, { 'Retry-After': '7200' }), { retryAfter: 3600 }],
  ['Retry-After 0 is 1 s', reply(429, undefined, { 'Retry-After': '0' }), { retryAfter: 1 }],
  ['an unknown site key is the site\u2019s set-up', reply(400, { error: 'invalid-sitekey' }), { reason: 'invalid-sitekey', setup: true }],
  ['a 403 is the site\u2019s set-up whatever its code', reply(403, { 'error-codes': ['forbidden'] }), { reason: 'forbidden', setup: true }],
  ['a server error without JSON is its status', reply(503, undefined), { reason: 'http-503', setup: false }],
  ['a challenge missing a field is refused', reply(200, { ...challenge, pieceWidth: 0 }), { reason: 'bad-challenge', setup: false }],
  ['a piece wider than the picture is refused', reply(200, { ...challenge, pieceWidth: 641 }), { reason: 'bad-challenge', setup: false }],
];

for (const [name, response, expected] of challengeCases) {
  test(`challenge: ${name}`, async () => assert.deepStrictEqual(await readChallenge(response), expected));
}

const verdictCases = [
  ['a pass, the token\u2019s lifetime by the service\u2019s Date and where the hole is',
    reply(200, { success: true, token: 'T', expiresAt: '2026-12-04T07:05:00Z', x: 301, y: 152 }, { Date: DATE }),
    { verdict: 'passed', token: 'T', lifetime: 300, x: 301, y: 152 }],
  ['a pass without expiresAt', reply(200, { success: true, token: 'T' }),
    { verdict: 'passed', token: 'T', lifetime: null, x: undefined, y: undefined }],
  ['a miss', reply(200, { success: false, 'error-codes': ['not-passed'] }), { verdict: 'not-passed' }],
  ['an expired puzzle', reply(200, { success: false, 'error-codes': ['expired'] }), { verdict: 'expired' }],
  ['rate-limited in the answer locks', reply(200, { success: false, 'error-codes': ['rate-limited'] }, { 'Retry-After': '9' }),
    { verdict: 'locked', retryAfter: 9 }],
  ['a 429 locks', reply(429, undefined, { 'Retry-After': '5' }), { verdict: 'locked', retryAfter: 5 }],
  ['a pass without a token cannot be read', reply(200, { success: true, token: '' }), { reason: 'http-200' }],
  ['an error names its code', reply(400, { 'error-codes': ['bad-request'] }), { reason: 'bad-request' }],
];

for (const [name, response, expected] of verdictCases) {
  test(`verdict: ${name}`, async () => assert.deepStrictEqual(await readVerdict(response), expected));
}
