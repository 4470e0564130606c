/*
 * Tactile puzzle captcha — the browser widget.
 *
 * A plain ES module served by `tactile puzzle serve` at /widget.js; no build step, no
 * dependencies, and no requests except to the service it was loaded from. A site adds
 *
 *   <div class="tactile-captcha" data-sitekey="…"></div>
 *   <script type="module" src="https://service.example/widget.js"></script>
 *
 * inside its form. The widget fetches a puzzle, lets the person drag the piece (or the
 * slider under the picture) with mouse, touch or pen, or move it with the keyboard, and
 * sends the release position and the drag's track to the service. On a pass it puts the
 * token in a hidden <input name="tactile-captcha-response">, which the site's server
 * checks with POST /v1/siteverify. People who cannot do the puzzle can verify by proof of
 * work instead, when the site allows it.
 *
 * Attributes of the div (or options of render()): data-sitekey (required), data-action,
 * data-lang ("en", "zh-CN"), data-theme ("auto", "light", "dark"), data-callback,
 * data-expired-callback, data-error-callback (names of global functions; render() also
 * takes functions as callback, "expired-callback", "error-callback").
 *
 * JavaScript API, like Turnstile's and hCaptcha's:
 *   window.tactileCaptcha.render(element | selector, options) → widgetId
 *   window.tactileCaptcha.reset(widgetId?)        a fresh puzzle, the token forgotten
 *   window.tactileCaptcha.getResponse(widgetId?)  the token, or "" before a pass
 *   window.tactileCaptcha.remove(widgetId?)
 * The same functions are exported by the module. Load it with ?render=explicit to stop
 * it from rendering the .tactile-captcha divs by itself.
 *
 * The widget takes its container's width, but shows the picture no wider than its natural
 * width and no narrower than 280 px while the container has room: a narrower container (a
 * phone) gets a widget as wide as itself. To make it smaller, make its container smaller.
 */

const SERVICE = new URL('./', import.meta.url);
const EXPLICIT = new URL(import.meta.url).searchParams.get('render') === 'explicit';
const RENDERED = 'data-tactile-widget';
/** Background pixels an arrow key moves the piece: 1 with Shift, else 4 for the first three
 * presses of a key held (or pressed again within KEY_REPEAT_MS), then twice as much every three
 * presses, up to 32, so crossing a picture takes about 30 presses. The service checks each step
 * against these (PuzzleKeySteps in the Swift library). */
const KEY_REPEAT_MS = 300;
function keyStep(repeats) {
  return Math.min(32, 4 * 2 ** Math.min(3, Math.floor(Math.max(0, repeats) / 3)));
}
const MAX_SAMPLES = 10000; // the service refuses longer tracks
const REQUEST_TIMEOUT = 15000;

const TEXTS = {
  en: {
    group: 'Human verification',
    prompt: 'Drag the slider to complete the puzzle',
    promptFree: 'Drag the piece into the gap',
    slider: 'Move the puzzle piece',
    value: (x, max) => `piece at ${x} of ${max} pixels`,
    value2: (x, y, mx, my) => `piece at ${x}, ${y} of ${mx} by ${my} pixels`,
    keys: 'Arrow keys move the piece, with Shift in fine steps; Home and End jump to the ends; Enter checks it.',
    loading: 'Loading the puzzle…',
    checking: 'Checking…',
    passed: 'Verified',
    notPassed: 'Not quite — try again',
    expired: 'That puzzle expired — here is a new one',
    limited: (n) => `Too many tries — wait ${n} s`,
    tokenExpired: 'The verification expired — please solve a new puzzle',
    error: 'The puzzle could not be loaded — try again',
    misconfigured: 'This captcha is not set up correctly for this site',
    refresh: 'New puzzle',
    alternative: 'I can\u2019t do the puzzle — verify another way',
    working: (p) => `Verifying another way… ${p}%`,
    workingStart: 'Verifying another way, this takes a few seconds…',
  },
  'zh-CN': {
    group: '人机验证',
    prompt: '拖动滑块完成拼图',
    promptFree: '把拼图块拖进缺口',
    slider: '移动拼图块',
    value: (x, max) => `拼图块位于 ${x} / ${max} 像素`,
    value2: (x, y, mx, my) => `拼图块位于 ${x}, ${y}（范围 ${mx} × ${my} 像素）`,
    keys: '用方向键移动拼图块，按住 Shift 可微调；Home 和 End 跳到两端；按 Enter 提交。',
    loading: '正在加载拼图…',
    checking: '正在验证…',
    passed: '验证成功',
    notPassed: '差一点，再试一次',
    expired: '题目已过期，已为你换一题',
    limited: (n) => `尝试次数过多，请 ${n} 秒后再试`,
    tokenExpired: '验证已过期，请重新完成拼图',
    error: '拼图加载失败，请重试',
    misconfigured: '此网站的验证码配置有误',
    refresh: '换一题',
    alternative: '无法完成拼图？换一种方式验证',
    working: (p) => `正在用其他方式验证… ${p}%`,
    workingStart: '正在用其他方式验证，需要几秒钟…',
  },
};

const ICONS = {
  arrowRight: '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M5 12h13M13 6l6 6-6 6" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/></svg>',
  arrowDown: '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M12 5v13M6 13l6 6 6-6" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/></svg>',
  move: '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M12 3v18M3 12h18M12 3l-3 3M12 3l3 3M12 21l-3-3M12 21l3-3M3 12l3-3M3 12l3 3M21 12l-3-3M21 12l-3 3" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/></svg>',
  check: '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M5 12.5l4.5 4.5L19 7.5" fill="none" stroke="currentColor" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"/></svg>',
  cross: '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M6 6l12 12M18 6L6 18" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"/></svg>',
  refresh: '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M19.5 12a7.5 7.5 0 1 1-2.2-5.3M19.5 4.5v4h-4" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/></svg>',
};

