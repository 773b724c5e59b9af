/** Control flow and values: for-each, loop, call, return, set, emit (status). */
import type { ActionImpl, StepContext } from '../context.js';
import { RunnerError } from '../errors.js';
import { renderReturnValue } from '../template.js';
import { evaluateBody, loadScriptModule } from './script.js';

function bind(ctx: StepContext, name: string, value: unknown): void {
  if (name === '' || name === '_') return;
  ctx.bindings[name] = value;
  ctx.data[name] = value;
}

/**
 * `for-each <as> in "{{list}}" … end`: the children run once per item with a cloned
 * bindings map holding `<as>` and `<as>_index`. Result: one object per iteration with the
 * names its children bound (null for a failed iteration under `continueOnError`).
 */
export const forEachAction: ActionImpl = async (params, step, ctx, label) => {
  const over = params.over;
  if (!Array.isArray(over)) {
    throw new RunnerError(
      'ERR_RUNNER_INVALID_PARAM',
      `step "${label}": over must be a list, got ${over === null ? 'null' : typeof over}`,
      { step: label },
    );
  }
  const as = typeof params.as === 'string' && params.as !== '' ? params.as : 'item';
  const results: unknown[] = [];
  for (const [index, item] of (over as unknown[]).entries()) {
    if (ctx.state.returned) break;
    const child: StepContext = {
      ...ctx,
      bindings: { ...ctx.bindings, [as]: item, [`${as}_index`]: index },
      data: {},
    };
    try {
      await ctx.runFlow(step.do ?? [], child);
      results.push(child.data);
    } catch (err) {
      const code = err instanceof RunnerError ? err.code : undefined;
      if (
        params.continueOnError !== true ||
        code === 'ERR_RUNNER_DEADLINE' ||
        code === 'ERR_RUNNER_ABORTED' ||
        code === 'ERR_RUNNER_SESSION_RESET'
      ) {
        throw err;
      }
      await ctx.publish({
        kind: 'error',
        text: err instanceof Error ? err.message : String(err),
        data: { index, item },
      });
      results.push(null);
    }
  }
  return results;
};

async function condition(
  ctx: StepContext,
  label: string,
  inline: unknown,
  module: unknown,
): Promise<boolean | undefined> {
  if (typeof inline === 'string' && inline.trim() !== '') {
    // A bare expression is wrapped into `return (…)`; a body with `return` runs as is.
    const body = /\breturn\b/.test(inline) ? inline : `return (${inline});`;
    return Boolean(await evaluateBody(ctx, label, 'loop condition', body, [], true));
  }
  if (typeof module === 'string' && module !== '') {
    const { path, source } = await loadScriptModule(ctx, label, module);
    return Boolean(await evaluateBody(ctx, label, `js module "${path}"`, source, [], true));
  }
  return undefined;
}

/**
 * `loop while|until js "<expr>"|fn "<module>" [pause <ms>] [max <n>] … end`: repeats the
 * children (sharing the run's bindings, `loop_index` set) while/until the condition holds,
 * at most `maxIterations` times. Result `{iterations}`.
 */
export const loopAction: ActionImpl = async (params, step, ctx, label) => {
  const max = typeof params.maxIterations === 'number' ? params.maxIterations : 1000;
  const pause = typeof params.pauseMs === 'number' ? params.pauseMs : 1000;
  let iterations = 0;
  while (iterations < max && !ctx.state.returned) {
    const whileOk = await condition(ctx, label, params.while, params.whileFn);
    if (whileOk === false) break;
    const untilOk = await condition(ctx, label, params.until, params.untilFn);
    if (untilOk === true) break;
    ctx.bindings.loop_index = iterations;
    await ctx.runFlow(step.do ?? [], ctx);
    iterations += 1;
    if (iterations < max && pause > 0) await ctx.deadline.sleep(label, pause);
  }
  return { iterations };
};

/** Deepest nesting of `call` steps; a recursion guard, as a `call` never returns otherwise. */
export const MAX_CALL_DEPTH = 16;

/** `call "<slug>"`: another task's flow in this window with the current bindings. */
export const callAction: ActionImpl = async (params, _step, ctx, label) => {
  if (ctx.getTask === undefined) {
    throw new RunnerError('ERR_RUNNER_UNKNOWN_TASK', `step "${label}": no task registry for call`, {
      step: label,
    });
  }
  const slug = String(params.task);
  if (ctx.callStack.includes(slug) || ctx.callStack.length >= MAX_CALL_DEPTH) {
    throw new RunnerError(
      'ERR_RUNNER_RECURSION',
      `step "${label}": call cycle: ${[...ctx.callStack, slug].join(' → ')} (at most ${MAX_CALL_DEPTH} nested calls, no task may call itself)`,
      { step: label },
    );
  }
  const task = await ctx.getTask(slug);
  for (const [name, def] of Object.entries(task.input)) {
    if (ctx.bindings[name] === undefined && def.default !== undefined)
      ctx.bindings[name] = def.default;
  }
  // Same bindings, data and state: only the call stack grows.
  await ctx.runFlow(task.flow, { ...ctx, callStack: [...ctx.callStack, slug] });
  return null;
};

/** `return <template>`: the value becomes the whole response `data`; remaining steps are skipped. */
export const returnAction: ActionImpl = (params, _step, ctx) => {
  ctx.state.returnValue = renderReturnValue(params.value, { bindings: ctx.bindings, env: ctx.env });
  ctx.state.returned = true;
  return Promise.resolve(ctx.state.returnValue);
};

/** `set <name> <value>`: binds a literal or templated value (single token → raw value). */
export const setAction: ActionImpl = (params, _step, ctx) => {
  bind(ctx, String(params.name), params.value);
  return Promise.resolve(params.value);
};

/** `emit [<kind>] "<text>" [data {…}]` / `status "<text>"`: an event for SSE callers only. */
export const emitEventAction: ActionImpl = async (params, _step, ctx) => {
  const kind = typeof params.kind === 'string' && params.kind !== '' ? params.kind : 'status';
  await ctx.publish({
    kind,
    text: typeof params.text === 'string' ? params.text : '',
    data: params.data ?? null,
  });
  return null;
};
