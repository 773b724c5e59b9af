import { EventEmitter } from 'node:events';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright';
import { detectBrowser } from './detect-browser.js';
import { PoolError, acquireTimeoutError } from './errors.js';
import {
  BrowserHost,
  endpointKind,
  type Backoff,
  type WindowTargets,
} from './internal/browser-host.js';
import type { LocalLaunchSettings } from './internal/launch.js';
import { PersistentHost } from './internal/persistent-host.js';
import { backoffMs, sleep } from './internal/timers.js';
import { LeaseImpl, type Lease, type LeaseHost, type PoolWindow } from './lease.js';
import { noopLogger, type Logger } from './logger.js';
import { validatePoolConfig, type PoolSpec } from './pool-config.js';

/** Options of {@link WindowPools}. apps/service maps `SERVICE_*` onto these. */
export interface WindowPoolsOptions {
  /** Pools by tag (a validated `pool.yaml`'s `value.pools`). @default { default: { size: 1 } } */
  pools?: Record<string, PoolSpec>;
  /** Chromium executable (`SERVICE_BROWSER`). @default detectBrowser() of the well-known paths */
  executablePath?: string;
  /** Run headless (`SERVICE_HEADLESS`). @default false */
  headless?: boolean;
  /** Whether a display exists (see `detectDisplay`); without one a headed launch falls back to headless. @default true */
  hasDisplay?: boolean;
  /** Attach to a running browser over CDP instead of launching one (`SERVICE_CDP_URL`). */
  cdpUrl?: string;
  /** Root of per-window download dirs (`SERVICE_DOWNLOADS_DIR`). @default "./build/downloads" */
  downloadsDir?: string;
  /** Root of persistent profiles (`SERVICE_PROFILE_DIR`). @default "~/.service/profiles" */
  profileDir?: string;
  /** How long acquire() waits for a free window. @default 30000 */
  acquireTimeoutMs?: number;
  /** A lease held longer than this is flagged `overdue` (stats, event, log); per-acquire override. Off when unset. */
  maxHoldMs?: number;
  /** Deadline of each launch/connect attempt. @default 30000 */
  launchTimeoutMs?: number;
  /** Deadline of each graceful close before processes are killed by pid. @default 5000 */
  closeTimeoutMs?: number;
  /** Backoff between relaunch/reconnect attempts. @default { initialMs: 250, maxMs: 10000 } */
  reconnectBackoff?: Backoff;
  /** Use Chromium's sandbox (never as root). @default false */
  sandbox?: boolean;
  /** Extra Chromium switches (a `--disable-features=` is dropped: Playwright owns that list). */
  args?: readonly string[];
  /** Extra options for every window's context (viewport, locale, …); downloads are always accepted. */
  contextOptions?: BrowserContextOptions;
  /** Environment of launched browsers. @default the service's environment */
  browserEnv?: Readonly<Record<string, string | undefined>>;
  /** Where a per-instance scratch dir (crash dumps, caches) is created and removed on close. @default os.tmpdir() */
  scratchDir?: string;
  /**
   * Force a garbage collection in a window's renderer after every N leases (0: never).
   * A long-lived page collects old documents lazily: repeated navigations grew a renderer
   * by ~2 MB per run without it (docs/benchmarks.md). Runs in the background while the
   * window is free; a lease granted meanwhile waits for it (~20 ms). @default 10
   */
  gcEveryLeases?: number;
  /**
   * Replace a window's page with a fresh one in the same context after every N leases
   * (0: never). Cookies and storage live in the context and stay; sessionStorage and the
   * tab's history go. A long-lived page makes Playwright keep per-navigation objects
   * (~17 KB per run in the service's heap); only closing the page frees them. @default 100
   */
  recyclePageEveryLeases?: number;
  /** Logger (pino fits). @default noopLogger */
  logger?: Logger;
}

/** Options of {@link WindowPools.acquire}. */
export interface AcquireOptions {
  /** Cancels the wait and removes the caller from the queue. */
  signal?: AbortSignal;
  /** Overrides the pools' `acquireTimeoutMs` for this call. */
  timeoutMs?: number;
  /** Overrides the pools' `maxHoldMs` for this lease. */
  maxHoldMs?: number;
}

/** Window counts of one pool, as in the health document. */
export interface PoolStats {
  /** Windows configured (constant). */
  size: number;
  /** Windows ready to lease. */
  free: number;
  /** Windows leased. */
  busy: number;
}

