/**
 * The recipe language (`.task`, `.webtask`): one `task "<slug>" … end` per file, read
 * line by line into a TaskDef. Every problem is collected; nothing throws.
 */
import { ACTIONS, type ParamSpec } from './actions.js';
import { fileDiagnostic, sortDiagnostics, type Diagnostic } from './diagnostics.js';
import type { RecipeErrorCode } from './errors.js';
import { bareScalar, parseFlowValue } from './internal/flow-value.js';
import {
  FORMS,
  HEADER_KEYWORDS,
  LINE_KEYWORDS,
  PREFIX_HINTS,
  blockKindOf,
  type Form,
} from './internal/keywords.js';
import { lexLine, type Token } from './internal/lexer.js';
import { FIELD_KINDS, TRANSFORMS, normalizeStep, type MutableStep } from './internal/normalize.js';
import { nullProto } from './internal/null-proto.js';
import { didYouMean, suggest } from './internal/suggest.js';
import { checkTemplateNames } from './template-refs.js';
import type { FlowValue, InputDef, InputType, StepDef, TaskDef, Transport } from './taskdef.js';

/** Options of {@link parseRecipe} and {@link loadTask}. */
export interface ParseOptions {
  /**
   * Names that `{{…}}` may reference besides inputs and bindings (declared secrets,
   * environment variables): they produce no warning.
   * @default []
   */
  readonly knownNames?: Iterable<string>;
}

/** Result of loading a task: the TaskDef and its warnings, or every diagnostic. */
export type LoadResult =
  | { readonly ok: true; readonly task: TaskDef; readonly warnings: readonly Diagnostic[] }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

const IDENT = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const INPUT_TYPES: Record<string, InputType> = nullProto({
  string: 'string',
  int: 'int',
  integer: 'int',
  float: 'float',
  number: 'float',
  bool: 'bool',
  boolean: 'bool',
  json: 'json',
});
const TRANSPORTS: readonly Transport[] = ['rest', 'sse', 'websocket', 'async'];
const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/;
const PLAIN_NUMBER = /^-?\d[\d_]*(?:\.\d+)?$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Parse a bare number (`1500`, `1_500`, `0.5`) or, when allowed, a duration (`20s`) in ms. */
export function parseNumberWord(word: string, allowDuration: boolean): number | undefined {
  if (PLAIN_NUMBER.test(word) && !word.includes('__') && !word.endsWith('_'))
    return Number(word.replace(/_/g, ''));
  if (allowDuration) {
    const m = DURATION.exec(word);
    if (m) return Math.round(Number(m[1]) * UNIT_MS[m[2]!]!);
  }
  return undefined;
}

interface Frame {
  kind: 'task' | 'steps' | 'fields';
  keyword: string;
  /** Whether the opening line or a field line had errors (then validation is skipped). */
  dirty?: boolean;
  line: number;
  col: number;
  steps: MutableStep[];
  step?: MutableStep;
  label?: string;
  paramPos?: Map<string, { line: number; col: number }>;
  fields?: Record<string, FlowValue>;
  pendingStatus?: { text: string; line: number; col: number };
}

class Cursor {
  i = 0;
  readonly tokens: readonly Token[];
  constructor(tokens: readonly Token[]) {
    this.tokens = tokens;
  }
  peek(offset = 0): Token | undefined {
    return this.tokens[this.i + offset];
  }
  next(): Token | undefined {
    return this.tokens[this.i++];
  }
  get done(): boolean {
    return this.i >= this.tokens.length;
  }
}

function isDurationParam(name: string): boolean {
  return name.endsWith('Ms') || name === 'duration';
}

/**
 * Parse a recipe into a TaskDef (every step with its `pos`), or report every error.
 * Never throws: problems come back as diagnostics (`file:line:col: message`).
 *
 * @example
 * const r = parseRecipe('task "demo/title"\n  goto "https://example.com"\nend\n', 'tasks/title.task');
 * if (r.ok) console.log(r.task.flow[0]?.run); // 'goto'
 * else for (const d of r.diagnostics) console.error(formatDiagnostic(d, text));
 */
export function parseRecipe(text: string, file: string, options: ParseOptions = {}): LoadResult {
  try {
    return new RecipeParser(String(text), file).run(options);
  } catch (err) {
    // A bug must not take a server down: report it like any other problem.
    return {
      ok: false,
      diagnostics: [
        fileDiagnostic(
          file,
          'ERR_RECIPE_SYNTAX',
          `internal parser error: ${err instanceof Error ? err.message : String(err)}`,
        ),
      ],
    };
  }
}

class RecipeParser {
  private readonly lines: string[];
  private readonly diags: Diagnostic[] = [];
  private readonly stack: Frame[] = [];
  private taskFrame: Frame | undefined;
  private taskClosedAt: { line: number; col: number } | undefined;
  private afterCloseReported = false;
  private implicitTask = false;
  private name = '';
  private poolTag: string | undefined;
  private timeoutMs: number | undefined;
  private setupTask: string | undefined;
  private readonly transports: Transport[] = [];
  private readonly input: Record<string, InputDef> = {};
  private readonly headerSeen = new Map<string, { line: number; col: number }>();
  private readonly statusLine = new WeakMap<MutableStep, number>();
  private lineNo = 0;
  /** Number of diagnostics when the current line started (a line with errors skips validation). */
  private lineDiagStart = 0;
  private readonly file: string;