const STYLES = `
.tactile-widget {
  --tactile-bg: #ffffff; --tactile-border: #d9dde3; --tactile-text: #1d2129; --tactile-muted: #5c6370;
  --tactile-rail: #eef1f5; --tactile-thumb: #ffffff; --tactile-accent: #2f6fde; --tactile-accent-soft: rgb(47 111 222 / 16%);
  --tactile-ok: #1d8348; --tactile-ok-soft: rgb(29 131 72 / 16%); --tactile-bad: #c0392b; --tactile-bad-soft: rgb(192 57 43 / 14%);
  --tactile-focus: #2f6fde; --tactile-shadow: 0 1px 3px rgb(0 0 0 / 18%), 0 1px 1px rgb(0 0 0 / 8%);
  box-sizing: border-box; position: relative; display: flex; flex-direction: column; gap: 8px;
  /* The picture is shown at most at its natural width (--tactile-picture-width: the challenge's
   * imageWidth once it arrives; the service's pictures are 640 wide) and at least 280 px wide,
   * unless the container is narrower: then the widget takes the container's width. The frame is
   * what the widget adds beside the picture: padding and border on both sides. */
  --tactile-picture-width: 640px; --tactile-frame: 22px;
  width: 100%; max-width: calc(var(--tactile-picture-width) + var(--tactile-frame));
  min-width: min(100%, calc(280px + var(--tactile-frame))); margin: 0; padding: 10px;
  color: var(--tactile-text); background: var(--tactile-bg); border: 1px solid var(--tactile-border); border-radius: 12px;
  font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei", sans-serif;
  text-align: left; -webkit-tap-highlight-color: transparent; container-type: inline-size;
}
.tactile-widget[data-theme="dark"] {
  --tactile-bg: #1f2228; --tactile-border: #3a3f48; --tactile-text: #e8eaee; --tactile-muted: #a3a9b5;
  --tactile-rail: #2a2e35; --tactile-thumb: #3b414b; --tactile-accent: #79a4f3; --tactile-accent-soft: rgb(121 164 243 / 20%);
  --tactile-ok: #4cc27f; --tactile-ok-soft: rgb(76 194 127 / 20%); --tactile-bad: #ef7a6d; --tactile-bad-soft: rgb(239 122 109 / 18%);
  --tactile-focus: #8fb4ff; --tactile-shadow: 0 1px 3px rgb(0 0 0 / 50%);
}
@media (prefers-color-scheme: dark) {
  .tactile-widget:not([data-theme="light"]) {
    --tactile-bg: #1f2228; --tactile-border: #3a3f48; --tactile-text: #e8eaee; --tactile-muted: #a3a9b5;
    --tactile-rail: #2a2e35; --tactile-thumb: #3b414b; --tactile-accent: #79a4f3; --tactile-accent-soft: rgb(121 164 243 / 20%);
    --tactile-ok: #4cc27f; --tactile-ok-soft: rgb(76 194 127 / 20%); --tactile-bad: #ef7a6d; --tactile-bad-soft: rgb(239 122 109 / 18%);
    --tactile-focus: #8fb4ff; --tactile-shadow: 0 1px 3px rgb(0 0 0 / 50%);
  }
}
.tactile-widget *, .tactile-widget *::before, .tactile-widget *::after { box-sizing: border-box; }
.tactile-body { display: flex; flex-direction: column; gap: 8px; }
.tactile-vertical .tactile-body { flex-direction: row; }
.tactile-widget.tactile-vertical { --tactile-frame: 74px; } /* and the gap and the 44 px rail beside the picture */
.tactile-stage {
  position: relative; width: 100%; aspect-ratio: 16 / 9; overflow: hidden; border-radius: 8px;
  background: var(--tactile-rail); user-select: none; -webkit-user-select: none;
}
.tactile-vertical .tactile-stage { flex: 1 1 auto; width: auto; min-width: 0; }
.tactile-bg { display: block; width: 100%; height: 100%; margin: 0; padding: 0; border: 0; max-width: none;
  pointer-events: none; -webkit-user-drag: none; transition: opacity .2s; }
.tactile-piece { position: absolute; left: 0; top: 0; touch-action: none; cursor: grab;
  filter: drop-shadow(0 0 1px rgb(255 255 255 / 95%)) drop-shadow(0 0 1px rgb(255 255 255 / 80%)) drop-shadow(0 3px 4px rgb(0 0 0 / 50%)); }
.tactile-piece img { display: block; width: 100%; height: 100%; margin: 0; border: 0; max-width: none;
  pointer-events: none; -webkit-user-drag: none; }
.tactile-widget[data-state="dragging"] .tactile-piece { cursor: grabbing; }
.tactile-widget:not([data-state="ready"]):not([data-state="dragging"]) .tactile-piece { cursor: default; }
.tactile-widget[data-state="loading"] .tactile-piece, .tactile-widget[data-state="loading"] .tactile-bg,
.tactile-widget[data-state="error"] .tactile-piece, .tactile-widget[data-state="error"] .tactile-bg { opacity: 0; }
.tactile-veil { position: absolute; inset: 0; display: grid; place-items: center; pointer-events: none;
  opacity: 0; transition: opacity .25s; color: #fff; }
.tactile-veil > span { display: grid; place-items: center; width: 56px; height: 56px; border-radius: 50%; }
.tactile-veil svg { display: none; width: 34px; height: 34px; }
.tactile-widget[data-state="passed"] .tactile-veil svg { display: block; }
.tactile-widget[data-state="loading"] .tactile-veil { opacity: 1; }
.tactile-widget[data-state="loading"] .tactile-veil > span {
  width: 34px; height: 34px; border: 3px solid var(--tactile-border); border-top-color: var(--tactile-accent);
  animation: tactile-spin .9s linear infinite; }
.tactile-widget[data-state="passed"] .tactile-veil { opacity: 1; background: rgb(20 120 60 / 22%); }
.tactile-widget[data-state="passed"] .tactile-veil > span { background: var(--tactile-ok); box-shadow: 0 2px 10px rgb(0 0 0 / 30%);
  animation: tactile-pop .35s ease-out; }
.tactile-rail { position: relative; height: 44px; flex: none; border-radius: 8px; overflow: hidden;
  background: var(--tactile-rail); border: 1px solid var(--tactile-border); user-select: none; -webkit-user-select: none; }
.tactile-vertical .tactile-rail { width: 44px; height: auto; }
.tactile-free .tactile-rail { display: none; }
.tactile-fill { position: absolute; left: 0; top: 0; bottom: 0; width: 0; background: var(--tactile-accent-soft); }
.tactile-vertical .tactile-fill { right: 0; bottom: auto; width: auto; height: 0; }
.tactile-rail-text { position: absolute; inset: 0; display: flex; align-items: center; justify-content: center;
  padding: 0 8px 0 52px; color: var(--tactile-muted); font-size: 13.5px; line-height: 1.2; text-align: center;
  overflow: hidden; pointer-events: none; }
@container (max-width: 360px) { .tactile-rail-text { font-size: 12.5px; } }
.tactile-vertical .tactile-rail-text { display: none; }
.tactile-thumb { position: absolute; left: 0; top: 0; bottom: 0; width: 44px; display: grid; place-items: center;
  color: var(--tactile-accent); background: var(--tactile-thumb); border-radius: 7px; box-shadow: var(--tactile-shadow);
  cursor: grab; touch-action: none; outline: none; }
.tactile-vertical .tactile-thumb { right: 0; bottom: auto; width: auto; height: 44px; }
.tactile-thumb svg { width: 22px; height: 22px; }
.tactile-widget[data-state="dragging"] .tactile-thumb { cursor: grabbing; color: #fff; background: var(--tactile-accent); }
.tactile-widget :focus-visible, .tactile-thumb:focus-visible, .tactile-piece:focus-visible {
  outline: 3px solid var(--tactile-focus); outline-offset: 2px; }
.tactile-rail:has(.tactile-thumb:focus-visible) { overflow: visible; }
.tactile-thumb:focus-visible { outline-offset: -3px; box-shadow: 0 0 0 3px var(--tactile-focus), var(--tactile-shadow); }
.tactile-widget[aria-disabled="true"] .tactile-thumb, .tactile-thumb[aria-disabled="true"] { cursor: default; }
.tactile-widget[data-state="passed"] .tactile-rail { border-color: var(--tactile-ok); background: var(--tactile-ok-soft); }
.tactile-widget[data-state="passed"] .tactile-fill { background: var(--tactile-ok-soft); }
.tactile-widget[data-state="passed"] .tactile-thumb { color: #fff; background: var(--tactile-ok); }
.tactile-widget[data-state="passed"] .tactile-rail-text, .tactile-widget[data-state="failed"] .tactile-rail-text { visibility: hidden; }
.tactile-widget[data-state="failed"] .tactile-fill { background: var(--tactile-bad-soft); }
.tactile-widget[data-state="failed"] .tactile-rail { border-color: var(--tactile-bad); background: var(--tactile-bad-soft); }
.tactile-widget[data-state="failed"] .tactile-thumb { color: #fff; background: var(--tactile-bad); }
.tactile-widget[data-state="working"] .tactile-fill { transition: width .2s; }
.tactile-widget[data-state="working"] .tactile-rail-text, .tactile-widget[data-state="limited"] .tactile-rail-text,
.tactile-widget[data-state="error"] .tactile-rail-text { visibility: hidden; }
.tactile-widget[data-state="working"] .tactile-stage, .tactile-widget[data-state="limited"] .tactile-stage { opacity: .6; }
.tactile-widget[data-state="working"] .tactile-thumb, .tactile-widget[data-state="limited"] .tactile-thumb,
.tactile-widget[data-state="error"] .tactile-thumb { color: var(--tactile-muted); box-shadow: none; }
.tactile-shake .tactile-piece, .tactile-shake .tactile-thumb { animation: tactile-shake .4s ease-in-out; }
.tactile-snap .tactile-piece { transition: left .18s ease-out, top .18s ease-out; }
.tactile-snap .tactile-thumb, .tactile-snap .tactile-fill { transition: left .18s ease-out, top .18s ease-out, width .18s, height .18s; }
.tactile-status { color: var(--tactile-muted); font-size: 13px; }
.tactile-widget:not(.tactile-vertical):not(.tactile-free) .tactile-status:empty { display: none; }
.tactile-vertical .tactile-status:empty::before, .tactile-free .tactile-status:empty::before { content: attr(data-prompt); }
.tactile-empty[data-state="error"] .tactile-body { display: none; }
.tactile-status[data-tone="bad"] { color: var(--tactile-bad); }
.tactile-status[data-tone="ok"] { color: var(--tactile-ok); font-weight: 600; }
.tactile-foot { display: flex; align-items: center; gap: 6px; min-height: 28px; margin: -2px 0 -4px -4px; }
.tactile-foot button { font: inherit; margin: 0; cursor: pointer; background: transparent; border: 0; color: var(--tactile-accent); }
.tactile-foot button:disabled { cursor: default; opacity: .45; }
.tactile-foot button[hidden], .tactile-foot[hidden] { display: none; }
.tactile-refresh { display: grid; place-items: center; width: 28px; height: 28px; padding: 0; border-radius: 6px; color: var(--tactile-muted) !important; }
.tactile-refresh:hover:not(:disabled) { background: var(--tactile-rail); }
.tactile-refresh svg { width: 18px; height: 18px; }
.tactile-alt { padding: 2px 4px; font-size: 13px !important; text-align: left; text-decoration: underline; text-underline-offset: 2px; border-radius: 4px; }
.tactile-sr { position: absolute !important; width: 1px; height: 1px; margin: -1px; padding: 0; border: 0; overflow: hidden;
  clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap; }
@keyframes tactile-spin { to { transform: rotate(360deg); } }
@keyframes tactile-pop { from { transform: scale(.4); opacity: 0; } 70% { transform: scale(1.08); } to { transform: scale(1); opacity: 1; } }
@keyframes tactile-shake { 0%, 100% { transform: translateX(0); } 20%, 60% { transform: translateX(-6px); } 40%, 80% { transform: translateX(6px); } }
@media (prefers-reduced-motion: reduce) {
  .tactile-widget, .tactile-widget * { transition: none !important; animation: none !important; }
}
`;

