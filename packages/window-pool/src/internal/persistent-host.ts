import { mkdir } from 'node:fs/promises';
import { chromium, type BrowserContext, type BrowserContextOptions } from 'playwright';
import type { Logger } from '../logger.js';
import { isNoDisplayError, launchOptions, newMarker, type LocalLaunchSettings } from './launch.js';
import type { WindowTargets } from './browser-host.js';
import {
  findChildByMarker,
  killSurvivors,
  processGroupMembers,
  processTree,
  type ProcRef,
} from './proc.js';
import { settleWithin } from './timers.js';

/**
 * The browser of one persistent window: `launchPersistentContext` on a stable profile
 * directory. Replacing the window closes that browser and launches it again on the same
 * directory, so the profile on disk (cookies, storage, logins) stays intact.
 */
export class PersistentHost {
  readonly userDataDir: string;
  private readonly local: LocalLaunchSettings;
  private readonly closeTimeoutMs: number;
  private readonly logger: Logger;
  private context: BrowserContext | undefined;
  private proc: ProcRef | undefined;
  private forceHeadless = false;
  private closed = false;

  constructor(
    userDataDir: string,
    local: LocalLaunchSettings,
    closeTimeoutMs: number,
    logger: Logger,
  ) {
    this.userDataDir = userDataDir;
    this.local = local;
    this.closeTimeoutMs = closeTimeoutMs;
    this.logger = logger;
  }

  /** Whether the persistent browser is running. */
  get alive(): boolean {
    return this.context !== undefined;
  }

  /** Root pid of the running browser, if any. */
  get pid(): number | undefined {
    return this.context ? this.proc?.pid : undefined;
  }

  /** Launches the persistent browser (closing a previous one first) and returns its page. */
  async newWindow(options: BrowserContextOptions): Promise<WindowTargets> {
    await this.shutdown();
    if (this.closed) throw new Error('persistent browser is closed');
    await mkdir(this.userDataDir, { recursive: true });
    const marker = newMarker();
    const launch = (headless: boolean): Promise<BrowserContext> =>
      chromium.launchPersistentContext(this.userDataDir, {
        ...launchOptions({ ...this.local, headless }, marker),
        ...options,
      });
    let context: BrowserContext;
    try {
      context = await launch(this.local.headless || this.forceHeadless);
    } catch (err) {
      if (this.local.headless || this.forceHeadless || !isNoDisplayError(err)) throw err;
      this.logger.warn(
        { userDataDir: this.userDataDir },
        'no display for a headed browser; falling back to headless',
      );
      this.forceHeadless = true;
      context = await launch(true);
    }
    this.context = context;
    this.proc = findChildByMarker(marker);
    if (this.closed) {
      await this.shutdown();
      throw new Error('persistent browser is closed');
    }
    context.on('close', () => {
      if (this.context !== context) return;
      // The browser died under us: reap helpers left in its process group.
      const proc = this.proc;
      this.context = undefined;
      this.proc = undefined;
      if (proc) killSurvivors(processGroupMembers(proc.pid));
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      return { context, page };
    } catch (err) {
      await this.shutdown();
      throw err;
    }
  }

  /** Shuts down for good: later newWindow() calls fail. */
  async close(): Promise<void> {
    this.closed = true;
    await this.shutdown();
  }

  /** Closes the browser gracefully (flushing the profile), then kills anything left. */
  async shutdown(): Promise<void> {
    const context = this.context;
    const proc = this.proc;
    this.context = undefined;
    this.proc = undefined;
    if (!context && !proc) return;
    const tree = proc ? processTree(proc.pid) : [];
    if (context) await settleWithin(context.close(), this.closeTimeoutMs);
    if (proc) killSurvivors([...tree, ...processGroupMembers(proc.pid)]);
  }
}
