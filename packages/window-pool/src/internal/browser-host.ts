import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from 'playwright';
import type { Logger } from '../logger.js';
import { isNoDisplayError, launchOptions, newMarker, type LocalLaunchSettings } from './launch.js';
import {
  findChildByMarker,
  processGroupMembers,
  processTree,
  killSurvivors,
  type ProcRef,
} from './proc.js';
import { backoffMs, settleWithin, sleep } from './timers.js';

/** How a host obtains its browser. */
export type HostKind = 'launch' | 'cdp' | 'remote';

/** Reconnect/relaunch backoff. */
export interface Backoff {
  initialMs: number;
  maxMs: number;
}

/** Settings of one shared browser host. */
export interface HostSettings {
  kind: HostKind;
  /** Endpoint URL for `cdp`/`remote`. */
  url?: string;
  local?: LocalLaunchSettings;
  connectTimeoutMs: number;
  closeTimeoutMs: number;
  backoff: Backoff;
  logger: Logger;
  /** Called when the browser disconnects unexpectedly (before any reconnect attempt). */
  onDisconnected: (host: BrowserHost) => void;
  /** Called after a successful relaunch/reconnect that followed a disconnect. */
  onReconnected: (host: BrowserHost) => void;
}

/** A window's live Playwright objects. */
export interface WindowTargets {
  context: BrowserContext;
  page: Page;
}

/** Picks the protocol for an endpoint URL: CDP for http(s) and /devtools/browser/ paths. */
export function endpointKind(url: string): 'cdp' | 'remote' {
  if (/^https?:\/\//i.test(url)) return 'cdp';
  return /\/devtools\/browser\//.test(url) ? 'cdp' : 'remote';
}

/**
 * One browser shared by many windows: launched locally, attached over CDP, or connected to
 * a Playwright browser server. Reconnects (relaunches) with backoff after a disconnect.
 */
export class BrowserHost {
  readonly key: string;
  readonly kind: HostKind;
  private readonly settings: HostSettings;
  private browser: Browser | undefined;
  private proc: ProcRef | undefined;
  private connecting: Promise<Browser> | undefined;
  private everConnected = false;
  private closed = false;
  private readonly stop = new AbortController();
  /** Set when a headed launch failed for lack of a display. */
  private forceHeadless = false;

  constructor(key: string, settings: HostSettings) {
    this.key = key;
    this.kind = settings.kind;
    this.settings = settings;
  }

  /** Whether a browser is connected right now. */
  get connected(): boolean {
    return this.browser?.isConnected() === true;
  }

  /** Root pid of a locally launched browser, if running. */
  get pid(): number | undefined {
    return this.connected ? this.proc?.pid : undefined;
  }

  /**
   * The connected browser; connects (single flight) when needed. With `retry`, keeps
   * trying with backoff until it succeeds or the host is closed.
   */
  ensure(retry: boolean): Promise<Browser> {
    if (this.closed) return Promise.reject(new Error('browser host is closed'));
    if (this.browser?.isConnected()) return Promise.resolve(this.browser);
    this.connecting ??= this.connectLoop(retry).finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async connectLoop(retry: boolean): Promise<Browser> {
    for (let attempt = 0; ; attempt++) {
      if (this.closed) throw new Error('browser host is closed');
      try {
        const browser = await this.connectOnce();
        if (this.closed) {
          await settleWithin(browser.close(), this.settings.closeTimeoutMs);
          throw new Error('browser host is closed');
        }
        this.browser = browser;
        browser.on('disconnected', () => this.handleDisconnect(browser));
        const reconnect = this.everConnected;
        this.everConnected = true;
        if (reconnect) {
          this.settings.logger.info({ host: this.key, attempt }, 'browser reconnected');
          this.settings.onReconnected(this);
        }
        return browser;
      } catch (err) {
        if (!retry || this.closed) throw err;
        const delayMs = backoffMs(
          attempt,
          this.settings.backoff.initialMs,
          this.settings.backoff.maxMs,
        );
        this.settings.logger.warn(
          { host: this.key, attempt, delayMs, err },
          'browser connect failed; retrying',
        );
        await sleep(delayMs, this.stop.signal);
      }
    }
  }

  private async connectOnce(): Promise<Browser> {
    const { kind, url, connectTimeoutMs } = this.settings;
    if (kind === 'cdp') return chromium.connectOverCDP(url!, { timeout: connectTimeoutMs });
    if (kind === 'remote') return chromium.connect(url!, { timeout: connectTimeoutMs });
    const local = this.settings.local!;
    const marker = newMarker();
    let browser: Browser;
    try {
      browser = await chromium.launch(
        launchOptions({ ...local, headless: local.headless || this.forceHeadless }, marker),
      );
    } catch (err) {
      if (local.headless || this.forceHeadless || !isNoDisplayError(err)) throw err;
      this.settings.logger.warn(
        { host: this.key },
        'no display for a headed browser; falling back to headless',
      );
      this.forceHeadless = true;
      browser = await chromium.launch(launchOptions({ ...local, headless: true }, marker));
    }
    this.proc = findChildByMarker(marker);
    this.settings.logger.info({ host: this.key, pid: this.proc?.pid }, 'browser launched');
    return browser;
  }

  private handleDisconnect(browser: Browser): void {
    if (browser !== this.browser) return;
    this.browser = undefined;
    const proc = this.proc;
    this.proc = undefined;
    // A killed browser can leave helpers (zygote, renderers) behind in its process group.
    if (proc) killSurvivors(processGroupMembers(proc.pid));
    if (this.closed) return;
    this.settings.logger.warn({ host: this.key, pid: proc?.pid }, 'browser disconnected');
    this.settings.onDisconnected(this);
    this.ensure(true).catch(() => {
      // Only fails once closed.
    });
  }

  /** Opens a fresh window: a new BrowserContext and its page. */
  async newWindow(options: BrowserContextOptions): Promise<WindowTargets> {
    const browser = await this.ensure(true);
    const context = await browser.newContext(options);
    try {
      const page = await context.newPage();
      return { context, page };
    } catch (err) {
      await settleWithin(context.close(), this.settings.closeTimeoutMs);
      throw err;
    }
  }

  /** Closes the browser (or disconnects from a remote one) and ends every process it started. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stop.abort();
    await settleWithin(this.connecting ?? Promise.resolve(), this.settings.connectTimeoutMs);
    const browser = this.browser;
    const proc = this.proc;
    this.browser = undefined;
    this.proc = undefined;
    const tree = proc ? processTree(proc.pid) : [];
    if (browser) await settleWithin(browser.close(), this.settings.closeTimeoutMs);
    if (proc) {
      const killed = killSurvivors([...tree, ...processGroupMembers(proc.pid)]);
      if (killed > 0)
        this.settings.logger.warn(
          { host: this.key, killed },
          'killed browser processes that outlived close',
        );
    }
  }
}
