/**
 * The run engine: the spec's seven stages in order — lookup and deadline; inputs; lease;
 * setup task in the same window; steps; release (always, in `finally`); result.
 */
import { randomUUID } from 'node:crypto';
import type { TaskDef } from '@browsertask/recipe-parser';
import type { Page } from 'playwright';
import { encodeGif, encodeMp4, startScreencast } from '@browsertask/recorder';
import type {
  BundleReader,
  RecorderApi,
  RunState,
  StepContext,
  WindowLease,
  WindowSource,
} from './context.js';
import { Deadline } from './deadline.js';
import { RunnerError, type RunnerErrorCode } from './errors.js';
import { noopPublisher, type Publisher, type RunEvent } from './events.js';
import { executeFlow, isDeadTarget, SESSION_RESET_MESSAGE } from './execute-flow.js';
import { bindInputs } from './inputs.js';
import { noopLogger, type Logger } from './logger.js';
import type { TaskRegistry } from './registry.js';

/** Options of {@link Runner}. */
export interface RunnerOptions {
  /** Where tasks come from (see createTaskRegistry). */
  readonly registry: Pick<TaskRegistry, 'get'>;
  /** Where windows come from (window-pool's WindowPools fits). */
  readonly pools: WindowSource;
  /** The bundle, for `js fn` modules and `read-file`. */
  readonly bundle?: BundleReader;
  /** SERVICE_DOWNLOADS_DIR: absolute paths inside it are accepted by file actions. */
  readonly downloadsRoot: string;
  /** SERVICE_RECORDINGS_DIR: step recordings go to `<recordingsDir>/<task>/<run-id>/`. */
  readonly recordingsDir: string;
  /** More directories file actions may write into (e.g. static-mount dirs). */
  readonly extraRoots?: readonly string[];
  /** SERVICE_TASK_TIMEOUT_MS: the deadline of tasks that declare none. @default 60000 */
  readonly defaultTimeoutMs?: number;
  /** Templating's environment fallback (the service passes process.env; secrets arrive here). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** GIF/MP4 recorder. @default @browsertask/recorder (with {@link RunnerOptions.ffmpegPath}) */
  readonly recorder?: RecorderApi;
  /** ffmpeg binary for MP4 recording. @default 'ffmpeg' on the PATH */
  readonly ffmpegPath?: string;
  readonly logger?: Logger;
}

/** Options of one run. */
export interface RunOptions {
  /** Client gone: stops the run at once and releases the window. */
  readonly signal?: AbortSignal;
  /** Event sink; {@link noopPublisher} (synchronous callers) when absent. */
  readonly publisher?: Publisher;
  /** Identifier used in recording paths and logs. @default a random UUID */
  readonly runId?: string;
}

/** How a run ended. `data` is the response data (accumulated bindings, or the `return` value). */
export type RunOutcome =
  | { readonly ok: true; readonly data: unknown; readonly runId: string }
  | {
      readonly ok: false;
      readonly error: { readonly code: RunnerErrorCode; readonly message: string };
      readonly cause: RunnerError;
      readonly runId: string;
    };

