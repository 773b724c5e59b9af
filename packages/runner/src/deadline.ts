/**
 * The run deadline: every browser call gets the remaining time (Playwright `timeout`) and
 * is also raced against our own timer, because `evaluate` and CDP calls on a hung page
 * never return (platform-notes). The run's AbortSignal (client gone) stops it at once.
 */
import { RunnerError } from './errors.js';

/** A whole-run deadline plus the caller's cancellation signal. */
export class Deadline {
  /** Epoch ms at which the run's time is up. */
  readonly expiresAt: number;
  /** The caller's signal (client disconnected), if any. */
  readonly signal: AbortSignal | undefined;
  /** Set when our own timer had to abandon a call that never returned (page likely hung). */
  abandonedCall = false;
  #fault: Error | undefined;
  readonly #faultListeners = new Set<(err: Error) => void>();

  /**
   * @param timeoutMs - whole-run budget in ms
   * @param signal - aborts the run at once when it fires
   */
  constructor(timeoutMs: number, signal?: AbortSignal) {
    this.expiresAt = Date.now() + timeoutMs;
    this.signal = signal;
  }

  /** Milliseconds left (never negative). */
  remainingMs(): number {
    return Math.max(0, this.expiresAt - Date.now());
  }

  /** The error for a step that ran out of time: the spec message. */
  deadlineError(step: string, cause?: unknown): RunnerError {
    return new RunnerError('ERR_RUNNER_DEADLINE', `step "${step}": context deadline exceeded`, {
      step,
      cause,
    });
  }

  /** The error for a cancelled run. */
  abortError(step: string): RunnerError {
    return new RunnerError(
      'ERR_RUNNER_ABORTED',
      `step "${step}": run cancelled (client disconnected)`,
      {
        step,
        cause: this.signal?.reason,
      },
    );
  }

  /**
   * Throws when the deadline passed or the run was cancelled.
   *
   * @throws RunnerError `ERR_RUNNER_DEADLINE`, `ERR_RUNNER_ABORTED`
   */
  check(step: string): void {
    if (this.#fault !== undefined) throw this.#fault;
    if (this.signal?.aborted === true) throw this.abortError(step);
    if (this.remainingMs() <= 0) throw this.deadlineError(step);
  }

  /**
   * Runs one browser call with the remaining time: `call` receives it (to pass as a
   * Playwright `timeout`) and is raced against the deadline and the abort signal.
   * A Playwright TimeoutError at the deadline becomes the spec's deadline message.
   *
   * @throws RunnerError `ERR_RUNNER_DEADLINE`, `ERR_RUNNER_ABORTED`, or what `call` throws
   */
  async run<T>(step: string, call: (timeoutMs: number) => Promise<T>): Promise<T> {
    this.check(step);
    const remaining = this.remainingMs();
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    let onFault: ((err: Error) => void) | undefined;
    const guard = new Promise<never>((_resolve, reject) => {
      // Our own timer fires a little after Playwright's so its TimeoutError wins when it can.
      timer = setTimeout(() => {
        this.abandonedCall = true;
        reject(this.deadlineError(step));
      }, remaining + 250);
      onAbort = () => reject(this.abortError(step));
      this.signal?.addEventListener('abort', onAbort, { once: true });
      onFault = (err: Error) => reject(err);
      this.#faultListeners.add(onFault);
    });
    const work = call(Math.max(1, remaining));
    try {
      return await Promise.race([work, guard]);
    } catch (err) {
      if (err instanceof RunnerError || err === this.#fault) {
        // The abandoned call may still settle later: never leave its rejection unhandled.
        work.catch(() => undefined);
        throw err;
      }
      if (this.signal?.aborted === true) throw this.abortError(step);
      if (isTimeoutError(err) && this.remainingMs() <= 50) throw this.deadlineError(step, err);
      throw err;
    } finally {
      clearTimeout(timer);
      if (onAbort !== undefined) this.signal?.removeEventListener('abort', onAbort);
      if (onFault !== undefined) this.#faultListeners.delete(onFault);
    }
  }

  /**
   * Fails the run from outside (the window's tab crashed or closed): every pending and
   * later call rejects with `err` at once instead of waiting for its own timeout.
   */
  fault(err: Error): void {
    if (this.#fault !== undefined) return;
    this.#fault = err;
    for (const listener of this.#faultListeners) listener(err);
  }

  /**
   * Sleeps `ms` (bounded by the deadline and the signal).
   *
   * @throws RunnerError `ERR_RUNNER_DEADLINE`, `ERR_RUNNER_ABORTED`
   */
  async sleep(step: string, ms: number): Promise<void> {
    this.check(step);
    if (ms > this.remainingMs()) {
      await this.sleepRaw(this.remainingMs());
      this.check(step);
      throw this.deadlineError(step);
    }
    await this.sleepRaw(ms);
    this.check(step);
  }

  private sleepRaw(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.signal?.addEventListener('abort', done, { once: true });
    });
  }
}

/** Whether `err` is Playwright's TimeoutError (checked by name: no runtime import needed). */
export function isTimeoutError(err: unknown): boolean {
  return err instanceof Error && err.name === 'TimeoutError';
}