  constructor(text: string, file: string) {
    this.file = file;
    this.lines = text.split(/\r?\n/);
  }

  private err(
    col: number,
    message: string,
    code: RecipeErrorCode = 'ERR_RECIPE_INVALID',
    line = this.lineNo,
  ): void {
    this.diags.push({ file: this.file, line, col, message, severity: 'error', code });
  }

  private syntax(col: number, message: string): void {
    this.err(col, message, 'ERR_RECIPE_SYNTAX');
  }

  run(options: ParseOptions): LoadResult {
    for (let i = 0; i < this.lines.length; i++) {
      this.lineNo = i + 1;
      this.line(this.lines[i]!);
    }
    this.finish();
    const errors = this.diags.some((d) => d.severity === 'error');
    if (errors || !this.taskFrame) return { ok: false, diagnostics: sortDiagnostics(this.diags) };
    const task: TaskDef = {
      name: this.name,
      poolTag: this.poolTag ?? 'default',
      transports: this.transports,
      ...(this.timeoutMs !== undefined ? { timeoutMs: this.timeoutMs } : {}),
      input: this.input,
      ...(this.setupTask !== undefined ? { setupTask: this.setupTask } : {}),
      flow: this.taskFrame.steps,
      source: this.file,
    };
    const warnings = checkTemplateNames(task, options.knownNames ?? [], (step, name) =>
      this.locate(step, name),
    );
    return { ok: true, task, warnings: sortDiagnostics([...this.diags, ...warnings]) };
  }

  private locate(step: StepDef, name: string): { line: number; col: number } | undefined {
    const re = new RegExp(
      `\\{\\{\\s*${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9_-])`,
    );
    const candidates = [step.pos?.line, this.statusLine.get(step as MutableStep)];
    for (const line of candidates) {
      if (line === undefined) continue;
      const m = re.exec(this.lines[line - 1] ?? '');
      if (m) return { line, col: m.index + 1 };
    }
    return undefined;
  }

  private get top(): Frame | undefined {
    return this.stack[this.stack.length - 1];
  }

  private line(raw: string): void {
    const trimmed = raw.trimStart();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    this.lineDiagStart = this.diags.length;
    const lexed = lexLine(raw);
    if (lexed.error) this.syntax(lexed.error.col, lexed.error.message);
    let tokens = lexed.tokens;
    if (tokens.length === 0) return;
    // webtasks' `do <step>` prefix inside blocks is accepted and ignored.
    if (tokens[0]!.kind === 'word' && tokens[0]!.text === 'do' && tokens.length > 1)
      tokens = tokens.slice(1);
    const first = tokens[0]!;
    if (first.kind !== 'word') {
      this.syntax(
        first.col,
        `expected a keyword at the start of the line, found ${first.kind === 'string' ? 'a string' : `\`${first.raw.slice(0, 20)}\``}`,
      );
      return;
    }
    const kw = first.text;

    if (this.taskClosedAt) {
      if (this.afterCloseReported) return;
      this.afterCloseReported = true;
      const closed = `${this.taskClosedAt.line}:${this.taskClosedAt.col}`;
      if (kw === 'task')
        this.err(
          first.col,
          `duplicate \`task\`: a file holds exactly one task, and the task was closed at ${closed}`,
          'ERR_RECIPE_SYNTAX',
        );
      else if (kw === 'end')
        this.syntax(first.col, `stray \`end\`: the task was already closed at ${closed}`);
      else
        this.syntax(
          first.col,
          `unexpected \`${kw}\` after the task's closing \`end\` at ${closed}`,
        );
      return;
    }

