/**
 * The recipe language's step keywords and how their positional part maps onto the
 * parameters of an action in ACTIONS. Everything after the positional part is a
 * generic `paramName value` list (see parse-recipe.ts).
 */
import type { ActionName } from '../actions.js';
import type { FlowValue } from '../taskdef.js';
import { nullProto } from './null-proto.js';

/** One positional slot of a step keyword. */
export type Slot =
  /** Required: the next token is this parameter's value. */
  | { readonly t: 'param'; readonly p: string }
  /** Optional: taken when the next token is a value and not a parameter name. */
  | { readonly t: 'opt'; readonly p: string; readonly when: 'value' | 'number' | readonly string[] }
  /** The step's binding name (`as`); optional unless `required`. */
  | { readonly t: 'name'; readonly required?: boolean }
  /** A parameter holding an identifier (for-each's item name). */
  | { readonly t: 'ident'; readonly p: string }
  /** A fixed word, with the shape shown when it is missing. */
  | { readonly t: 'lit'; readonly word: string; readonly hint: string };

/** How one keyword (possibly several words) reads. */
export interface Form {
  readonly run: ActionName;
  readonly slots: readonly Slot[];
  /** Parameters the keyword implies (`click` → action: click). */
  readonly fixed?: Readonly<Record<string, FlowValue>>;
  /** Short parameter names accepted after the positional part (`timeout` → timeoutMs). */
  readonly aliases?: Readonly<Record<string, string>>;
  /** Handled by dedicated code in the parser. */
  readonly custom?: 'js' | 'emit' | 'set' | 'return' | 'loop' | 'http';
}

const name: Slot = { t: 'name' };

const waitFor: Form = {
  run: 'wait-for',
  slots: [{ t: 'param', p: 'selector' }],
  aliases: { timeout: 'timeoutMs' },
};
const idle: Form = {
  run: 'wait-for-network-idle',
  slots: [{ t: 'opt', p: 'idleMs', when: 'number' }],
  aliases: { idle: 'idleMs', timeout: 'timeoutMs', max: 'maxInflight' },
};
const scroll: Form = {
  run: 'scroll-until-stable',
  slots: [{ t: 'param', p: 'selector' }],
  aliases: { stable: 'stableMs', max: 'maxIterations' },
};
const htmlToPdf: Form = { run: 'html-to-pdf', slots: [name], aliases: { content: 'html' } };
const getCookies: Form = { run: 'get-cookies', slots: [name] };
const setCookies: Form = { run: 'set-cookies', slots: [{ t: 'opt', p: 'cookies', when: 'value' }] };
const http = (method?: string): Form => ({
  run: 'http-request',
  slots: [name, { t: 'opt', p: 'url', when: 'value' }],
  ...(method ? { fixed: { method } } : {}),
  aliases: { timeout: 'timeoutMs' },
});
const downloadEach: Form = {
  run: 'download-each',
  slots: [name, { t: 'opt', p: 'selector', when: 'value' }],
  aliases: { timeout: 'timeoutPerFileMs' },
};
const readFile: Form = { run: 'read-file', slots: [name, { t: 'opt', p: 'path', when: 'value' }] };
const saveHtml: Form = { run: 'save-html', slots: [{ t: 'opt', p: 'path', when: 'value' }] };
const emit: Form = { run: 'emit-event', slots: [], custom: 'emit' };
const setVar: Form = { run: 'set', slots: [], custom: 'set' };

