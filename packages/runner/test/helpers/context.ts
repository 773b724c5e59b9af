// Builds a StepContext over a real page for executeFlow tests (no pool, no registry).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright';
import type { StepDef, TaskDef } from '@browsertask/recipe-parser';
import {
  CollectingPublisher,
  Deadline,
  createRecorder,
  executeFlow,
  noopLogger,
  type BundleReader,
  type StepContext,
} from '../../src/index.js';

/** A page in its own context plus a temp downloads root. */
export interface Window {
  readonly context: BrowserContext;
  readonly page: Page;
  readonly root: string;
  readonly downloadsDir: string;
  close(): Promise<void>;
}

/** Opens a window (context + page) and a temp directory tree for it. */
export async function openWindow(browser: Browser): Promise<Window> {
  const root = await mkdtemp(join(tmpdir(), 'runner-test-'));
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  return {
    context,
    page,
    root,
    downloadsDir: join(root, 'downloads', 'w1'),
    close: async () => {
      await context.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Options of {@link makeContext}. */
export interface MakeContextOptions {
  readonly bindings?: Record<string, unknown>;
  readonly env?: Record<string, string>;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  readonly bundle?: BundleReader;
  readonly tasks?: Record<string, TaskDef>;
  readonly ffmpegPath?: string;
}

/** A StepContext over the window, with a collecting publisher. */
export function makeContext(
  win: Window,
  options: MakeContextOptions = {},
): { ctx: StepContext; events: CollectingPublisher } {
  const events = new CollectingPublisher();
  const ctx: StepContext = {
    page: win.page,
    context: win.context,
    downloadsDir: win.downloadsDir,
    roots: {
      base: win.downloadsDir,
      allowed: [win.downloadsDir, join(win.root, 'downloads'), join(win.root, 'recordings')],
    },
    bindings: { ...(options.bindings ?? {}) },
    data: {},
    env: options.env ?? {},
    deadline: new Deadline(options.timeoutMs ?? 20000, options.signal),
    publish: (e) => {
      events.publish(e);
      return Promise.resolve();
    },
    bundle: options.bundle,
    recorder: createRecorder(options.ffmpegPath),
    recordingsDir: join(win.root, 'recordings'),
    taskName: 'test/task',
    runId: 'run-1',
    callStack: ['test/task'],
    getTask: (slug) => {
      const task = options.tasks?.[slug];
      return task === undefined
        ? Promise.reject(new Error(`unknown task: ${slug}`))
        : Promise.resolve(task);
    },
    state: { returned: false, returnValue: undefined },
    logger: noopLogger,
    runFlow: executeFlow,
  };
  return { ctx, events };
}

/** Shorthand for a StepDef. */
export function step(
  run: StepDef['run'],
  params: StepDef['params'] = {},
  extra: Partial<StepDef> = {},
): StepDef {
  return { run, params, ...extra };
}
