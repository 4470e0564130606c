/*
 * The widget's words, in English and Simplified Chinese.
 */

/** Every text the widget shows or reads out, by language. */
export const TEXTS = {
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
    error: 'The puzzle is unavailable right now — trying again in a moment',
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
    error: '拼图暂时不可用，稍后自动重试',
    misconfigured: '此网站的验证码配置有误',
    refresh: '换一题',
    alternative: '无法完成拼图？换一种方式验证',
    working: (p) => `正在用其他方式验证… ${p}%`,
    workingStart: '正在用其他方式验证，需要几秒钟…',
  },
};

/** The language to use: the one asked for, else the page's, else the browser's; zh… reads Chinese. */
export function language(requested) {
  const tag = String(requested || document.documentElement.lang || navigator.language || 'en').toLowerCase();
  return tag.startsWith('zh') ? 'zh-CN' : 'en';
}
