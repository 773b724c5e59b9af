/**
 * `js`: a function body run in the page — a module under the bundle's `scripts/` (`fn`,
 * `.js` optional, re-read on every run so edits apply) or inline (`script`). `arguments`
 * holds `args`; `return` gives the step's value; a promise is awaited when `await` is set.
 * A module that is missing, escapes scripts/, has a syntax error or throws fails the step
 * with the module path and the error; the page is untouched and stays usable.
 */
import type { ActionImpl, StepContext } from '../context.js';
import { RunnerError } from '../errors.js';
import { cleanBundlePath } from '../paths.js';

/**
 * Reads `scripts/<module>` (adding `.js` when absent) from the bundle.
 *
 * @returns the bundle path and the source
 * @throws RunnerError `ERR_RUNNER_SCRIPT`
 */
export async function loadScriptModule(
  ctx: StepContext,
  label: string,
  module: string,
): Promise<{ path: string; source: string }> {
  const clean = cleanBundlePath('scripts', module);
  if (clean === undefined || module.startsWith('/')) {
    throw new RunnerError(
      'ERR_RUNNER_SCRIPT',
      `step "${label}": js module "${module}" escapes scripts/`,
      { step: label },
    );
  }
  if (ctx.bundle === undefined) {
    throw new RunnerError(
      'ERR_RUNNER_SCRIPT',
      `step "${label}": no bundle to load js module "${module}" from`,
      {
        step: label,
      },
    );
  }
  const candidates = clean.endsWith('.js') ? [clean] : [`${clean}.js`, clean];
  for (const path of candidates) {
    if ((await ctx.bundle.stat(path)) !== undefined) {
      return { path, source: await ctx.bundle.readText(path) };
    }
  }
  throw new RunnerError(
    'ERR_RUNNER_SCRIPT',
    `step "${label}": js module "${candidates[0] ?? clean}" not found in the bundle`,
    { step: label },
  );
}

/**
 * Runs a function body in the page with `args` as `arguments`. The body is compiled in
 * the page by CDP (not `new Function`), so a page CSP without `unsafe-eval` does not block it.
 *
 * @param where - names the code in errors (`js module "scripts/x.js"` or `js script`)
 * @throws RunnerError `ERR_RUNNER_SCRIPT` with the page's error
 */
export async function evaluateBody(
  ctx: StepContext,
  label: string,
  where: string,
  body: string,
  args: readonly unknown[],
  awaitPromise: boolean,
): Promise<unknown> {
  const expression =
    `(() => { const __r = (function () {\n${body}\n}).apply(globalThis, ${JSON.stringify(args)});\n` +
    (awaitPromise
      ? 'return __r; })()'
      : "return (__r !== null && typeof __r === 'object' && typeof __r.then === 'function') ? null : __r; })()");
  try {
    const value: unknown = await ctx.deadline.run(label, () => ctx.page.evaluate(expression));
    return value === undefined ? null : value;
  } catch (err) {
    if (err instanceof RunnerError) throw err;
    const text = err instanceof Error ? err.message : String(err);
    const first = (text.split('\n')[0] ?? text).replace(/^page\.evaluate: /, '');
    if (/Target crashed|closed/i.test(first)) throw err;
    throw new RunnerError('ERR_RUNNER_SCRIPT', `step "${label}": ${where}: ${first}`, {
      step: label,
      cause: err,
    });
  }
}

/** `js <name> fn <module> args [...]` / `js <name> script "<source>"`. */
export const jsAction: ActionImpl = async (params, _step, ctx, label) => {
  const args = Array.isArray(params.args) ? params.args : [];
  const awaitPromise = params.await === true;
  if (typeof params.fn === 'string' && params.fn !== '') {
    const { path, source } = await loadScriptModule(ctx, label, params.fn);
    return evaluateBody(ctx, label, `js module "${path}"`, source, args, awaitPromise);
  }
  if (typeof params.script === 'string' && params.script !== '') {
    return evaluateBody(ctx, label, 'js script', params.script, args, awaitPromise);
  }
  throw new RunnerError('ERR_RUNNER_INVALID_PARAM', `step "${label}": js needs fn or script`, {
    step: label,
  });
};