// ----------------------------------------------------------------------------- helpers

const reducedMotion = () => typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
const round2 = (v) => Math.round(v * 100) / 100;
const isCount = (v) => Number.isInteger(v) && v > 0 && v <= 10000;

let stylesInjected = false;
function injectStyles() {
  if (stylesInjected) return;
  stylesInjected = true;
  // A constructed sheet works under a strict style-src policy; a <style> element otherwise.
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(STYLES);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    return;
  } catch (_) { /* older browser */ }
  const style = document.createElement('style');
  style.id = 'tactile-captcha-styles';
  style.textContent = STYLES;
  document.head.appendChild(style);
}

function language(requested) {
  const tag = String(requested || document.documentElement.lang || navigator.language || 'en').toLowerCase();
  return tag.startsWith('zh') ? 'zh-CN' : 'en';
}

function element(tag, className, attributes = {}) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

/** Seconds to wait from a Retry-After header (seconds or an HTTP date); 30 when absent. */
function retryAfter(response) {
  const value = response.headers.get('Retry-After');
  let seconds = Number.NaN;
  if (value && /^\d+$/.test(value.trim())) seconds = Number(value.trim());
  else if (value) seconds = (Date.parse(value) - Date.now()) / 1000;
  return Number.isFinite(seconds) ? clamp(Math.ceil(seconds), 1, 3600) : 30;
}

/** The code of a refusal: the first of "error-codes", or "error" when it is a code (the service
 * says {"error": "invalid-sitekey"}), else "http-" and the status. */