/** {@link PoolStats} plus what operators and leak hunts need. */
export interface PoolDetailedStats extends PoolStats {
  /** Windows neither free nor busy: dead or being replaced (`size - free - busy`). */
  unavailable: number;
  /** Callers queued for a window. */
  waiting: number;
  /** Current leases held past their `maxHoldMs` (a stuck or leaked run). */
  overdue: number;
  /** Age of the oldest current lease in ms (0 when none). */
  oldestLeaseMs: number;
  /** Leases granted since start. */
  leasedTotal: number;
  /** Windows replaced since start (crash, close, disconnect, reset, leak). */
  replacedTotal: number;
  /** acquire() calls that timed out. */
  timeoutsTotal: number;
  /** Leases garbage-collected without release (their windows were reclaimed). */
  leakedTotal: number;
  /** Forced renderer garbage collections since start (see `gcEveryLeases`). */
  collectedTotal: number;
  /** Pages swapped for fresh ones since start (see `recyclePageEveryLeases`). */
  recycledTotal: number;
}

/** Payloads of the events {@link WindowPools} emits, for logs and metrics. */
export interface WindowPoolEventMap {
  leased: [{ pool: string; windowId: string; leaseId: number; waitedMs: number }];
  released: [
    { pool: string; windowId: string; leaseId: number; heldMs: number; replaced: boolean },
  ];
  waiting: [{ pool: string; queued: number }];
  timeout: [{ pool: string; waitedMs: number }];
  dead: [{ pool: string; windowId: string; reason: string; leased: boolean }];
  replaced: [{ pool: string; windowId: string; reason: string; durationMs: number }];
  overdue: [{ pool: string; windowId: string; leaseId: number; heldMs: number }];
  leaked: [{ pool: string; windowId: string; leaseId: number; heldMs: number }];
  collected: [{ pool: string; windowId: string; durationMs: number; ok: boolean }];
  recycled: [{ pool: string; windowId: string; durationMs: number; ok: boolean }];
  disconnected: [{ host: string }];
  reconnected: [{ host: string }];
}

type Source = { kind: 'shared'; host: BrowserHost } | { kind: 'persistent'; host: PersistentHost };

interface LeaseRecord {
  id: number;
  acquiredAt: number;
  overdue: boolean;
  timer: NodeJS.Timeout | undefined;
}

interface Slot {
  id: string;
  tag: string;
  source: Source;
  downloadsDir: string;
  window: PoolWindow | undefined;
  healthy: boolean;
  lease: LeaseRecord | undefined;
  replacing: Promise<void> | undefined;
  /** Bumped whenever the current targets become stale, so their late events are ignored. */
  generation: number;
  releasedSeq: number;
  /** Leases released healthy since the window was (re)created. */
  leaseCount: number;
  /** A renderer garbage collection in flight; a lease granted meanwhile waits for it. */
  maintenance: Promise<void> | undefined;
}

interface Waiter {
  enqueuedAt: number;
  maxHoldMs: number | undefined;
  resolve: (lease: Lease | Promise<Lease>) => void;
  reject: (err: unknown) => void;
  cleanup: () => void;
}

interface Pool {
  tag: string;
  spec: PoolSpec;
  slots: Slot[];
  waiters: Waiter[];
  leasedTotal: number;
  replacedTotal: number;
  timeoutsTotal: number;
  leakedTotal: number;
  collectedTotal: number;
  recycledTotal: number;
}

interface LeakToken {
  slot: Slot;
  record: LeaseRecord;
}

/**
 * Named pools of pre-allocated Chromium windows with FIFO leasing and self-healing: a
 * window is never leased twice at once; dead windows (crashed renderer, closed page or
 * context, dead browser, dropped remote) are replaced under the same id; the browser is
 * relaunched (a remote reconnected, with backoff) when it dies.
 *
 * @example
 * const pools = new WindowPools({ pools: { default: { size: 2 } }, headless: true });
 * await pools.start();
 * const lease = await pools.acquire('default');
 * try {
 *   await lease.window.page.goto('https://example.com');
 * } catch (err) {
 *   throw lease.toSessionError(err);
 * } finally {
 *   await lease.release();
 * }
 * await pools.close();
 */
