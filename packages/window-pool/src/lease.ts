import type { BrowserContext, Page } from 'playwright';
import { isDeadTargetError } from './dead-target.js';
import { SessionResetError } from './errors.js';

/** One pooled window: its own BrowserContext and Page in the pool's browser. */
export interface PoolWindow {
  /** Stable id, kept across replacements (`<tag>-<n>`, n from 1). */
  readonly id: string;
  /** Tag of the pool the window belongs to. */
  readonly poolTag: string;
  /** The window's page (one tab). */
  readonly page: Page;
  /** The window's context: cookies and storage persist between leases, isolated from other windows. */
  readonly context: BrowserContext;
  /** `<downloadsDir>/<pool>/<window-id>/`, created; save downloads here (`download.saveAs`). */
  readonly downloadsDir: string;
  /** Whether the window lives in a persistent profile. */
  readonly persistent: boolean;
  /** Incremented each time the window is replaced under the same id (1 for the first). */
  readonly generation: number;
}

/** Options of {@link Lease.release}. */
export interface ReleaseOptions {
  /**
   * Replace the window with a fresh one instead of returning it as is: use after a deadline
   * on a hung page (a busy renderer never answers; closing its context recovers).
   * @default false
   */
  reset?: boolean;
}

/** Exclusive use of one window until {@link Lease.release}. */
export interface Lease extends AsyncDisposable {
  /** The leased window (a snapshot: after a replacement the pool holds a new one). */
  readonly window: PoolWindow;
  /** Unique (per WindowPools) lease number. */
  readonly id: number;
  /** Milliseconds the caller waited in the queue. */
  readonly waitedMs: number;
  /** `Date.now()` when the window was handed over. */
  readonly acquiredAt: number;
  /** Whether release() was called. */
  readonly released: boolean;
  /** Whether the window died (crash, close, disconnect) while leased. */
  readonly dead: boolean;
  /**
   * Gives the window back; idempotent (later calls return the first call's promise).
   * A dead window, or `reset: true`, is replaced under the same id first. Never rejects.
   */
  release(options?: ReleaseOptions): Promise<void>;
  /**
   * Maps an error from a run on this window: a {@link SessionResetError} (spec message) when
   * the window died or `err` is a dead-target error, else `err` unchanged. A dead-target
   * error marks the window dead, so release() replaces it even before Playwright's
   * crash/close event arrives.
   */
  toSessionError(err: unknown): unknown;
}

/** What a lease needs from its pool (kept narrow so the pool never references leases). */
export interface LeaseHost {
  isDead(slotRef: object, generation: number): boolean;
  markDead(slotRef: object, generation: number, reason: string): void;
  release(slotRef: object, record: object, reset: boolean): Promise<void>;
}

/** @internal */
export class LeaseImpl implements Lease {
  readonly window: PoolWindow;
  readonly id: number;
  readonly waitedMs: number;
  readonly acquiredAt: number;
  private readonly host: LeaseHost;
  private readonly slotRef: object;
  private readonly record: object;
  private releasing: Promise<void> | undefined;

  constructor(
    host: LeaseHost,
    slotRef: object,
    record: object,
    window: PoolWindow,
    info: { id: number; waitedMs: number; acquiredAt: number },
  ) {
    this.host = host;
    this.slotRef = slotRef;
    this.record = record;
    this.window = window;
    this.id = info.id;
    this.waitedMs = info.waitedMs;
    this.acquiredAt = info.acquiredAt;
  }

  get released(): boolean {
    return this.releasing !== undefined;
  }

  get dead(): boolean {
    return this.host.isDead(this.slotRef, this.window.generation);
  }

  release(options: ReleaseOptions = {}): Promise<void> {
    // The flag (the promise) is set before the first await: a second call is a no-op.
    this.releasing ??= this.host.release(this.slotRef, this.record, options.reset === true);
    return this.releasing;
  }

  toSessionError(err: unknown): unknown {
    if (err instanceof SessionResetError) return err;
    const deadTarget = isDeadTargetError(err);
    if (deadTarget) this.host.markDead(this.slotRef, this.window.generation, 'dead-target error');
    if (deadTarget || this.dead) {
      return new SessionResetError({
        cause: err,
        poolTag: this.window.poolTag,
        windowId: this.window.id,
      });
    }
    return err;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.release();
  }
}