function errorCode(json, status) {
  const first = json && Array.isArray(json['error-codes']) ? json['error-codes'][0] : undefined;
  if (typeof first === 'string' && first) return first;
  if (json && typeof json.error === 'string' && /^[a-z][a-z0-9-]{0,63}$/.test(json.error)) return json.error;
  return `http-${status}`;
}

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

function validProofOfWork(p) {
  return p && typeof p === 'object' && typeof p.salt === 'string' && p.salt.length > 0 && p.salt.length <= 256
    && Number.isInteger(p.difficulty) && p.difficulty >= 1 && p.difficulty <= 32;
}

// ----------------------------------------------------------------------------- proof of work

function leadingZeroBits(bytes) {
  let bits = 0;
  for (const byte of bytes) {
    if (byte === 0) { bits += 8; continue; }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

/** Finds a decimal nonce such that SHA-256(salt ":" nonce) starts with `difficulty` zero bits. */
async function searchNonce(salt, difficulty, report, shouldStop) {
  const encoder = new TextEncoder();
  const prefix = salt + ':';
  const batch = 128;
  let lastReport = 0;
  for (let base = 0; ; base += batch) {
    if (shouldStop && shouldStop()) return null;
    const digests = [];
    for (let i = 0; i < batch; i++) digests.push(crypto.subtle.digest('SHA-256', encoder.encode(prefix + (base + i))));
    const done = await Promise.all(digests);
    for (let i = 0; i < batch; i++) {
      if (leadingZeroBits(new Uint8Array(done[i])) >= difficulty) return String(base + i);
    }
    const now = Date.now();
    if (now - lastReport > 100) { lastReport = now; report(base + batch); }
  }
}

const WORKER_SOURCE = `${leadingZeroBits}\n${searchNonce}\n` +
  'onmessage = async (e) => { const nonce = await searchNonce(e.data.salt, e.data.difficulty, (tried) => postMessage({ tried })); postMessage({ nonce }); };';

/** The extra zero bits a proof of work alone (no drag) must have over the price. */
const ALONE_SURCHARGE = 2;

/** How long an answer waits for the deeper proof of work before it goes with the price alone. */
const DEEPER_GRACE_MS = 1000;

let workerURL = null;

/** Set once a worker was refused, so later searches go straight to the page. */
let workersRefused = false;

/** Runs the search in a Web Worker made from inline code (no file fetched); on the page when workers are refused. */
function solveProofOfWork(salt, difficulty, report, owner) {
  return new Promise((resolve, reject) => {
    const onPage = () => {
      let stopped = false;
      owner.stopWork = () => { stopped = true; owner.stopWork = null; };
      searchNonce(salt, difficulty, report, () => stopped).then(resolve, reject);
    };
    let worker = null;
    if (!workersRefused) {
      try {
        workerURL = workerURL || URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'text/javascript' }));
        worker = new Worker(workerURL);
      } catch (_) {
        workersRefused = true; // a Content-Security-Policy without blob: workers, in some browsers
      }
    }
    if (!worker) return onPage();
    owner.stopWork = () => { worker.terminate(); owner.stopWork = null; resolve(null); };
    worker.onmessage = (e) => {
      if (typeof e.data.tried === 'number') report(e.data.tried);
      if (typeof e.data.nonce === 'string') { worker.terminate(); owner.stopWork = null; resolve(e.data.nonce); }
    };
    // Chromium refuses a worker that the page's Content-Security-Policy forbids here, with an
    // error event, not in the constructor: the search goes on on the page.
    worker.onerror = (e) => {
      worker.terminate();
      e.preventDefault();
      workersRefused = true;
      onPage();
    };
    worker.postMessage({ salt, difficulty });
  });
}

// ----------------------------------------------------------------------------- the widget

const widgets = new Map();
let nextId = 1;

class Widget {
  constructor(host, options, id) {
    this.host = host;
    this.id = id;
    const data = host.dataset;
    this.sitekey = options.sitekey ?? data.sitekey ?? '';
    this.action = options.action ?? data.action;
    this.theme = options.theme ?? data.theme ?? 'auto';
    this.lang = language(options.lang ?? data.lang);
    this.text = TEXTS[this.lang];
    this.callbacks = {
      success: options.callback ?? data.callback,
      expired: options['expired-callback'] ?? data.expiredCallback,
      error: options['error-callback'] ?? data.errorCallback,
    };
    this.token = '';
    this.state = 'loading';
    this.challenge = null;
    this.start = { x: 0, y: 0 };
    this.pos = { x: 0, y: 0 };
    this.scale = 1;
    this.drag = null; // a pointer attempt under way
    this.keys = null; // a keyboard attempt under way
    this.generation = 0; // bumped by every new puzzle, so late answers are dropped
    this.timers = {};
    this.stopWork = null;
    this.keyOrigin = 0;
    this.build();
    this.load();
  }

  // DOM