function toRunnerError(err: unknown): RunnerError {
  if (err instanceof RunnerError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  const message = err instanceof Error ? err.message : String(err);
  if (code === 'ERR_POOL_ACQUIRE_TIMEOUT')
    return new RunnerError('ERR_RUNNER_ACQUIRE_TIMEOUT', message, { cause: err });
  if (code === 'ERR_POOL_SESSION_RESET' || isDeadTarget(err)) {
    return new RunnerError('ERR_RUNNER_SESSION_RESET', SESSION_RESET_MESSAGE, { cause: err });
  }
  return new RunnerError('ERR_RUNNER_STEP_FAILED', message, { cause: err });
}

/**
 * The default recorder: @browsertask/recorder's screencast and encoders.
 *
 * @param ffmpegPath - ffmpeg binary for MP4 (default: `ffmpeg` on the PATH)
 */
export function createRecorder(ffmpegPath?: string): RecorderApi {
  return {
    startScreencast: (page, options) => startScreencast(page, options),
    encodeGif: (frames, options) => encodeGif(frames, options),
    encodeMp4: (frames, options) =>
      encodeMp4(frames, ffmpegPath === undefined ? options : { ...options, ffmpegPath }),
  };
}

/**
 * Runs tasks in leased windows.
 *
 * @example
 * const runner = new Runner({ registry, pools, bundle, downloadsRoot, recordingsDir });
 * const outcome = await runner.run('demo/title', { q: 'x' }, { signal });
 * if (outcome.ok) console.log(outcome.data); else console.error(outcome.error.message);
 */
export class Runner {
  readonly #options: RunnerOptions;
  readonly #logger: Logger;
  readonly #recorder: RecorderApi;

  /** @param options - collaborators and directories (see {@link RunnerOptions}) */
  constructor(options: RunnerOptions) {
    this.#options = options;
    this.#logger = options.logger ?? noopLogger;
    this.#recorder = options.recorder ?? createRecorder(options.ffmpegPath);
  }

  /**
   * Runs one task. Never throws: failures come back as `{ ok: false, error }` with the
   * spec's message, and the publisher receives exactly one terminal event either way.
   */
  async run(slug: string, input: unknown, options: RunOptions = {}): Promise<RunOutcome> {
    const runId = options.runId ?? randomUUID();
    const publisher = options.publisher ?? noopPublisher;
    const started = Date.now();
    try {
      const data = await this.#run(slug, input, runId, publisher, options.signal);
      this.#logger.info({ task: slug, runId, durationMs: Date.now() - started }, 'run finished');
      await this.#end(publisher, { kind: 'done', payload: { ok: true, data } });
      return { ok: true, data, runId };
    } catch (err) {
      const error = toRunnerError(err);
      this.#logger.warn({ task: slug, runId, code: error.code, err: error }, 'run failed');
      await this.#end(publisher, { kind: 'error', payload: { message: error.message } });
      return {
        ok: false,
        error: { code: error.code, message: error.message },
        cause: error,
        runId,
      };
    }
  }

  async #end(
    publisher: Publisher,
    event: Parameters<NonNullable<Publisher['end']>>[0],
  ): Promise<void> {
    try {
      await publisher.end?.(event);
    } catch (err) {
      this.#logger.debug({ err }, 'terminal event not delivered');
    }
  }

  async #run(
    slug: string,
    input: unknown,
    runId: string,
    publisher: Publisher,
    signal: AbortSignal | undefined,
  ): Promise<unknown> {
    const opts = this.#options;
    // 1. Lookup and deadline.
    const task = await opts.registry.get(slug);
    const deadline = new Deadline(task.timeoutMs ?? opts.defaultTimeoutMs ?? 60000, signal);
    const setups = await this.#setupChain(task);
    // 2. Inputs.
    const bindings = bindInputs(task, input);
    deadline.check('acquire');
    // 3. Lease.
    const lease = await opts.pools.acquire(task.poolTag, signal === undefined ? {} : { signal });
    let reset = false;
    // A crashed or closed tab fails the running step at once (an in-flight wait would
    // otherwise sit until its own timeout).
    const page = lease.window.page;
    const onCrash = (): void => deadline.fault(new Error('Target crashed'));
    const onClose = (): void =>
      deadline.fault(new Error('Target page, context or browser has been closed'));
    page.on('crash', onCrash);
    page.on('close', onClose);
    try {
      const publish = async (event: RunEvent): Promise<void> => {
        if (signal?.aborted === true) return;
        try {
          await publisher.publish(event);
        } catch (err) {
          this.#logger.debug({ err }, 'event not delivered');
        }
      };
      const base = this.#context(task, lease, bindings, deadline, publish, runId);
      // 4. Setup tasks, same window, innermost prerequisite first; a failure fails the run.
      for (const setup of setups) {
        await publish({ kind: 'status', text: `Running setup: ${setup.name}`, data: null });
        const setupCtx: StepContext = {
          ...base,
          bindings: { ...bindings },
          data: {},
          state: { returned: false, returnValue: undefined },
          taskName: setup.name,
          callStack: [setup.name],
        };
        await executeFlow(setup.flow, setupCtx);
      }
      // 5. Steps.
      await executeFlow(task.flow, base);
      // 7. Result (after the release in finally).
      return base.state.returned ? base.state.returnValue : base.data;
    } catch (err) {
      // The source may know better than the message: a crash event fired on the window, or
      // is about to (a navigation into a crash fails as ERR_ABORTED ~70 ms before it).
      if (
        !isDeadTarget(err) &&
        (lease.dead === true || (signal?.aborted !== true && (await pageCrashed(page))))
      ) {
        reset = true;
        throw new RunnerError('ERR_RUNNER_SESSION_RESET', SESSION_RESET_MESSAGE, { cause: err });
      }
      if (isDeadTarget(err) || (err as { code?: unknown }).code === 'ERR_POOL_SESSION_RESET') {
        reset = true;
      }
      throw err;
    } finally {
      // 6. Release, always. A call abandoned at the deadline means a hung page: replace it.
      page.off('crash', onCrash);
      page.off('close', onClose);
      if (deadline.abandonedCall) reset = true;
      await this.#release(lease, reset);
    }
  }

  /**
   * The setup tasks to run before `task`, innermost prerequisite first: a setup task may
   * itself declare a setup. A chain that comes back to a task already in it fails before
   * any window is leased, instead of recursing.
   */
  async #setupChain(task: TaskDef): Promise<TaskDef[]> {
    const chain: TaskDef[] = [];
    const seen = [task.name];
    let next = task.setupTask;
    while (next !== undefined && next !== '') {
      if (seen.includes(next)) {
        throw new RunnerError(
          'ERR_RUNNER_RECURSION',
          `setup cycle: ${[...seen, next].join(' → ')}; a setup task must not lead back to a task that needs it`,
        );
      }
      const setup = await this.#options.registry.get(next);
      chain.unshift(setup);
      seen.push(next);
      next = setup.setupTask;
    }
    return chain;
  }

  async #release(lease: WindowLease, reset: boolean): Promise<void> {
    // `reset: true` makes the source replace the window (hung page or dead target).
    try {
      await lease.release(reset ? { reset: true } : undefined);
    } catch (err) {
      this.#logger.error({ err, windowId: lease.window.id }, 'window release failed');
    }
  }

  #context(
    task: TaskDef,
    lease: WindowLease,
    bindings: Record<string, unknown>,
    deadline: Deadline,
    publish: (event: RunEvent) => Promise<void>,
    runId: string,
  ): StepContext {
    const opts = this.#options;
    const win = lease.window;
    const state: RunState = { returned: false, returnValue: undefined };
    return {
      page: win.page,
      context: win.context,
      downloadsDir: win.downloadsDir,
      roots: {
        base: win.downloadsDir,
        allowed: [
          win.downloadsDir,
          opts.downloadsRoot,
          opts.recordingsDir,
          ...(opts.extraRoots ?? []),
        ],
      },
      bindings,
      data: {},
      env: opts.env ?? {},
      deadline,
      publish,
      bundle: opts.bundle,
      recorder: this.#recorder,
      recordingsDir: opts.recordingsDir,
      taskName: task.name,
      runId,
      callStack: [task.name],
      getTask: (name) => opts.registry.get(name),
      state,
      logger: this.#logger,
      runFlow: executeFlow,
    };
  }
}

/**
 * Whether the page turns out to be dead when a step fails for another reason: one cheap
 * evaluate, bounded, since a crashed renderer answers `Target crashed` and a hung one never
 * answers (a hung page is not a crash; the deadline path resets it).
 */
async function pageCrashed(page: Page): Promise<boolean> {
  if (page.isClosed()) return true;
  let timer: NodeJS.Timeout | undefined;
  try {
    const verdict = await Promise.race([
      page
        .evaluate(() => 1)
        .then(
          () => false,
          (err: unknown) => isDeadTarget(err),
        ),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), 300);
      }),
    ]);
    return verdict;
  } finally {
    clearTimeout(timer);
  }
}