export class WindowPools extends EventEmitter<WindowPoolEventMap> implements AsyncDisposable {
  private readonly options: WindowPoolsOptions;
  private readonly logger: Logger;
  private readonly pools = new Map<string, Pool>();
  private readonly hosts = new Map<string, BrowserHost>();
  private readonly persistentHosts: PersistentHost[] = [];
  private readonly acquireTimeoutMs: number;
  private readonly gcEveryLeases: number;
  private readonly recycleEveryLeases: number;
  private readonly closeTimeoutMs: number;
  private readonly backoff: Backoff;
  private readonly stopSignal = new AbortController();
  private readonly leaks = new FinalizationRegistry<LeakToken>((token) => this.onLeaked(token));
  private scratch: string | undefined;
  private startPromise: Promise<void> | undefined;
  private closePromise: Promise<void> | undefined;
  private closed = false;
  private readonly leaseHost: LeaseHost = {
    isDead: (slot, generation) => this.isDead(slot as Slot, generation),
    markDead: (slot, generation, reason) => this.onWindowDeath(slot as Slot, generation, reason),
    release: (slot, record, reset) => this.releaseSlot(slot as Slot, record as LeaseRecord, reset),
  };
  private nextLeaseId = 1;
  private releaseSeq = 0;

  /**
   * Validates the configuration; nothing is launched until {@link WindowPools.start}.
   * @throws PoolError `ERR_POOL_CONFIG_INVALID` (e.g. a persistent pool of size 2)
   */
  constructor(options: WindowPoolsOptions = {}) {
    super();
    this.options = options;
    this.logger = options.logger ?? noopLogger;
    this.acquireTimeoutMs = options.acquireTimeoutMs ?? 30_000;
    this.gcEveryLeases = options.gcEveryLeases ?? 10;
    this.recycleEveryLeases = options.recyclePageEveryLeases ?? 100;
    this.closeTimeoutMs = options.closeTimeoutMs ?? 5_000;
    this.backoff = options.reconnectBackoff ?? { initialMs: 250, maxMs: 10_000 };
    const checked = validatePoolConfig({ pools: options.pools ?? {} });
    if (!checked.ok) {
      const detail = checked.diagnostics.map((d) => `${d.path}: ${d.message}`).join('; ');
      throw new PoolError('ERR_POOL_CONFIG_INVALID', `invalid pool configuration: ${detail}`);
    }
    for (const [tag, spec] of Object.entries(checked.value.pools)) {
      this.pools.set(tag, {
        tag,
        spec,
        slots: [],
        waiters: [],
        leasedTotal: 0,
        replacedTotal: 0,
        timeoutsTotal: 0,
        leakedTotal: 0,
        collectedTotal: 0,
        recycledTotal: 0,
      });
    }
  }

  /** Pool tags, in configuration order. */
  get tags(): string[] {
    return [...this.pools.keys()];
  }

  /**
   * Launches (or connects to) the browsers and pre-allocates every window; resolves when
   * all are ready. On failure everything started is closed again. Idempotent.
   * @throws PoolError `ERR_POOL_BROWSER_NOT_FOUND`, `ERR_POOL_LAUNCH_FAILED`, `ERR_POOL_CLOSED`
   */
  start(): Promise<void> {
    this.startPromise ??= this.doStart();
    return this.startPromise;
  }

  private async doStart(): Promise<void> {
    if (this.closed) throw new PoolError('ERR_POOL_CLOSED', 'window pools are closed');
    const started = Date.now();
    try {
      await this.createSlots();
      const shared = [...this.hosts.values()];
      await Promise.all(shared.map((h) => h.ensure(false)));
      await Promise.all(this.allSlots().map((slot) => this.openWindow(slot)));
    } catch (err) {
      await this.close();
      if (err instanceof PoolError) throw err;
      throw new PoolError(
        'ERR_POOL_LAUNCH_FAILED',
        `could not start the window pools: ${errorMessage(err)}`,
        {
          cause: err,
        },
      );
    }
    if (this.closed)
      throw new PoolError('ERR_POOL_CLOSED', 'window pools were closed while starting');
    this.logger.info(
      { pools: this.stats(), durationMs: Date.now() - started },
      'window pools started',
    );
  }