/** Every step keyword, multi-word ones written with single spaces. */
export const FORMS: Readonly<Record<string, Form>> = nullProto({
  goto: { run: 'goto', slots: [{ t: 'param', p: 'url' }] },
  wait: { run: 'wait', slots: [{ t: 'param', p: 'duration' }] },
  'wait until': waitFor,
  'wait-until': waitFor,
  'wait-for': waitFor,
  'wait network idle': idle,
  'wait-network-idle': idle,
  'wait-for-network-idle': idle,
  sendkeys: { run: 'sendkeys', slots: [{ t: 'param', p: 'selector' }] },
  click: { run: 'action', slots: [{ t: 'param', p: 'selector' }], fixed: { action: 'click' } },
  action: { run: 'action', slots: [] },
  'scroll until stable': scroll,
  'scroll-until-stable': scroll,
  js: { run: 'js', slots: [], custom: 'js' },
  extract: {
    run: 'extract',
    slots: [
      { t: 'name', required: true },
      { t: 'lit', word: 'from', hint: 'from "<selector>"' },
      { t: 'param', p: 'selector' },
    ],
  },
  screenshot: { run: 'screenshot', slots: [name] },
  pdf: { run: 'pdf', slots: [name] },
  'html-to-pdf': htmlToPdf,
  'html to pdf': htmlToPdf,
  snapshot: { run: 'snapshot', slots: [name] },
  emulate: {
    run: 'emulate',
    slots: [{ t: 'opt', p: 'colorScheme', when: ['light', 'dark', 'no-preference'] }],
  },
  record: { run: 'record', slots: [name] },
  'capture-network': { run: 'capture-network', slots: [name] },
  console: { run: 'console', slots: [name] },
  'get-cookies': getCookies,
  'get cookies': getCookies,
  'set-cookies': setCookies,
  'set cookies': setCookies,
  'http-get': http('GET'),
  'http-post': http('POST'),
  'http-request': http(),
  http: { ...http(), custom: 'http' },
  'download-each': downloadEach,
  'download each': downloadEach,
  'save-captures-to-dir': {
    run: 'save-captures-to-dir',
    slots: [name, { t: 'opt', p: 'dir', when: 'value' }],
  },
  'for-each': {
    run: 'for-each',
    slots: [
      { t: 'ident', p: 'as' },
      { t: 'lit', word: 'in', hint: 'in "{{list}}"' },
      { t: 'param', p: 'over' },
    ],
  },
  loop: {
    run: 'loop',
    slots: [],
    custom: 'loop',
    aliases: { pause: 'pauseMs', max: 'maxIterations' },
  },
  call: { run: 'call', slots: [{ t: 'param', p: 'task' }] },
  return: { run: 'return', slots: [], custom: 'return' },
  set: setVar,
  let: setVar,
  bind: setVar,
  export: { run: 'export', slots: [{ t: 'param', p: 'format' }, name] },
  'read-file': readFile,
  'read file': readFile,
  'write-files': { run: 'write-files', slots: [name, { t: 'opt', p: 'root', when: 'value' }] },
  'save-html': saveHtml,
  'save html': saveHtml,
  emit,
  'emit-event': emit,
});

/** First words of multi-word keywords that are not keywords alone, with the shape to show. */
export const PREFIX_HINTS: Readonly<Record<string, string>> = nullProto({
  scroll: 'scroll until stable "<selector>"',
  html: 'html to pdf [<name>] html "<source>"',
  save: 'save html path "<file>"',
  read: 'read file <name> path "<file>"',
  get: 'get cookies <name>',
  download: 'download each <name> selector "<selector>"',
});

/** Header lines of a task (only at its top level). */
export const HEADER_KEYWORDS = ['pool', 'timeout', 'transport', 'input', 'setup'] as const;

/** Every word that can start a line, for "did you mean" suggestions. */
export const LINE_KEYWORDS: readonly string[] = [
  ...new Set([
    ...Object.keys(FORMS).filter((k) => !k.includes(' ')),
    ...Object.keys(PREFIX_HINTS),
    ...HEADER_KEYWORDS,
    'status',
    'end',
    'task',
  ]),
].sort();

/** Keywords whose step opens a block, by block kind. */
export function blockKindOf(keyword: string): 'steps' | 'fields' | undefined {
  const f = FORMS[keyword];
  if (!f) return undefined;
  if (f.run === 'extract') return 'fields';
  return ['record', 'capture-network', 'console', 'for-each', 'loop'].includes(f.run)
    ? 'steps'
    : undefined;
}