    if (kw === 'task') {
      this.taskLine(tokens);
      return;
    }
    if (!this.taskFrame) {
      this.syntax(first.col, `expected \`task "<slug>"\` to open the recipe, found \`${kw}\``);
      this.implicitTask = true;
      this.openTask('', first.col);
    }
    if (kw === 'end') {
      this.endLine(tokens);
      return;
    }
    const frame = this.top!;
    if (frame.kind === 'fields') {
      this.fieldLine(frame, tokens);
      return;
    }
    if ((HEADER_KEYWORDS as readonly string[]).includes(kw)) {
      if (frame.kind !== 'task') {
        this.syntax(
          first.col,
          `\`${kw}\` is a header line: it belongs at the top level of the task, not inside \`${frame.keyword}\``,
        );
        return;
      }
      this.headerLine(kw, tokens);
      return;
    }
    if (kw === 'status') {
      this.statusLineParse(frame, tokens);
      return;
    }
    this.stepLine(frame, tokens);
  }

  private openTask(name: string, col: number): void {
    this.name = name;
    this.taskFrame = { kind: 'task', keyword: 'task', line: this.lineNo, col, steps: [] };
    this.stack.push(this.taskFrame);
  }

  private taskLine(tokens: Token[]): void {
    const first = tokens[0]!;
    if (this.taskFrame && this.implicitTask && this.name === '' && this.stack.length === 1) {
      // The missing-`task` error is already reported: adopt this line's slug.
      const slug = tokens[1];
      if (slug && slug.kind !== 'group') this.name = slug.text;
      return;
    }
    if (this.taskFrame) {
      this.err(
        first.col,
        `duplicate \`task\`: a file holds exactly one task, and the task opened at ${this.taskFrame.line}:${this.taskFrame.col} is still open`,
        'ERR_RECIPE_SYNTAX',
      );
      return;
    }
    const slugTok = tokens[1];
    let slug = '';
    if (!slugTok)
      this.syntax(first.col + 4, 'expected the task slug after `task`, e.g. `task "shop/search"`');
    else if (slugTok.kind === 'group')
      this.syntax(slugTok.col, 'expected the task slug after `task`, e.g. `task "shop/search"`');
    else {
      slug = slugTok.text;
      if (slug.trim() === '') this.err(slugTok.col, 'the task slug must not be empty');
      else if (slug.startsWith('/') || slug.endsWith('/') || slug.includes('//')) {
        this.err(
          slugTok.col,
          `invalid task slug \`${slug}\`: it must not start or end with \`/\` nor contain \`//\``,
        );
      }
    }
    const extra = tokens[2];
    if (extra) this.syntax(extra.col, `unexpected \`${extra.raw}\` after the task slug`);
    this.openTask(slug, first.col);
  }

  private endLine(tokens: Token[]): void {
    const first = tokens[0]!;
    const frame = this.stack.pop();
    if (!frame) {
      this.syntax(first.col, 'stray `end`: no block is open');
      return;
    }
    const label = tokens[1];
    if (label) {
      const ok =
        label.kind === 'word' &&
        (label.text === frame.keyword ||
          (frame.kind !== 'task' && FORMS[label.text]?.run === frame.step?.run));
      if (!ok) {
        this.syntax(
          label.col,
          `\`end ${label.raw}\` does not match \`${frame.keyword}\` opened at ${frame.line}:${frame.col}`,
        );
      }
      const extra = tokens[2];
      if (extra) this.syntax(extra.col, `unexpected \`${extra.raw}\` after \`end ${label.raw}\``);
    }
    this.closeFrame(frame);
    if (frame.kind === 'task') this.taskClosedAt = { line: this.lineNo, col: first.col };
  }

  private closeFrame(frame: Frame): void {
    this.flushStatus(frame);
    if (frame.kind === 'fields' && frame.step) {
      frame.step.params['fields'] = frame.fields ?? {};
      if (!frame.dirty) this.normalize(frame.step, frame.label ?? 'extract', frame.paramPos);
    }
  }

  private flushStatus(frame: Frame): void {
    const s = frame.pendingStatus;
    if (!s || frame.kind === 'fields') return;
    frame.pendingStatus = undefined;
    const step: MutableStep = {
      run: 'emit-event',
      params: { kind: 'status', text: s.text },
      pos: { file: this.file, line: s.line, col: s.col },
    };
    this.normalize(step, 'status', undefined, s.line);
    frame.steps.push(step);
  }

  private finish(): void {
    if (!this.taskFrame) {
      this.diags.push({
        file: this.file,
        line: 1,
        col: 1,
        severity: 'error',
        code: 'ERR_RECIPE_SYNTAX',
        message: 'expected `task "<slug>"`: the file holds no task',
      });
      return;
    }
    if (this.taskClosedAt) return;
    // Report at the end of the last non-empty line.
    let lastLine = this.lines.length;
    while (lastLine > 1 && (this.lines[lastLine - 1] ?? '').trim() === '') lastLine--;
    const col = (this.lines[lastLine - 1] ?? '').length + 1;
    while (this.stack.length > 0) {
      const frame = this.stack.pop()!;
      this.closeFrame(frame);
      if (frame.kind === 'task' && this.implicitTask) continue;
      this.err(
        col,
        `expected \`end\` to close \`${frame.keyword}\` opened at ${frame.line}:${frame.col}`,
        'ERR_RECIPE_SYNTAX',
        lastLine,
      );
    }
  }

  // ---- header lines -------------------------------------------------------------

  private once(kw: string, col: number): boolean {
    const seen = this.headerSeen.get(kw);
    if (seen) {
      this.err(col, `duplicate \`${kw}\` line (first at ${seen.line}:${seen.col})`);
      return false;
    }
    this.headerSeen.set(kw, { line: this.lineNo, col });
    return true;
  }

  private oneArg(tokens: Token[], what: string): Token | undefined {
    const kw = tokens[0]!;
    const arg = tokens[1];
    if (!arg || arg.kind === 'group') {
      this.syntax(arg?.col ?? kw.end + 1, `expected ${what} after \`${kw.text}\``);
      return undefined;
    }
    const extra = tokens[2];
    if (extra)
      this.syntax(extra.col, `unexpected \`${extra.raw}\` after \`${kw.text} ${arg.raw}\``);
    return arg;
  }

  private headerLine(kw: string, tokens: Token[]): void {
    const first = tokens[0]!;
    switch (kw) {
      case 'pool': {
        const arg = this.oneArg(tokens, 'a pool tag');
        if (arg && this.once(kw, first.col)) this.poolTag = arg.text;
        return;
      }
      case 'setup': {
        const arg = this.oneArg(tokens, 'the slug of the setup task');
        if (arg && this.once(kw, first.col)) this.setupTask = arg.text;
        return;
      }
      case 'timeout': {
        const arg = this.oneArg(tokens, 'a timeout in milliseconds (e.g. `30000` or `30s`)');
        if (!arg) return;
        const ms = arg.kind === 'word' ? parseNumberWord(arg.text, true) : undefined;
        if (ms === undefined || !Number.isInteger(ms)) {
          this.err(
            arg.col,
            `bad timeout \`${arg.raw}\`: expected milliseconds (e.g. \`30000\`) or a duration (e.g. \`30s\`)`,
          );
        } else if (ms <= 0) {
          this.err(arg.col, `bad timeout \`${arg.raw}\`: it must be greater than 0`);
        } else if (this.once(kw, first.col)) this.timeoutMs = ms;
        return;
      }
      case 'transport': {
        const arg = this.oneArg(tokens, 'a transport name (rest, sse, websocket or async)');
        if (!arg) return;
        if (!(TRANSPORTS as readonly string[]).includes(arg.text)) {
          this.err(
            arg.col,
            `unknown transport \`${arg.text}\`${didYouMean(arg.text, TRANSPORTS)} (expected rest, sse, websocket or async)`,
          );
        } else if (!this.transports.includes(arg.text as Transport))
          this.transports.push(arg.text as Transport);
        return;
      }
      case 'input':
        this.inputLine(tokens);
        return;
    }
  }

  private inputLine(tokens: Token[]): void {
    const first = tokens[0]!;
    const nameTok = tokens[1];
    if (!nameTok) {
      this.syntax(
        first.end + 1,
        'expected an input name after `input`, e.g. `input q string required`',
      );
      return;
    }
    if (nameTok.kind !== 'word' || !IDENT.test(nameTok.text)) {
      this.err(
        nameTok.col,
        `invalid input name \`${nameTok.raw}\`: names start with a letter or \`_\` and hold letters, digits, \`_\` or \`-\``,
      );
      return;
    }
    const name = nameTok.text;
    const typeTok = tokens[2];
    if (!typeTok) {
      this.syntax(
        nameTok.end + 1,
        `expected a type after \`input ${name}\` (string, int, float, bool or json)`,
      );
      return;
    }
    const type = INPUT_TYPES[typeTok.text];
    if (typeTok.kind !== 'word' || !type) {
      this.err(
        typeTok.col,
        `unknown input type \`${typeTok.raw}\`${didYouMean(typeTok.text, Object.keys(INPUT_TYPES))} (expected string, int, float, bool or json)`,
      );
      return;
    }
    let required = false;
    let def: FlowValue | undefined;
    let doc: string | undefined;
    let ok = true;
    const c = new Cursor(tokens);
    c.i = 3;
    while (!c.done) {
      const t = c.next()!;
      if (t.kind === 'word' && t.text === 'required') required = true;
      else if (t.kind === 'word' && t.text === 'default') {
        const v = c.next();
        if (!v) {
          this.syntax(t.end + 1, `expected a value after \`default\` for input \`${name}\``);
          ok = false;
          break;
        }
        const parsed = this.inputDefault(v, type, name);
        if (parsed === undefined) ok = false;
        else def = parsed;
      } else if (t.kind === 'word' && t.text === 'doc') {
        const rest = c.tokens.slice(c.i);
        if (rest.length === 0) {
          this.syntax(t.end + 1, `expected the documentation after \`doc\` for input \`${name}\``);
          ok = false;
        } else if (rest.length === 1 && rest[0]!.kind === 'string') doc = rest[0]!.text;
        else doc = this.lines[this.lineNo - 1]!.slice(rest[0]!.start).trimEnd();
        break;
      } else {
        this.err(
          t.col,
          `unexpected \`${t.raw}\` in \`input ${name}\`${didYouMean(t.text, ['required', 'default', 'doc'])} (expected required, default <value> or doc "<text>")`,
        );
        ok = false;
        break;
      }
    }
    if (Object.hasOwn(this.input, name)) {
      this.err(nameTok.col, `duplicate input \`${name}\``);
      return;
    }
    if (!ok) return;
    this.input[name] = {
      type,
      required,
      ...(def !== undefined ? { default: def } : {}),
      ...(doc !== undefined ? { doc } : {}),
    };
    if (required && def !== undefined) {
      this.diags.push({
        file: this.file,
        line: this.lineNo,
        col: nameTok.col,
        severity: 'warning',
        code: 'WARN_RECIPE_IGNORED',
        message: `input \`${name}\` is \`required\` but has a default: the default always applies, so \`required\` has no effect`,
      });
    }
  }

  private inputDefault(v: Token, type: InputType, name: string): FlowValue | undefined {
    const bad = (expected: string): undefined => {
      this.err(
        v.col,
        `bad default \`${v.raw}\` for ${type} input \`${name}\`: expected ${expected}`,
      );
      return undefined;
    };
    switch (type) {
      case 'string':
        return v.text;
      case 'int': {
        const n = v.kind === 'word' ? parseNumberWord(v.text, false) : undefined;
        return n !== undefined && Number.isInteger(n) ? n : bad('an integer');
      }
      case 'float': {
        const n = v.kind === 'word' ? parseNumberWord(v.text, false) : undefined;
        return n !== undefined ? n : bad('a number');
      }
      case 'bool':
        return v.kind === 'word' && (v.text === 'true' || v.text === 'false')
          ? v.text === 'true'
          : bad('true or false');
      case 'json': {
        if (v.kind === 'string') return v.text;
        if (v.kind === 'word') return bareScalar(v.text);
        return this.flow(v);
      }
    }
  }

  private flow(t: Token): FlowValue | undefined {
    const r = parseFlowValue(t.raw);
    if (!r.ok) {
      this.syntax(
        t.col + r.index,
        r.message.startsWith('invalid flow value') || r.message.startsWith('unterminated')
          ? r.message
          : `invalid flow value: ${r.message}`,
      );
      return undefined;
    }
    if (r.end < t.raw.length) {
      this.syntax(
        t.col + r.end,
        `invalid flow value: unexpected \`${t.raw.slice(r.end, r.end + 10)}\` after the value`,
      );
      return undefined;
    }
    return r.value;
  }

  // ---- status and steps ---------------------------------------------------------

  private restValue(tokens: readonly Token[], from: number): string | undefined {
    const rest = tokens.slice(from);
    if (rest.length === 0) return undefined;
    if (rest.length === 1) return rest[0]!.text;
    return this.lines[this.lineNo - 1]!.slice(rest[0]!.start).trimEnd();
  }

  private statusLineParse(frame: Frame, tokens: Token[]): void {
    const text = this.restValue(tokens, 1);
    if (text === undefined) {
      this.syntax(
        tokens[0]!.end + 1,
        'expected the status text after `status`, e.g. `status "Loading results"`',
      );
      return;
    }
    if (frame.pendingStatus) this.flushStatus(frame);
    frame.pendingStatus = { text, line: this.lineNo, col: tokens[0]!.col };
  }

  private matchForm(tokens: Token[]): { key: string; form: Form; used: number } | undefined {
    for (const n of [3, 2, 1]) {
      if (tokens.length < n) continue;
      const words = tokens.slice(0, n);
      if (!words.every((t) => t.kind === 'word')) continue;
      const key = words.map((t) => t.text).join(' ');
      const form = FORMS[key];
      if (form) return { key, form, used: n };
    }
    return undefined;
  }

  private stepLine(frame: Frame, tokens: Token[]): void {
    const first = tokens[0]!;
    const match = this.matchForm(tokens);
    if (!match) {
      const hint = PREFIX_HINTS[first.text];
      if (hint) {
        this.err(
          first.col,
          `unknown action \`${first.text}${tokens[1] ? ` ${tokens[1].raw}` : ''}\`: expected \`${hint}\``,
        );
        return;
      }
      const s = suggest(first.text, LINE_KEYWORDS);
      this.err(
        first.col,
        `unknown action \`${first.text}\`${s ? ` — did you mean \`${s}\`?` : ''}`,
      );
      // Keep block structure intact when the typo is of a block keyword.
      const kind = s ? blockKindOf(s) : undefined;
      if (kind)
        this.stack.push({
          kind,
          keyword: first.text,
          line: this.lineNo,
          col: first.col,
          steps: [],
          fields: {},
          dirty: true,
        });
      return;
    }
    const { key, form, used } = match;
    const step: MutableStep = {
      run: form.run,
      params: { ...(form.fixed ?? {}) },
      pos: { file: this.file, line: this.lineNo, col: first.col },
    };
    if (frame.pendingStatus) {
      step.status = frame.pendingStatus.text;
      this.statusLine.set(step, frame.pendingStatus.line);
      frame.pendingStatus = undefined;
    }
    const paramPos = new Map<string, { line: number; col: number }>();
    const c = new Cursor(tokens);
    c.i = used;
    this.stepBody(key, form, step, c, paramPos);
    frame.steps.push(step);
    // Errors on this line already explain it: no "missing parameter" echo of the same problem.
    const dirty = this.diags.length > this.lineDiagStart;
    const kind = blockKindOf(key);
    if (kind === 'fields') {
      this.stack.push({
        kind,
        keyword: key,
        line: this.lineNo,
        col: first.col,
        steps: [],
        step,
        label: key,
        paramPos,
        fields: {},
        dirty,
      });
      return;
    }
    if (kind === 'steps') step.do = [];
    if (!dirty) this.normalize(step, key, paramPos);
    if (kind === 'steps') {
      this.stack.push({
        kind,
        keyword: key,
        line: this.lineNo,
        col: first.col,
        steps: step.do!,
        step,
        label: key,
      });
    }
  }

  private normalize(
    step: MutableStep,
    label: string,
    paramPos?: Map<string, { line: number; col: number }>,
    line?: number,
  ): void {
    const at = { line: line ?? step.pos?.line ?? this.lineNo, col: step.pos?.col ?? 1 };
    normalizeStep(step, label, {
      error: (message, param) => {
        const p = (param !== undefined ? paramPos?.get(param) : undefined) ?? at;
        this.err(p.col, message, 'ERR_RECIPE_INVALID', p.line);
      },
    });
  }

  private paramNames(form: Form): string[] {
    return [...Object.keys(ACTIONS[form.run].params), ...Object.keys(form.aliases ?? {}), 'path'];
  }

  private isTailWord(form: Form, t: Token | undefined): boolean {
    if (!t || t.kind !== 'word') return false;
    return t.text === 'as' || t.text === 'record' || this.paramNames(form).includes(t.text);
  }

  private setParam(
    step: MutableStep,
    name: string,
    value: FlowValue | undefined,
    tok: Token,
    paramPos: Map<string, { line: number; col: number }>,
  ): void {
    if (value === undefined) return;
    if (paramPos.has(name)) {
      const p = paramPos.get(name)!;
      this.err(tok.col, `duplicate parameter \`${name}\` (first at ${p.line}:${p.col})`);
      return;
    }
    step.params[name] = value;
    paramPos.set(name, { line: this.lineNo, col: tok.col });
  }

  /** Convert a value token for a parameter of the given type. */
  private value(tok: Token, spec: ParamSpec, name: string, label: string): FlowValue | undefined {
    const type = spec.type;
    if (tok.kind === 'string') return tok.text;
    if (type === 'string') return tok.text;
    if (type === 'int' || type === 'number') {
      if (tok.kind === 'word') {
        const n = parseNumberWord(tok.text, isDurationParam(name));
        if (n !== undefined && (type === 'number' || Number.isInteger(n))) return n;
      }
      this.err(
        tok.col,
        `bad number \`${tok.raw}\` for \`${name}\` of \`${label}\`: expected ${type === 'int' ? 'an integer' : 'a number'}${isDurationParam(name) ? ' of milliseconds (or a duration such as `2s`)' : ''} or a quoted template`,
      );
      return undefined;
    }
    if (type === 'bool') {
      if (tok.kind === 'word' && (tok.text === 'true' || tok.text === 'false'))
        return tok.text === 'true';
      this.err(
        tok.col,
        `bad value \`${tok.raw}\` for \`${name}\` of \`${label}\`: expected true or false`,
      );
      return undefined;
    }
    if (tok.kind === 'group') return this.flow(tok);
    return bareScalar(tok.text);
  }

  private specOf(form: Form, name: string): ParamSpec {
    const specs = ACTIONS[form.run].params as Readonly<Record<string, ParamSpec>>;
    return (Object.hasOwn(specs, name) ? specs[name] : undefined) ?? { type: 'string' };
  }

  private stepBody(
    key: string,
    form: Form,
    step: MutableStep,
    c: Cursor,
    paramPos: Map<string, { line: number; col: number }>,
  ): void {
    const label = key;
    switch (form.custom) {
      case 'js':
        return this.jsBody(form, step, c, paramPos);
      case 'emit':
        return this.emitBody(form, step, c, paramPos);
      case 'set':
      case 'return':
        return this.valueBody(form, step, c, paramPos, key);
      case 'http': {
        const m = c.next();
        if (!m || m.kind !== 'word' || !HTTP_METHODS.includes(m.text.toUpperCase())) {
          this.err(
            m?.col ?? this.endCol(c),
            `expected an HTTP method after \`http\` (GET, POST, PUT, PATCH or DELETE)${m ? `, found \`${m.raw}\`` : ''}`,
          );
          return;
        }
        this.setParam(step, 'method', m.text.toUpperCase(), m, paramPos);
        break;
      }
      case 'loop': {
        const w = c.peek();
        const k = c.peek(1);
        if (
          w?.kind === 'word' &&
          (w.text === 'while' || w.text === 'until') &&
          k?.kind === 'word' &&
          (k.text === 'js' || k.text === 'fn')
        ) {
          c.i += 2;
          const v = c.next();
          const param = k.text === 'fn' ? `${w.text}Fn` : w.text;
          if (!v)
            this.syntax(
              k.end + 1,
              `expected ${k.text === 'fn' ? 'a module path' : 'a JS expression'} after \`${w.text} ${k.text}\``,
            );
          else
            this.setParam(
              step,
              param,
              this.value(v, { type: 'string' }, param, label),
              v,
              paramPos,
            );
        }
        break;
      }
      default:
        break;
    }
    for (const slot of form.slots) {
      const t = c.peek();
      switch (slot.t) {
        case 'param':
          if (!t) break; // normalisation reports the missing parameter
          // `goto url "…"`: a parameter name followed by a value is the named form.
          if (this.isTailWord(form, t) && c.peek(1)) break;
          c.next();
          this.setParam(
            step,
            slot.p,
            this.value(t, this.specOf(form, slot.p), slot.p, label),
            t,
            paramPos,
          );
          break;
        case 'opt': {
          if (!t || this.isTailWord(form, t)) break;
          if (
            slot.when === 'number' &&
            !(
              t.kind === 'string' ||
              (t.kind === 'word' && parseNumberWord(t.text, true) !== undefined)
            )
          )
            break;
          if (Array.isArray(slot.when) && !(t.kind === 'word' && slot.when.includes(t.text))) break;
          c.next();
          this.setParam(
            step,
            slot.p,
            this.value(t, this.specOf(form, slot.p), slot.p, label),
            t,
            paramPos,
          );
          break;
        }
        case 'name':
          if (slot.required) {
            if (!t) {
              this.syntax(
                this.endCol(c),
                `expected a result name after \`${key}\`, e.g. \`${key} rows from ".row"\``,
              );
              return;
            }
            c.next();
            this.bindName(step, t);
          } else if (t && t.kind === 'word' && IDENT.test(t.text) && !this.isTailWord(form, t)) {
            c.next();
            this.bindName(step, t);
          }
          break;
        case 'ident':
          if (!t) {
            this.syntax(
              this.endCol(c),
              `expected a name after \`${key}\`, e.g. \`${key} item in "{{items}}"\``,
            );
            return;
          }
          c.next();
          if (t.kind !== 'word' || !IDENT.test(t.text)) {
            this.err(
              t.col,
              `invalid name \`${t.raw}\`: names start with a letter or \`_\` and hold letters, digits, \`_\` or \`-\``,
            );
          } else this.setParam(step, slot.p, t.text, t, paramPos);
          break;
        case 'lit': {
          if (!t || t.kind !== 'word' || t.text !== slot.word) {
            const before = c.tokens
              .slice(0, c.i)
              .map((x) => x.raw)
              .join(' ');
            this.syntax(
              t?.col ?? this.endCol(c),
              `expected \`${slot.hint}\` after \`${before}\`${t ? `, found \`${t.raw}\`` : ''}`,
            );
            return;
          }
          c.next();
          break;
        }
      }
    }
    this.tail(form, step, c, paramPos, label);
  }

  private endCol(c: Cursor): number {
    const last = c.tokens[c.tokens.length - 1];
    return last ? last.end + 1 : 1;
  }

  private bindName(step: MutableStep, t: Token): void {
    if (t.kind !== 'word' || !IDENT.test(t.text)) {
      this.err(
        t.col,
        `invalid result name \`${t.raw}\`: names start with a letter or \`_\` and hold letters, digits, \`_\` or \`-\``,
      );
      return;
    }
    if (t.text !== '_') step.as = t.text;
  }

  /** The generic `paramName value` list after the positional part, plus `as NAME` and `record`. */
  private tail(
    form: Form,
    step: MutableStep,
    c: Cursor,
    paramPos: Map<string, { line: number; col: number }>,
    label: string,
    onUnknown?: (t: Token) => boolean,
  ): void {
    const specs = ACTIONS[form.run].params as Readonly<Record<string, ParamSpec>>;
    const aliases = form.aliases ?? {};
    while (!c.done) {
      const t = c.next()!;
      const word = t.kind === 'word' ? t.text : undefined;
      if (word === 'as') {
        const n = c.next();
        if (!n) this.syntax(t.end + 1, 'expected a result name after `as`');
        else this.bindName(step, n);
        continue;
      }
      if (word === 'record') {
        step.record = true;
        continue;
      }
      const param =
        word === undefined
          ? undefined
          : Object.hasOwn(aliases, word)
            ? aliases[word]!
            : Object.hasOwn(specs, word) || word === 'path'
              ? word
              : undefined;
      if (param !== undefined) {
        const spec = this.specOf(form, param);
        if (spec.type === 'bool') {
          const n = c.peek();
          if (n && (n.kind === 'string' || (n.kind === 'word' && !this.isTailWord(form, n)))) {
            c.next();
            this.setParam(step, param, this.value(n, spec, param, label), n, paramPos);
          } else this.setParam(step, param, true, t, paramPos);
          continue;
        }
        const v = c.next();
        if (!v) {
          this.syntax(t.end + 1, `expected a value after \`${word}\``);
          continue;
        }
        this.setParam(step, param, this.value(v, spec, param, label), v, paramPos);
        continue;
      }
      if (onUnknown?.(t)) return;
      const names = [
        ...new Set([
          ...Object.keys(specs).filter((k) => !(form.fixed && k in form.fixed)),
          ...Object.keys(aliases),
          'path',
          'as',
          'record',
        ]),
      ];
      if (word !== undefined) {
        this.err(
          t.col,
          `unknown parameter \`${word}\` for \`${label}\`${didYouMean(word, names)} (expected ${names.join(', ')})`,
        );
        // Skip the value that probably belongs to the unknown parameter.
        if (c.peek() && !this.isTailWord(form, c.peek())) c.next();
      } else {
        this.err(
          t.col,
          `unexpected \`${t.raw.length > 30 ? `${t.raw.slice(0, 30)}…` : t.raw}\` in \`${label}\`: expected a parameter name (${names.join(', ')})`,
        );
      }
    }
  }

  private jsBody(
    form: Form,
    step: MutableStep,
    c: Cursor,
    paramPos: Map<string, { line: number; col: number }>,
  ): void {
    const n = c.next();
    if (!n) {
      this.syntax(
        this.endCol(c),
        'expected a result name or `_` after `js`, e.g. `js title script "return document.title"`',
      );
      return;
    }
    this.bindName(step, n);
    this.tail(form, step, c, paramPos, 'js', (t) => {
      if (step.params['script'] !== undefined || step.params['fn'] !== undefined) return false;
      // webtasks' inline form: the rest of the line is the script source.
      const rest = c.tokens.slice(c.i - 1);
      const script =
        rest.length === 1 && t.kind === 'string'
          ? t.text
          : this.lines[this.lineNo - 1]!.slice(t.start).trimEnd();
      this.setParam(step, 'script', script, t, paramPos);
      return true;
    });
  }

  private emitBody(
    form: Form,
    step: MutableStep,
    c: Cursor,
    paramPos: Map<string, { line: number; col: number }>,
  ): void {
    const k = c.peek();
    if (k && k.kind === 'word' && !this.isTailWord(form, k)) {
      c.next();
      this.setParam(step, 'kind', k.text, k, paramPos);
    }
    const t = c.peek();
    if (t && t.kind !== 'group' && !this.isTailWord(form, t)) {
      c.next();
      this.setParam(step, 'text', t.text, t, paramPos);
    }
    this.tail(form, step, c, paramPos, 'emit');
  }

  private valueBody(
    form: Form,
    step: MutableStep,
    c: Cursor,
    paramPos: Map<string, { line: number; col: number }>,
    key: string,
  ): void {
    const kwTok = c.tokens[c.i - 1]!;
    if (form.custom === 'set') {
      const n = c.next();
      if (!n) {
        this.syntax(
          kwTok.end + 1,
          `expected a name and a value after \`${key}\`, e.g. \`${key} greeting "hello"\``,
        );
        return;
      }
      if (n.kind !== 'word' || !IDENT.test(n.text)) {
        this.err(
          n.col,
          `invalid name \`${n.raw}\`: names start with a letter or \`_\` and hold letters, digits, \`_\` or \`-\``,
        );
        return;
      }
      this.setParam(step, 'name', n.text, n, paramPos);
    }
    const rest = c.tokens.slice(c.i);
    const at = c.tokens[c.i - 1]!;
    if (rest.length === 0) {
      this.syntax(
        at.end + 1,
        `expected a value after \`${c.tokens
          .slice(0, c.i)
          .map((t) => t.raw)
          .join(' ')}\``,
      );
      return;
    }
    const v = rest[0]!;
    let value: FlowValue | undefined;
    if (rest.length === 1)
      value = v.kind === 'string' ? v.text : v.kind === 'group' ? this.flow(v) : bareScalar(v.text);
    else if (v.kind !== 'word') {
      const extra = rest[1]!;
      this.syntax(
        extra.col,
        `unexpected \`${extra.raw}\` after the ${v.kind === 'group' ? 'flow value' : 'string'} of \`${key}\``,
      );
      return;
    } else value = this.lines[this.lineNo - 1]!.slice(v.start).trimEnd();
    this.setParam(step, 'value', value, v, paramPos);
  }

  // ---- extract fields -------------------------------------------------------------

  private fieldLine(frame: Frame, tokens: Token[]): void {
    const before = this.diags.length;
    this.fieldLineInner(frame, tokens);
    if (this.diags.length > before) frame.dirty = true;
  }

  private fieldLineInner(frame: Frame, tokens: Token[]): void {
    const nameTok = tokens[0]!;
    const fields = frame.fields!;
    const name = nameTok.text;
    if (!IDENT.test(name)) {
      this.err(
        nameTok.col,
        `invalid field name \`${name}\`: names start with a letter or \`_\` and hold letters, digits, \`_\` or \`-\``,
      );
      return;
    }
    const kindTok = tokens[1];
    if (!kindTok) {
      const hint =
        FORMS[name] || (HEADER_KEYWORDS as readonly string[]).includes(name)
          ? ` (is an \`end\` missing before \`${name}\`?)`
          : '';
      this.syntax(
        nameTok.end + 1,
        `expected a field kind after \`${name}\`: text, attr, html or const${hint}`,
      );
      return;
    }
    const kind = kindTok.text;
    if (kindTok.kind !== 'word' || !(FIELD_KINDS as readonly string[]).includes(kind)) {
      const hint =
        FORMS[name] || (HEADER_KEYWORDS as readonly string[]).includes(name)
          ? ` (is an \`end\` missing before \`${name}\`?)`
          : '';
      this.err(
        kindTok.col,
        `unknown field kind \`${kindTok.raw}\` for field \`${name}\`${didYouMean(kind, FIELD_KINDS)} (expected text, attr, html or const)${hint}`,
      );
      return;
    }
    const field: Record<string, FlowValue> = { kind };
    const c = new Cursor(tokens);
    c.i = 2;
    const isTransform = (t: Token | undefined): boolean =>
      t?.kind === 'word' && (TRANSFORMS as readonly string[]).includes(t.text);
    if (kind === 'attr') {
      const a = c.next();
      if (!a) {
        this.syntax(
          kindTok.end + 1,
          `expected an attribute name after \`${name} attr\`, e.g. \`${name} attr href on "a"\``,
        );
        return;
      }
      field['name'] = a.text;
      const on = c.peek();
      if (on?.kind === 'word' && on.text === 'on') {
        c.next();
        const s = c.next();
        if (!s) {
          this.syntax(on.end + 1, `expected a selector after \`on\``);
          return;
        }
        field['selector'] = s.text;
      }
    } else if (kind === 'const') {
      const v = c.next();
      if (!v) {
        this.syntax(kindTok.end + 1, `expected a value after \`${name} const\``);
        return;
      }
      const value =
        v.kind === 'string' ? v.text : v.kind === 'group' ? this.flow(v) : bareScalar(v.text);
      if (value === undefined) return;
      field['value'] = value;
    } else if (!c.done && !isTransform(c.peek())) {
      field['selector'] = c.next()!.text;
    }
    if (kind !== 'const' && kind !== 'html' && isTransform(c.peek()))
      field['transform'] = c.next()!.text;
    const extra = c.peek();
    if (extra) {
      const hint =
        kind !== 'const' && kind !== 'html' && extra.kind === 'word'
          ? didYouMean(extra.text, TRANSFORMS)
          : '';
      this.err(
        extra.col,
        hint
          ? `unknown transform \`${extra.text}\` for field \`${name}\`${hint} (expected ${TRANSFORMS.join(', ')})`
          : `unexpected \`${extra.raw}\` after field \`${name}\``,
      );
      return;
    }
    if (Object.hasOwn(fields, name)) {
      this.err(nameTok.col, `duplicate field \`${name}\` in \`${frame.keyword}\``);
      return;
    }
    fields[name] = field;
  }
}