  private localSettings(): LocalLaunchSettings {
    const executablePath = this.options.executablePath ?? detectBrowser({});
    if (executablePath === undefined) {
      throw new PoolError(
        'ERR_POOL_BROWSER_NOT_FOUND',
        'no Chromium executable found (looked for /usr/bin/chromium, chromium-browser, google-chrome); set SERVICE_BROWSER or install chromium',
      );
    }
    const requestedHeadless = this.options.headless ?? false;
    const hasDisplay = this.options.hasDisplay ?? true;
    if (!requestedHeadless && !hasDisplay) {
      this.logger.warn(
        {},
        'no display (DISPLAY/WAYLAND_DISPLAY unset); running the browser headless',
      );
    }
    const base = this.options.browserEnv ?? process.env;
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(base)) if (v !== undefined) env[k] = v;
    // Crash dumps and caches land under XDG dirs (not --user-data-dir): keep them in the
    // scratch dir that close() removes (platform-notes).
    env.XDG_CONFIG_HOME = join(this.scratch!, 'config');
    env.XDG_CACHE_HOME = join(this.scratch!, 'cache');
    return {
      executablePath,
      headless: requestedHeadless || !hasDisplay,
      sandbox: (this.options.sandbox ?? false) && process.getuid?.() !== 0,
      extraArgs: this.options.args ?? [],
      env,
      timeoutMs: this.options.launchTimeoutMs ?? 30_000,
    };
  }

  private async createSlots(): Promise<void> {
    this.scratch = await mkdtemp(join(this.options.scratchDir ?? tmpdir(), 'browsertask-pool-'));
    const downloadsRoot = resolve(this.options.downloadsDir ?? join('build', 'downloads'));
    const profileRoot = resolve(this.options.profileDir ?? join(homedir(), '.service', 'profiles'));
    let local: LocalLaunchSettings | undefined;
    const needLocal = (): LocalLaunchSettings => (local ??= this.localSettings());
    for (const pool of this.pools.values()) {
      const { spec, tag } = pool;
      for (let i = 1; i <= spec.size; i++) {
        const id = `${tag}-${i}`;
        let source: Source;
        if (spec.persistent) {
          const host = new PersistentHost(
            join(profileRoot, spec.profile ?? tag),
            needLocal(),
            this.closeTimeoutMs,
            this.logger,
          );
          this.persistentHosts.push(host);
          source = { kind: 'persistent', host };
        } else {
          source = { kind: 'shared', host: this.sharedHost(spec.endpoint, needLocal) };
        }
        pool.slots.push({
          id,
          tag,
          source,
          downloadsDir: join(downloadsRoot, tag, id),
          window: undefined,
          healthy: false,
          lease: undefined,
          replacing: undefined,
          generation: 0,
          releasedSeq: 0,
          leaseCount: 0,
          maintenance: undefined,
        });
      }
    }
  }

  private sharedHost(
    endpoint: string | undefined,
    needLocal: () => LocalLaunchSettings,
  ): BrowserHost {
    const url = endpoint ?? this.options.cdpUrl;
    const key = url ?? 'local';
    let host = this.hosts.get(key);
    if (host) return host;
    const kind = url === undefined ? 'launch' : endpoint === undefined ? 'cdp' : endpointKind(url);
    host = new BrowserHost(key, {
      kind,
      url,
      local: kind === 'launch' ? needLocal() : undefined,
      connectTimeoutMs: this.options.launchTimeoutMs ?? 30_000,
      closeTimeoutMs: this.closeTimeoutMs,
      backoff: this.backoff,
      logger: this.logger,
      onDisconnected: (h) => this.onHostDisconnected(h),
      onReconnected: (h) => this.emitSafe('reconnected', { host: h.key }),
    });
    this.hosts.set(key, host);
    return host;
  }

  private contextOptions(): BrowserContextOptions {
    return { ...this.options.contextOptions, acceptDownloads: true };
  }

  /** Creates the slot's targets and wires their death events; throws on failure. */
  private async openWindow(slot: Slot): Promise<void> {
    await mkdir(slot.downloadsDir, { recursive: true });
    const targets: WindowTargets = await slot.source.host.newWindow(this.contextOptions());
    if (this.closed) {
      await (slot.source.kind === 'persistent'
        ? slot.source.host.shutdown()
        : targets.context.close().catch(() => {}));
      return;
    }
    const generation = ++slot.generation;
    const { page, context } = targets;
    context.on('close', () => this.onWindowDeath(slot, generation, 'context closed'));
    this.watchPage(slot, page, generation);
    slot.window = {
      id: slot.id,
      poolTag: slot.tag,
      page,
      context,
      downloadsDir: slot.downloadsDir,
      persistent: slot.source.kind === 'persistent',
      generation,
    };
    slot.healthy = true;
  }

  /** Death events of a window's page; ignored once the page is no longer the window's (recycled). */
  private watchPage(slot: Slot, page: Page, generation: number): void {
    const onDeath = (reason: string) => () => {
      if (slot.window !== undefined && slot.window.page !== page) return;
      this.onWindowDeath(slot, generation, reason);
    };
    page.on('crash', onDeath('renderer crashed'));
    page.on('close', onDeath('page closed'));
  }

  private onWindowDeath(slot: Slot, generation: number, reason: string): void {
    if (this.closed || slot.generation !== generation || !slot.healthy) return;
    slot.healthy = false;
    const leased = slot.lease !== undefined;
    this.logger.warn({ pool: slot.tag, windowId: slot.id, reason, leased }, 'window died');
    this.emitSafe('dead', { pool: slot.tag, windowId: slot.id, reason, leased });
    // A leased window is replaced on release, so the run never sees its page swapped.
    if (!leased) void this.replace(slot, reason);
  }

  private onHostDisconnected(host: BrowserHost): void {
    this.emitSafe('disconnected', { host: host.key });
    for (const slot of this.allSlots()) {
      if (slot.source.kind === 'shared' && slot.source.host === host) {
        this.onWindowDeath(slot, slot.generation, 'browser disconnected');
      }
    }
  }

  /** Replaces the slot's targets (same id) until it works or the pools close. Never rejects. */
  private replace(slot: Slot, reason: string): Promise<void> {
    if (slot.replacing) return slot.replacing;
    slot.healthy = false;
    const old = slot.window;
    slot.generation++; // late events from the old targets are now ignored
    slot.leaseCount = 0;
    slot.maintenance = undefined;
    const started = Date.now();
    slot.replacing = (async () => {
      if (old && slot.source.kind === 'shared') {
        await old.context.close().catch(() => {});
      }
      for (let attempt = 0; !this.closed; attempt++) {
        try {
          await this.openWindow(slot);
          break;
        } catch (err) {
          if (this.closed) return;
          const delayMs = backoffMs(attempt, this.backoff.initialMs, this.backoff.maxMs);
          this.logger.warn(
            { pool: slot.tag, windowId: slot.id, attempt, delayMs, err },
            'window replacement failed; retrying',
          );
          await sleep(delayMs, this.stopSignal.signal);
        }
      }
      if (this.closed) return;
      const pool = this.pools.get(slot.tag)!;
      pool.replacedTotal++;
      const durationMs = Date.now() - started;
      this.logger.info(
        { pool: slot.tag, windowId: slot.id, reason, durationMs },
        'window replaced',
      );
      this.emitSafe('replaced', { pool: slot.tag, windowId: slot.id, reason, durationMs });
    })().finally(() => {
      slot.replacing = undefined;
      const pool = this.pools.get(slot.tag);
      if (pool) this.dispatch(pool);
    });
    return slot.replacing;
  }

  private isFree(slot: Slot): boolean {
    if (slot.lease || slot.replacing || !slot.healthy || !slot.window) return false;
    const connected =
      slot.source.kind === 'shared' ? slot.source.host.connected : slot.source.host.alive;
    if (slot.window.page.isClosed() || !connected) {
      this.onWindowDeath(
        slot,
        slot.generation,
        slot.window.page.isClosed() ? 'page closed' : 'browser disconnected',
      );
      return false;
    }
    return true;
  }

  private pickFree(pool: Pool): Slot | undefined {
    let best: Slot | undefined;
    for (const slot of pool.slots) {
      if (this.isFree(slot) && (best === undefined || slot.releasedSeq < best.releasedSeq))
        best = slot;
    }
    return best;
  }

  /** Hands free windows to waiters in FIFO order. Synchronous: no interleaving. */
  private dispatch(pool: Pool): void {
    while (pool.waiters.length > 0) {
      const slot = this.pickFree(pool);
      if (!slot) return;
      const waiter = pool.waiters.shift()!;
      waiter.cleanup();
      waiter.resolve(this.grant(pool, slot, Date.now() - waiter.enqueuedAt, waiter.maxHoldMs));
    }
  }

  /**
   * Reserves the slot for a new lease at once (synchronously: never two holders), and hands
   * the lease over once the window's maintenance (GC, page recycling), if any, is done.
   */
  private grant(
    pool: Pool,
    slot: Slot,
    waitedMs: number,
    maxHoldMs: number | undefined,
  ): Promise<Lease> {
    const record: LeaseRecord = {
      id: this.nextLeaseId++,
      acquiredAt: Date.now(),
      overdue: false,
      timer: undefined,
    };
    if (slot.lease) throw new Error(`window-pool invariant broken: ${slot.id} leased twice`);
    slot.lease = record;
    pool.leasedTotal++;
    if (maxHoldMs !== undefined) {
      record.timer = setTimeout(() => {
        if (slot.lease !== record) return;
        record.overdue = true;
        const heldMs = Date.now() - record.acquiredAt;
        this.logger.warn(
          { pool: slot.tag, windowId: slot.id, leaseId: record.id, heldMs },
          'lease held past its deadline',
        );
        this.emitSafe('overdue', { pool: slot.tag, windowId: slot.id, leaseId: record.id, heldMs });
      }, maxHoldMs);
      record.timer.unref();
    }
    const pending = slot.maintenance;
    return pending
      ? pending.then(() => this.handOver(slot, record, waitedMs))
      : Promise.resolve(this.handOver(slot, record, waitedMs));
  }

  private handOver(slot: Slot, record: LeaseRecord, waitedMs: number): Lease {
    const window = slot.window!;
    const lease = new LeaseImpl(this.leaseHost, slot, record, window, {
      id: record.id,
      waitedMs,
      acquiredAt: record.acquiredAt,
    });
    this.leaks.register(lease, { slot, record }, record);
    this.logger.debug(
      { pool: slot.tag, windowId: slot.id, leaseId: record.id, waitedMs },
      'window leased',
    );
    this.emitSafe('leased', { pool: slot.tag, windowId: slot.id, leaseId: record.id, waitedMs });
    return lease;
  }

  /**
   * Leases a window of pool `tag`, waiting in FIFO order up to `acquireTimeoutMs`.
   * @throws PoolError `ERR_POOL_ACQUIRE_TIMEOUT` (message `acquire timeout: <tag>`),
   *   `ERR_POOL_ACQUIRE_ABORTED`, `ERR_POOL_UNKNOWN_TAG`, `ERR_POOL_NOT_STARTED`, `ERR_POOL_CLOSED`
   */
  acquire(tag: string, options: AcquireOptions = {}): Promise<Lease> {
    if (this.closed)
      return Promise.reject(new PoolError('ERR_POOL_CLOSED', 'window pools are closed'));
    if (!this.startPromise) {
      return Promise.reject(new PoolError('ERR_POOL_NOT_STARTED', 'call start() before acquire()'));
    }
    const pool = this.pools.get(tag);
    if (!pool) {
      return Promise.reject(
        new PoolError(
          'ERR_POOL_UNKNOWN_TAG',
          `unknown pool: ${tag} (declared: ${this.tags.join(', ')})`,
        ),
      );
    }
    const { signal } = options;
    if (signal?.aborted) {
      return Promise.reject(
        new PoolError('ERR_POOL_ACQUIRE_ABORTED', `acquire aborted: ${tag}`, {
          cause: signal.reason,
        }),
      );
    }
    const maxHoldMs = options.maxHoldMs ?? this.options.maxHoldMs;
    if (pool.waiters.length === 0) {
      const slot = this.pickFree(pool);
      if (slot) return this.grant(pool, slot, 0, maxHoldMs);
    }
    return new Promise<Lease>((resolvePromise, rejectPromise) => {
      const timeoutMs = options.timeoutMs ?? this.acquireTimeoutMs;
      const waiter: Waiter = {
        enqueuedAt: Date.now(),
        maxHoldMs,
        resolve: resolvePromise,
        reject: rejectPromise,
        cleanup: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        },
      };
      const leave = (): boolean => {
        const i = pool.waiters.indexOf(waiter);
        if (i < 0) return false;
        pool.waiters.splice(i, 1);
        waiter.cleanup();
        return true;
      };
      const timer = setTimeout(() => {
        if (!leave()) return;
        const waitedMs = Date.now() - waiter.enqueuedAt;
        pool.timeoutsTotal++;
        this.logger.warn({ pool: tag, waitedMs }, 'acquire timed out');
        this.emitSafe('timeout', { pool: tag, waitedMs });
        rejectPromise(acquireTimeoutError(tag));
      }, timeoutMs);
      const onAbort = (): void => {
        if (!leave()) return;
        rejectPromise(
          new PoolError('ERR_POOL_ACQUIRE_ABORTED', `acquire aborted: ${tag}`, {
            cause: signal?.reason,
          }),
        );
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      pool.waiters.push(waiter);
      this.emitSafe('waiting', { pool: tag, queued: pool.waiters.length });
    });
  }

  private isDead(slot: Slot, generation: number): boolean {
    return (
      slot.generation !== generation || !slot.healthy || (slot.window?.page.isClosed() ?? true)
    );
  }

  /** Gives the slot back (replacing it when dead or reset). */
  private async releaseSlot(slot: Slot, record: LeaseRecord, reset: boolean): Promise<void> {
    this.leaks.unregister(record);
    clearTimeout(record.timer);
    if (slot.lease !== record) return; // reclaimed already (close or leak)
    const dead = reset || this.isDead(slot, slot.window?.generation ?? -1);
    slot.lease = undefined;
    const heldMs = Date.now() - record.acquiredAt;
    this.logger.debug(
      { pool: slot.tag, windowId: slot.id, leaseId: record.id, heldMs, dead },
      'window released',
    );
    this.emitSafe('released', {
      pool: slot.tag,
      windowId: slot.id,
      leaseId: record.id,
      heldMs,
      replaced: dead,
    });
    if (this.closed) return;
    const pool = this.pools.get(slot.tag)!;
    if (!dead) {
      slot.releasedSeq = ++this.releaseSeq;
      slot.leaseCount++;
      if (this.recycleEveryLeases > 0 && slot.leaseCount % this.recycleEveryLeases === 0) {
        this.recyclePage(pool, slot);
      } else if (this.gcEveryLeases > 0 && slot.leaseCount % this.gcEveryLeases === 0) {
        this.collectGarbage(pool, slot);
      }
      this.dispatch(pool);
      return;
    }
    // Resolve once replaced, but never hang a run's response on a remote that is down.
    await Promise.race([
      this.replace(slot, reset ? 'reset' : 'dead target'),
      sleep(this.closeTimeoutMs),
    ]);
  }

  /**
   * Runs window maintenance in the background while the window is free: whoever leases it
   * meanwhile waits for it (bounded by `limitMs`). `work` resolves whether it succeeded;
   * failures are harmless (a dead target is detected and replaced by the usual paths).
   */
  private maintain(
    pool: Pool,
    slot: Slot,
    kind: 'collected' | 'recycled',
    limitMs: number,
    work: (window: PoolWindow) => Promise<boolean>,
  ): void {
    const window = slot.window;
    if (!window || slot.maintenance) return;
    const started = Date.now();
    const attempt = work(window).catch((err: unknown) => {
      this.logger.debug({ err, pool: slot.tag, windowId: slot.id, kind }, 'maintenance skipped');
      return false;
    });
    const done: Promise<void> = Promise.race([attempt, sleep(limitMs).then(() => false)]).then(
      (ok) => {
        if (slot.maintenance === done) slot.maintenance = undefined;
        if (kind === 'collected') pool.collectedTotal++;
        else pool.recycledTotal++;
        const durationMs = Date.now() - started;
        this.logger.debug(
          { pool: slot.tag, windowId: slot.id, durationMs, ok, kind },
          'window maintained',
        );
        this.emitSafe(kind, { pool: slot.tag, windowId: slot.id, durationMs, ok });
      },
    );
    slot.maintenance = done;
  }

  /** Forces a garbage collection in the window's renderer (see `gcEveryLeases`). */
  private collectGarbage(pool: Pool, slot: Slot): void {
    this.maintain(pool, slot, 'collected', 2000, async (window) => {
      const cdp = await window.context.newCDPSession(window.page);
      try {
        await cdp.send('HeapProfiler.collectGarbage');
      } finally {
        await cdp.detach().catch(() => undefined);
      }
      return true;
    });
  }

  /**
   * Swaps the window's page for a fresh one in the same context (see
   * `recyclePageEveryLeases`): cookies and storage stay with the context. On failure the old
   * page stays (or the usual death handling replaces the window).
   */
  private recyclePage(pool: Pool, slot: Slot): void {
    this.maintain(pool, slot, 'recycled', 5000, async (window) => {
      const page = await window.context.newPage();
      if (this.closed || slot.window !== window || !slot.healthy) {
        await page.close().catch(() => undefined);
        return false;
      }
      slot.window = { ...window, page };
      this.watchPage(slot, page, slot.generation);
      await window.page.close().catch(() => undefined);
      return true;
    });
  }

  /**
   * Replaces a leased window with a fresh one and releases the lease (for a hung page after
   * a deadline: closing its context recovers the renderer). Same as `lease.release({ reset: true })`.
   */
  resetWindow(lease: Lease): Promise<void> {
    return lease.release({ reset: true });
  }

  private onLeaked(token: LeakToken): void {
    const { slot, record } = token;
    if (this.closed || slot.lease !== record) return;
    const pool = this.pools.get(slot.tag)!;
    pool.leakedTotal++;
    const heldMs = Date.now() - record.acquiredAt;
    this.logger.error(
      { pool: slot.tag, windowId: slot.id, leaseId: record.id, heldMs },
      'lease garbage-collected without release; reclaiming the window',
    );
    this.emitSafe('leaked', { pool: slot.tag, windowId: slot.id, leaseId: record.id, heldMs });
    void this.releaseSlot(slot, record, true);
  }

  /** `{ size, free, busy }` per pool tag, for the health document. */
  stats(): Record<string, PoolStats> {
    const out: Record<string, PoolStats> = {};
    for (const [tag, s] of Object.entries(this.detailedStats()))
      out[tag] = { size: s.size, free: s.free, busy: s.busy };
    return out;
  }

  /** {@link PoolDetailedStats} per pool tag. */
  detailedStats(): Record<string, PoolDetailedStats> {
    const now = Date.now();
    const out: Record<string, PoolDetailedStats> = {};
    for (const pool of this.pools.values()) {
      let free = 0;
      let busy = 0;
      let overdue = 0;
      let oldestLeaseMs = 0;
      for (const slot of pool.slots) {
        if (slot.lease) {
          busy++;
          if (slot.lease.overdue) overdue++;
          oldestLeaseMs = Math.max(oldestLeaseMs, now - slot.lease.acquiredAt);
        } else if (
          !this.closed &&
          slot.healthy &&
          !slot.replacing &&
          slot.window &&
          !slot.window.page.isClosed()
        ) {
          free++;
        }
      }
      const size = pool.spec.size;
      out[pool.tag] = {
        size,
        free,
        busy,
        unavailable: size - free - busy,
        waiting: pool.waiters.length,
        overdue,
        oldestLeaseMs,
        leasedTotal: pool.leasedTotal,
        replacedTotal: pool.replacedTotal,
        timeoutsTotal: pool.timeoutsTotal,
        leakedTotal: pool.leakedTotal,
        collectedTotal: pool.collectedTotal,
        recycledTotal: pool.recycledTotal,
      };
    }
    return out;
  }

  /** Pids of the Chromium processes this instance launched and that are running (roots only). */
  browserProcessIds(): number[] {
    const out: number[] = [];
    for (const host of this.hosts.values()) if (host.pid !== undefined) out.push(host.pid);
    for (const host of this.persistentHosts) if (host.pid !== undefined) out.push(host.pid);
    return out;
  }

  /**
   * Closes every context and browser, ends every Chromium process it started (killed by pid
   * when a graceful close misses its deadline) and removes its scratch dir. Waiters fail
   * with `ERR_POOL_CLOSED`; outstanding leases become no-ops. Idempotent.
   */
  close(): Promise<void> {
    this.closePromise ??= this.doClose();
    return this.closePromise;
  }

  private async doClose(): Promise<void> {
    this.closed = true;
    this.stopSignal.abort();
    for (const pool of this.pools.values()) {
      for (const waiter of pool.waiters.splice(0)) {
        waiter.cleanup();
        waiter.reject(
          new PoolError('ERR_POOL_CLOSED', `window pools closed while waiting: ${pool.tag}`),
        );
      }
      for (const slot of pool.slots) {
        slot.generation++;
        slot.healthy = false;
        if (slot.lease) {
          clearTimeout(slot.lease.timer);
          this.leaks.unregister(slot.lease);
          slot.lease = undefined;
        }
      }
    }
    await Promise.all([
      ...[...this.hosts.values()].map((h) => h.close()),
      ...this.persistentHosts.map((h) => h.close()),
    ]);
    if (this.scratch) await rm(this.scratch, { recursive: true, force: true }).catch(() => {});
    this.logger.info({}, 'window pools closed');
  }

  /** Same as {@link WindowPools.close}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  private allSlots(): Slot[] {
    return [...this.pools.values()].flatMap((p) => p.slots);
  }

  private emitSafe<K extends keyof WindowPoolEventMap>(
    event: K,
    ...args: WindowPoolEventMap[K]
  ): void {
    try {
      (this.emit as (e: K, ...a: WindowPoolEventMap[K]) => boolean)(event, ...args);
    } catch (err) {
      this.logger.error({ event, err }, 'window-pool event listener threw');
    }
  }
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message.split('\n', 1)[0]! : String(err);
}
