/**
 * The interpreter (stage 5 of a run): each step in order — status line, templating,
 * coercion, dispatch, binding. Results bound with `as` go into the live bindings and the
 * response data; `return` stops the run with its value.
 */
import type { StepDef } from '@browsertask/recipe-parser';
import { isDeadTargetError } from '@browsertask/window-pool';
import { ACTION_IMPLS } from './actions/index.js';
import { coerceParams } from './coerce.js';
import type { StepContext } from './context.js';
import { RunnerError } from './errors.js';
import { withStepRecording } from './recording.js';
import { renderString, renderValue, type TemplateScope } from './template.js';

/** The message every dead-target failure carries (spec, word for word). */
export const SESSION_RESET_MESSAGE =
  'browser session was reset (tab crashed or detached); re-run pool setup...';

const DEAD_TARGET =
  /Target crashed|Page crashed|Target page, context or browser has been closed|Target closed|Session closed|Browser has been closed|browser has disconnected|WebSocket.*closed/i;

/** Whether an error means the window's target died (crash, detach, closed socket). */
export function isDeadTarget(err: unknown): boolean {
  if (err instanceof RunnerError) return err.code === 'ERR_RUNNER_SESSION_RESET';
  return isDeadTargetError(err) || (err instanceof Error && DEAD_TARGET.test(err.message));
}

/** Names a step in messages: its canonical action name (`step "wait-for": …`). */
export function stepLabel(step: StepDef): string {
  return step.run;
}

/** First line of an error message without Playwright's `page.xyz: ` call prefix. */
export function cleanMessage(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const first = text.split('\n')[0] ?? text;
  return first.replace(/^[a-zA-Z]+\.[a-zA-Z]+: /, '').trim();
}

/** Wraps anything a step throws into a RunnerError naming the step. */
export function toStepError(err: unknown, label: string): RunnerError {
  if (err instanceof RunnerError) return err;
  if (isDeadTarget(err)) {
    return new RunnerError('ERR_RUNNER_SESSION_RESET', SESSION_RESET_MESSAGE, {
      cause: err,
      step: label,
    });
  }
  return new RunnerError('ERR_RUNNER_STEP_FAILED', `step "${label}": ${cleanMessage(err)}`, {
    cause: err,
    step: label,
  });
}

/** The template scope of a context. */
export function scopeOf(ctx: StepContext): TemplateScope {
  return { bindings: ctx.bindings, env: ctx.env };
}

/** Binds a step result by name (`_` or no name binds nothing). */
export function bindResult(ctx: StepContext, name: string | undefined, value: unknown): void {
  if (name === undefined || name === '' || name === '_') return;
  ctx.bindings[name] = value;
  ctx.data[name] = value;
}

/** Actions whose params are rendered by the action itself (they need raw templates). */
const SELF_RENDERED = new Set(['return']);

/**
 * Runs one step: emits its status line, renders and coerces its params, dispatches it
 * (under a step-level recording when `record` is set) and binds its result.
 *
 * @throws RunnerError naming the step
 */
export async function executeStep(step: StepDef, ctx: StepContext): Promise<void> {
  const label = stepLabel(step);
  try {
    ctx.deadline.check(label);
    const scope = scopeOf(ctx);
    if (step.status !== undefined && step.status !== '') {
      await ctx.publish({ kind: 'status', text: renderString(step.status, scope), data: null });
    }
    const rendered = SELF_RENDERED.has(step.run)
      ? { ...step.params }
      : (renderValue(step.params, scope) as Record<string, unknown>);
    const params = coerceParams(step.run, label, rendered);
    const impl = ACTION_IMPLS[step.run];
    const run = (): Promise<unknown> => impl(params, step, ctx, label);
    const result = step.record === true ? await withStepRecording(label, ctx, run) : await run();
    if (step.run !== 'set' && step.run !== 'return') bindResult(ctx, step.as, result);
  } catch (err) {
    throw toStepError(err, label);
  }
}

/**
 * Runs a list of steps in order until the end or a `return`.
 *
 * @example
 * await executeFlow(task.flow, ctx); // ctx.data now holds every bound result
 * @throws RunnerError (the first failing step)
 */
export async function executeFlow(flow: readonly StepDef[], ctx: StepContext): Promise<void> {
  for (const step of flow) {
    if (ctx.state.returned) return;
    await executeStep(step, ctx);
  }
}