  build() {
    const t = this.text;
    const hintId = `${this.id}-keys`;
    this.root = element('div', 'tactile-widget', { role: 'group', 'aria-label': t.group, lang: this.lang, 'data-state': 'loading' });
    if (this.theme === 'light' || this.theme === 'dark') this.root.dataset.theme = this.theme;
    this.body = element('div', 'tactile-body');
    this.stage = element('div', 'tactile-stage');
    this.background = element('img', 'tactile-bg', { alt: '', draggable: 'false' });
    this.piece = element('div', 'tactile-piece');
    this.pieceImage = element('img', '', { alt: '', draggable: 'false' });
    this.piece.appendChild(this.pieceImage);
    this.veil = element('div', 'tactile-veil', { 'aria-hidden': 'true' });
    this.veil.innerHTML = `<span>${ICONS.check}</span>`;
    this.stage.append(this.background, this.piece, this.veil);
    this.rail = element('div', 'tactile-rail');
    this.fill = element('div', 'tactile-fill');
    this.railText = element('span', 'tactile-rail-text', { 'aria-hidden': 'true' });
    this.railText.textContent = t.prompt;
    this.thumb = element('div', 'tactile-thumb', { role: 'slider', tabindex: '0', 'aria-label': t.slider, 'aria-describedby': hintId,
      'aria-valuemin': '0', 'aria-valuemax': '0', 'aria-valuenow': '0', 'aria-orientation': 'horizontal' });
    this.thumb.innerHTML = ICONS.arrowRight;
    this.rail.append(this.fill, this.railText, this.thumb);
    this.body.append(this.stage, this.rail);
    this.status = element('div', 'tactile-status', { 'aria-hidden': 'true' });
    this.live = element('div', 'tactile-sr', { role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' });
    this.hint = element('div', 'tactile-sr', { id: hintId });
    this.hint.textContent = t.keys;
    const foot = this.foot = element('div', 'tactile-foot');
    this.refreshButton = element('button', 'tactile-refresh', { type: 'button', 'aria-label': t.refresh, title: t.refresh });
    this.refreshButton.innerHTML = ICONS.refresh;
    this.altButton = element('button', 'tactile-alt', { type: 'button', hidden: '' });
    this.altButton.textContent = t.alternative;
    foot.append(this.refreshButton, this.altButton);
    this.root.append(this.body, this.status, foot, this.live, this.hint);
    this.input = element('input', '', { type: 'hidden', name: 'tactile-captcha-response', value: '' });
    this.host.replaceChildren(this.root, this.input);

    for (const source of [this.piece, this.thumb]) {
      source.addEventListener('pointerdown', (e) => this.pointerDown(e, source));
      source.addEventListener('pointermove', (e) => this.pointerMove(e));
      source.addEventListener('pointerup', (e) => this.pointerUp(e));
      source.addEventListener('pointercancel', (e) => this.pointerCancel(e));
      source.addEventListener('lostpointercapture', (e) => this.pointerCancel(e));
      source.addEventListener('keydown', (e) => this.keyDown(e));
      source.addEventListener('focus', () => { this.keyOrigin = Math.max(this.keyOrigin, performance.now()); });
    }
    this.refreshButton.addEventListener('click', () => { this.say(''); this.load(); });
    this.altButton.addEventListener('click', () => this.proveWork());
    if (typeof ResizeObserver === 'function') {
      this.resizer = new ResizeObserver(() => this.layout());
      this.resizer.observe(this.stage);
      this.resizer.observe(this.rail);
    }
  }

  /** The element that carries role="slider": the thumb, or the piece itself for a free puzzle. */
  get handle() { return this.challenge && this.challenge.axis === 'free' ? this.piece : this.thumb; }

  get maxX() { return this.challenge ? this.challenge.imageWidth - this.challenge.pieceWidth : 0; }
  get maxY() { return this.challenge ? this.challenge.imageHeight - this.challenge.pieceHeight : 0; }

  /** Lengths of the rail and the thumb along the slider, in CSS pixels. */
  railGeometry() {
    const vertical = this.challenge && this.challenge.axis === 'vertical';
    const rail = vertical ? this.rail.clientHeight : this.rail.clientWidth;
    const pieceLength = this.challenge ? (vertical ? this.challenge.pieceHeight : this.challenge.pieceWidth) * this.scale : 44;
    const thumb = Math.min(Math.max(pieceLength, 44), rail / 2);
    return { rail, thumb, travel: Math.max(1, rail - thumb) };
  }

  layout() {
    const c = this.challenge;
    if (!c) return;
    const width = this.stage.clientWidth;
    if (!width) return;
    this.scale = width / c.imageWidth;
    const s = this.scale;
    Object.assign(this.piece.style, {
      width: `${c.pieceWidth * s}px`, height: `${c.pieceHeight * s}px`, left: `${this.pos.x * s}px`, top: `${this.pos.y * s}px`,
    });
    const g = this.railGeometry();
    if (c.axis === 'horizontal') {
      const left = this.maxX ? (this.pos.x / this.maxX) * g.travel : 0;
      Object.assign(this.thumb.style, { width: `${g.thumb}px`, left: `${left}px`, height: '', top: '' });
      this.fill.style.width = `${left + g.thumb / 2}px`;
      this.railText.style.paddingLeft = `${g.thumb + 8}px`;
      this.railText.style.opacity = this.pos.x === this.start.x ? '' : '0'; // the prompt gives way once the piece moves
    } else if (c.axis === 'vertical') {
      const top = this.maxY ? (this.pos.y / this.maxY) * g.travel : 0;
      Object.assign(this.thumb.style, { height: `${g.thumb}px`, top: `${top}px`, width: '', left: '' });
      this.fill.style.height = `${top + g.thumb / 2}px`;
    }
    this.updateValue();
  }

  updateValue() {
    const c = this.challenge;
    if (!c) return;
    const h = this.handle;
    const x = Math.round(this.pos.x);
    const y = Math.round(this.pos.y);
    const vertical = c.axis === 'vertical';
    h.setAttribute('aria-valuemax', String(vertical ? this.maxY : this.maxX));
    h.setAttribute('aria-valuenow', String(vertical ? y : x));
    h.setAttribute('aria-valuetext', c.axis === 'free' ? this.text.value2(x, y, this.maxX, this.maxY)
      : this.text.value(vertical ? y : x, vertical ? this.maxY : this.maxX));
  }

  setState(state) {
    this.state = state;
    this.root.dataset.state = state;
    const accepts = state === 'ready';
    const h = this.handle;
    if (accepts || state === 'dragging') h.removeAttribute('aria-disabled');
    else h.setAttribute('aria-disabled', 'true');
    this.refreshButton.disabled = !['ready', 'failed', 'error'].includes(state);
    this.refreshButton.hidden = state === 'passed';
    const pow = this.challenge && validProofOfWork(this.challenge.proofOfWork) && globalThis.crypto && crypto.subtle;
    this.altButton.hidden = !pow || state === 'passed';
    this.altButton.disabled = !accepts;
    this.foot.hidden = this.refreshButton.hidden && this.altButton.hidden;
    this.railText.textContent = this.text.prompt;
    this.status.dataset.prompt = this.challenge && this.challenge.axis === 'free' ? this.text.promptFree : this.text.prompt;
    this.root.classList.toggle('tactile-empty', !this.challenge);
    if (state !== 'working') this.layout();
    this.thumb.innerHTML = state === 'passed' ? ICONS.check : state === 'failed' ? ICONS.cross
      : this.challenge && this.challenge.axis === 'vertical' ? ICONS.arrowDown : ICONS.arrowRight;
  }

  /** Shows a message; `announce` also reads it out (once) to screen readers. */
  say(message, { tone = '', announce = true } = {}) {
    this.status.textContent = message;
    if (tone) this.status.dataset.tone = tone; else delete this.status.dataset.tone;
    if (announce) this.live.textContent = message;
  }

  later(name, ms, fn) {
    clearTimeout(this.timers[name]);
    clearInterval(this.timers[name]);
    this.timers[name] = setTimeout(() => { delete this.timers[name]; fn(); }, ms);
  }

  cancelTimers() {
    for (const id of Object.values(this.timers)) { clearTimeout(id); clearInterval(id); }
    this.timers = {};
  }

  flash(className, ms) {
    if (reducedMotion()) return;
    this.root.classList.remove(className);
    void this.root.offsetWidth; // restart the animation
    this.root.classList.add(className);
    this.later(className, ms, () => this.root.classList.remove(className));
  }

  // Service

  async post(path, body) {
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

  async load() {
    const generation = ++this.generation;
    this.cancelTimers();
    if (this.stopWork) this.stopWork();
    if (this.price && this.price.stopWork) this.price.stopWork();
    this.price = null;
    delete this.root.dataset.priceMs;
    this.drag = null;
    this.keys = null;
    this.stale = false;
    this.setState('loading');
    if (!this.sitekey) return this.failed('missing-sitekey', this.text.misconfigured);
    const request = { sitekey: this.sitekey };
    if (this.action) request.action = this.action;
    let response;
    let challenge;
    try {
      response = await this.post('v1/challenges', request);
      if (generation !== this.generation) return;
      if (response.status === 429) return this.limited(retryAfter(response));
      const json = await response.json().catch(() => null);
      if (generation !== this.generation) return;
      if (!response.ok) {
        const code = errorCode(json, response.status);
        const setup = ['invalid-sitekey', 'invalid-hostname', 'origin-not-allowed'].includes(code) || response.status === 403;
        return this.failed(code, setup ? this.text.misconfigured : this.text.error);
      }
      challenge = validChallenge(json);
      if (!challenge) return this.failed('bad-challenge', this.text.error);
      // Images come from the service's own origin, never from anywhere else.
      const background = new URL(challenge.background, SERVICE);
      const piece = new URL(challenge.piece, SERVICE);
      if (background.origin !== SERVICE.origin || piece.origin !== SERVICE.origin) return this.failed('bad-challenge', this.text.error);
      this.background.src = background.href;
      this.pieceImage.src = piece.href;
      await Promise.all([this.background.decode(), this.pieceImage.decode()]);
    } catch (error) {
      if (generation === this.generation) this.failed('network-error', this.text.error);
      return;
    }
    if (generation !== this.generation) return;
    this.challenge = challenge;
    const vertical = challenge.axis === 'vertical';
    const free = challenge.axis === 'free';
    this.start = {
      x: vertical && Number.isFinite(challenge.pieceX) ? challenge.pieceX : 0,
      y: challenge.axis === 'horizontal' && Number.isFinite(challenge.pieceY) ? challenge.pieceY : 0,
    };
    this.pos = { ...this.start };
    this.root.dataset.challenge = challenge.id;
    this.root.classList.toggle('tactile-vertical', vertical);
    this.root.classList.toggle('tactile-free', free);
    this.stage.style.aspectRatio = `${challenge.imageWidth} / ${challenge.imageHeight}`;
    this.root.style.setProperty('--tactile-picture-width', `${challenge.imageWidth}px`);
    // The slider role sits on the thumb, or on the piece when there is no slider.
    const [on, off] = free ? [this.piece, this.thumb] : [this.thumb, this.piece];
    for (const name of ['role', 'tabindex', 'aria-label', 'aria-describedby', 'aria-valuemin', 'aria-valuemax',
      'aria-valuenow', 'aria-valuetext', 'aria-orientation', 'aria-disabled']) off.removeAttribute(name);
    Object.entries({ role: 'slider', tabindex: '0', 'aria-label': this.text.slider, 'aria-describedby': this.hint.id,
      'aria-valuemin': '0', 'aria-orientation': vertical ? 'vertical' : 'horizontal' })
      .forEach(([name, value]) => on.setAttribute(name, value));
    if (free) on.removeAttribute('aria-orientation');
    this.setState('ready');
    this.layout();
    this.keyOrigin = performance.now();
    this.startPaying(challenge);
    this.scheduleRefresh(challenge, response);
  }

  /** Replaces the puzzle a little before it expires (by the service's clock when its Date header is readable). */
  scheduleRefresh(challenge, response) {
    const expires = Date.parse(challenge.expiresAt);
    if (!Number.isFinite(expires)) return;
    const serverNow = Date.parse(response.headers.get('Date') || '');
    let lifetime = expires - (Number.isFinite(serverNow) ? serverNow : Date.now());
    if (!(lifetime > 1000 && lifetime < 86400000)) lifetime = 60000; // a skewed clock: assume a minute
    const margin = clamp(lifetime * 0.1, 2000, 15000);
    this.later('expiry', Math.max(3000, lifetime - margin), () => {
      if (this.state === 'ready' && !this.keys) return this.load();
      if (this.state === 'ready') { this.say(this.text.expired, { tone: 'bad' }); return this.load(); }
      this.stale = true; // an attempt is under way: its answer will say "expired" if it is too late
    });
  }

  // Pointer input

  pointerDown(e, source) {
    if (this.state !== 'ready' || this.drag || !this.challenge) return;
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    e.preventDefault();
    if (this.keys) { this.keys = null; this.pos = { ...this.start }; } // the pointer takes over from the keys
    try { source.setPointerCapture(e.pointerId); } catch (_) { /* not capturable */ }
    let rx = 1 / this.scale;
    let ry = 1 / this.scale;
    if (source === this.thumb) {
      const g = this.railGeometry();
      if (this.challenge.axis === 'horizontal') rx = this.maxX / g.travel;
      if (this.challenge.axis === 'vertical') ry = this.maxY / g.travel;
    }
    this.drag = {
      pointerId: e.pointerId, source, clientX: e.clientX, clientY: e.clientY, t0: e.timeStamp, rx, ry,
      track: [{ x: round2(this.start.x), y: round2(this.start.y), t: 0 }],
    };
    this.say('', { announce: false });
    this.setState('dragging');
  }

  /** Records one pointer sample: the piece's top-left where the pointer would put it, in background pixels. */
  sample(event) {
    const d = this.drag;
    const raw = { x: this.start.x + (event.clientX - d.clientX) * d.rx, y: this.start.y + (event.clientY - d.clientY) * d.ry };
    const point = { x: round2(raw.x), y: round2(raw.y), t: round2(event.timeStamp - d.t0) };
    const last = d.track[d.track.length - 1];
    if (point.t > last.t) {
      if (d.track.length < MAX_SAMPLES) d.track.push(point);
    } else if (d.track.length > 1) {
      last.x = point.x; // the same instant as the previous sample: keep the newer position
      last.y = point.y;
    }
    const axis = this.challenge.axis;
    this.pos = {
      x: axis === 'vertical' ? this.start.x : clamp(raw.x, 0, this.maxX),
      y: axis === 'horizontal' ? this.start.y : clamp(raw.y, 0, this.maxY),
    };
  }

  pointerMove(e) {
    if (!this.drag || e.pointerId !== this.drag.pointerId) return;
    const events = typeof e.getCoalescedEvents === 'function' ? e.getCoalescedEvents() : [];
    for (const event of events.length ? events : [e]) this.sample(event);
    this.layout();
  }

  pointerUp(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.pointerId) return;
    this.sample(e);
    this.drag = null;
    try { d.source.releasePointerCapture(e.pointerId); } catch (_) { /* already released */ }
    if (Math.hypot(this.pos.x - this.start.x, this.pos.y - this.start.y) < 1) { // a click, not a drag
      this.pos = { ...this.start };
      this.setState('ready');
      this.layout();
      return;
    }
    this.submit({ ...this.release(), track: d.track });
  }

  pointerCancel(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.pointerId) return;
    this.drag = null;
    this.pos = { ...this.start };
    this.setState('ready');
    this.layout();
    if (this.stale) this.load();
  }

  /** Where the piece is, as the answer reports it: background pixels, the fixed coordinate as given. */
  release() {
    const axis = this.challenge.axis;
    return {
      x: round2(axis === 'vertical' ? this.start.x : this.pos.x),
      y: round2(axis === 'horizontal' ? this.start.y : this.pos.y),
      // The width the picture is shown at: the service's tolerance is at least 8 of these pixels.
      displayWidth: round2(this.stage.clientWidth),
    };
  }

  // Keyboard input

  keyDown(e) {
    if (!this.challenge || this.drag || e.altKey || e.ctrlKey || e.metaKey) return;
    const axis = this.challenge.axis;
    const now = e.timeStamp || performance.now();
    const held = this.heldKey && this.heldKey.key === e.key && (e.repeat || now - this.heldKey.time < KEY_REPEAT_MS);
    this.heldKey = { key: e.key, repeats: held ? this.heldKey.repeats + 1 : 0, time: now };
    const step = e.shiftKey ? 1 : keyStep(this.heldKey.repeats);
    let { x, y } = this.pos;
    switch (e.key) {
      case 'ArrowRight': if (axis === 'vertical') return; x += step; break;
      case 'ArrowLeft': if (axis === 'vertical') return; x -= step; break;
      case 'ArrowDown': if (axis === 'horizontal') return; y += step; break;
      case 'ArrowUp': if (axis === 'horizontal') return; y -= step; break;
      case 'Home': if (axis === 'vertical') y = 0; else x = 0; break;
      case 'End': if (axis === 'vertical') y = this.maxY; else x = this.maxX; break;
      case 'Enter':
        e.preventDefault();
        if (this.state === 'ready' && this.keys && this.keys.track.length > 1) {
          const track = this.keys.track;
          this.keys = null;
          this.submit({ ...this.release(), track, input: 'keyboard' });
        }
        return;
      default: return;
    }
    e.preventDefault();
    if (this.state !== 'ready') return;
    if (!this.keys) {
      // The attempt starts when the slider got focus or the puzzle appeared, with the piece at its start.
      this.keys = { t0: Math.min(this.keyOrigin, now), track: [{ x: round2(this.start.x), y: round2(this.start.y), t: 0 }] };
      this.say('', { announce: false });
    }
    this.pos = { x: clamp(x, 0, this.maxX), y: clamp(y, 0, this.maxY) };
    const track = this.keys.track;
    let t = round2(now - this.keys.t0);
    if (t <= track[track.length - 1].t) t = round2(track[track.length - 1].t + 0.01);
    if (track.length < MAX_SAMPLES) track.push({ x: round2(this.pos.x), y: round2(this.pos.y), t });
    this.layout();
  }

  // Answers

  /** Starts paying a priced challenge's price in the background while the person drags: the
   * proof of work every answer carries (about a second on a mid-range phone). Once it is paid,
   * goes on to the price of the proof of work alone (4 times as much), which lets a drag the
   * verifier doubts pass anyway when it is dropped in the hole. */
  startPaying(challenge) {
    if (!validProofOfWork(challenge.proofOfWork) || !(globalThis.crypto && crypto.subtle)) return;
    const { salt, difficulty } = challenge.proofOfWork;
    const price = { stopWork: null, deeper: null };
    const started = performance.now();
    price.nonce = solveProofOfWork(salt, difficulty, () => {}, price)
      .then((nonce) => {
        // How long the price took, for the page's own measurements (no answer in it).
        if (typeof nonce === 'string' && this.price === price) this.root.dataset.priceMs = String(Math.round(performance.now() - started));
        if (typeof nonce === 'string' && this.price === price) {
          price.deeper = solveProofOfWork(salt, difficulty + ALONE_SURCHARGE, () => {}, price).catch(() => null);
        }
        return nonce;
      }, () => null);
    this.price = price;
  }

  /** The nonce to send: the deeper one when it is found within `graceMs` of now, else the price's. */
  async paidNonce(graceMs) {
    const price = this.price;
    const nonce = await price.nonce;
    if (typeof nonce !== 'string' || !price.deeper) return nonce;
    const deeper = await Promise.race([price.deeper, new Promise((resolve) => setTimeout(() => resolve(null), graceMs))]);
    if (typeof deeper === 'string') return deeper;
    if (price.stopWork) price.stopWork();
    return nonce;
  }

  async submit(body) {
    const generation = this.generation;
    const id = this.challenge.id;
    this.setState('checking');
    this.say(this.text.checking, { announce: false });
    if (!body.proofOfWork && this.price) {
      const nonce = await this.paidNonce(DEEPER_GRACE_MS);
      if (generation !== this.generation) return;
      if (typeof nonce === 'string') body = { ...body, proofOfWork: { nonce } };
    }
    let verdict;
    try {
      const response = await this.post(`v1/challenges/${encodeURIComponent(id)}/answer`, body);
      verdict = await this.verdict(response);
    } catch (_) {
      verdict = { kind: 'error', code: 'network-error' };
    }
    if (generation !== this.generation) return;
    switch (verdict.kind) {
      case 'passed': return this.passed(verdict.json, verdict.serverNow);
      case 'expired':
        this.say(this.text.expired, { tone: 'bad' });
        return this.load();
      case 'limited': return this.limited(verdict.wait);
      case 'not-passed': return this.notPassed();
      default: return this.failed(verdict.code, this.text.error);
    }
  }

  async verdict(response) {
    if (response.status === 429) return { kind: 'limited', wait: retryAfter(response) };
    const json = await response.json().catch(() => null);
    if (response.ok && json && json.success === true && typeof json.token === 'string' && json.token) {
      return { kind: 'passed', json, serverNow: Date.parse(response.headers.get('Date') || '') };
    }
    if (response.ok && json && json.success === false) {
      const codes = Array.isArray(json['error-codes']) ? json['error-codes'] : [];
      if (codes.includes('rate-limited')) return { kind: 'limited', wait: retryAfter(response) };
      if (codes.includes('expired')) return { kind: 'expired' };
      return { kind: 'not-passed' };
    }
    return { kind: 'error', code: errorCode(json, response.status) };
  }

  passed(json, serverNow) {
    this.token = json.token;
    this.input.value = json.token;
    if (Number.isFinite(json.x) && Number.isFinite(json.y)) {
      // The service said where the hole is: snap the piece into it (along the slider only).
      const axis = this.challenge.axis;
      this.pos = {
        x: axis === 'vertical' ? this.start.x : clamp(json.x, 0, this.maxX),
        y: axis === 'horizontal' ? this.start.y : clamp(json.y, 0, this.maxY),
      };
    }
    this.cancelTimers();
    if (!reducedMotion()) {
      this.root.classList.add('tactile-snap');
      this.later('snap', 250, () => this.root.classList.remove('tactile-snap'));
    }
    this.layout();
    this.setState('passed');
    this.say(this.text.passed, { tone: 'ok' });
    // An optional expiresAt: forget the token when it lapses (by the service's clock when its Date is readable).
    const expires = Date.parse(json.expiresAt || '');
    if (Number.isFinite(expires)) {
      const wait = clamp(expires - (Number.isFinite(serverNow) ? serverNow : Date.now()), 5000, 2147483647);
      this.later('token', wait, () => this.tokenExpired());
    }
    this.call('success', json.token);
  }

  tokenExpired() {
    this.token = '';
    this.input.value = '';
    this.say(this.text.tokenExpired, { tone: 'bad' });
    this.call('expired');
    this.load();
  }

  notPassed() {
    this.setState('failed');
    this.say(this.text.notPassed, { tone: 'bad' });
    this.flash('tactile-shake', 450);
    // Leave the miss on screen a moment, then a fresh puzzle (the message stays until the next try).
    this.later('retry', reducedMotion() ? 600 : 900, () => this.load());
  }

  limited(seconds) {
    this.cancelTimers();
    if (this.stopWork) this.stopWork();
    this.setState('limited');
    let left = seconds;
    this.say(this.text.limited(left), { tone: 'bad' }); // read out once; the countdown is visual
    const tick = () => {
      left -= 1;
      if (left <= 0) { this.say('', { announce: false }); return this.load(); }
      this.say(this.text.limited(left), { tone: 'bad', announce: false });
      this.later('countdown', 1000, tick);
    };
    this.later('countdown', 1000, tick);
  }

  failed(code, message) {
    this.setState('error');
    this.refreshButton.disabled = false;
    this.say(message, { tone: 'bad' });
    this.call('error', code);
  }

  call(kind, ...args) {
    const callback = this.callbacks[kind];
    const fn = typeof callback === 'function' ? callback : typeof callback === 'string' ? globalThis[callback] : null;
    if (typeof fn !== 'function') return;
    try { fn(...args); } catch (error) { console.error(`tactile-captcha: the ${kind} callback failed`, error); }
  }

  // Proof of work: for people who cannot drag or cannot see the picture

  async proveWork() {
    const c = this.challenge;
    if (this.state !== 'ready' || !c || !validProofOfWork(c.proofOfWork)) return;
    const generation = this.generation;
    this.keys = null;
    this.pos = { ...this.start };
    this.layout();
    this.setState('working');
    this.say(this.text.workingStart);
    // Alone, without a drag, the proof of work costs 4 times the price (2 more bits).
    const difficulty = c.proofOfWork.difficulty + ALONE_SURCHARGE;
    const expected = 2 ** difficulty;
    const progress = (tried) => {
      if (generation !== this.generation) return;
      const share = 1 - Math.exp(-tried / expected); // the chance a search this long has finished
      const percent = Math.min(99, Math.floor(share * 100));
      this.say(this.text.working(percent), { announce: false });
      if (c.axis !== 'vertical') this.fill.style.width = `${percent}%`;
    };
    let nonce;
    try {
      if (this.price && this.price.stopWork) this.price.stopWork();
      nonce = await solveProofOfWork(c.proofOfWork.salt, difficulty, progress, this);
    } catch (_) {
      if (generation === this.generation) this.failed('proof-of-work-failed', this.text.error);
      return;
    }
    if (nonce === null || generation !== this.generation) return;
    this.say(this.text.working(100), { announce: false });
    this.submit({ proofOfWork: { nonce } });
  }

  // API

  reset() {
    this.token = '';
    this.input.value = '';
    this.say('', { announce: false });
    this.load();
  }

  remove() {
    this.generation++;
    this.cancelTimers();
    if (this.stopWork) this.stopWork();
    if (this.resizer) this.resizer.disconnect();
    this.host.replaceChildren();
    this.host.removeAttribute(RENDERED);
  }
}

function find(widgetId) {
  if (widgetId === undefined || widgetId === null) return widgets.values().next().value || null;
  if (widgets.has(widgetId)) return widgets.get(widgetId);
  if (widgetId instanceof Element) return widgets.get(widgetId.getAttribute(RENDERED)) || null;
  return null;
}

/** Renders a widget into `target` (an element or a selector) and returns its id. */
export function render(target, options = {}) {
  const host = typeof target === 'string' ? document.querySelector(target) : target;
  if (!(host instanceof Element)) throw new TypeError('tactileCaptcha.render: no such element');
  const existing = host.getAttribute(RENDERED);
  if (existing && widgets.has(existing)) return existing;
  injectStyles();
  const id = `tactile-${nextId++}`;
  host.setAttribute(RENDERED, id);
  widgets.set(id, new Widget(host, options || {}, id));
  return id;
}

/** Forgets the token and shows a fresh puzzle. */
export function reset(widgetId) {
  const widget = find(widgetId);
  if (widget) widget.reset();
}

/** The widget's token, or "" before a pass. */
export function getResponse(widgetId) {
  const widget = find(widgetId);
  return widget ? widget.token : '';
}

/** Takes a widget off the page. */
export function remove(widgetId) {
  const widget = find(widgetId);
  if (!widget) return;
  widget.remove();
  widgets.delete(widget.id);
}

window.tactileCaptcha = { render, reset, getResponse, remove };

function renderAll() {
  for (const host of document.querySelectorAll('.tactile-captcha')) {
    if (!host.hasAttribute(RENDERED)) render(host);
  }
}

if (!EXPLICIT) {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', renderAll, { once: true });
  else renderAll();
}
