/**
 * The types a run is made of: what actions see ({@link StepContext}) and the small
 * interfaces the runner needs from its collaborators (a window source, a bundle reader,
 * a recorder), kept structural so the real packages and test doubles both fit.
 */
import type { BrowserContext, Page } from 'playwright';
import type { StepDef, TaskDef } from '@browsertask/recipe-parser';
import type { Frame } from '@browsertask/recorder';
import type { Deadline } from './deadline.js';
import type { RunEvent } from './events.js';
import type { Logger } from './logger.js';
import type { PathRoots } from './paths.js';

/** The read side of a bundle the runner uses (a subset of bundle-fs's `Bundle`). */
export interface BundleReader {
  list(glob?: string): Promise<string[]>;
  readText(path: string): Promise<string>;
  readFile(path: string): Promise<Buffer>;
  /** `fingerprint` (bundle-fs has it) lets the registry skip re-reading unchanged files. */
  stat(path: string): Promise<{ size: number; mtimeMs: number; fingerprint?: string } | undefined>;
  version(): Promise<string>;
}

/** One leased browser window (the shape window-pool's `Lease.window` has). */
export interface LeasedWindow {
  readonly id: string | number;
  readonly poolTag: string;
  readonly page: Page;
  readonly context: BrowserContext;
  /** Per-window downloads directory (under the service's downloads root). */
  readonly downloadsDir: string;
}

/** A lease: the window and how to give it back. */
export interface WindowLease {
  readonly window: LeasedWindow;
  /**
   * Returns the window. `reset: true` asks the source to replace the window (it hung or
   * died) instead of handing it out again; a source that ignores it must still detect a
   * closed context itself.
   */
  release(options?: { reset?: boolean }): Promise<void>;
  /** Whether the window died (crash, close, disconnect) while leased, when the source knows. */
  readonly dead?: boolean;
}

/** Where runs get windows from: window-pool's `WindowPools` fits, as does a test double. */
export interface WindowSource {
  acquire(tag: string, options?: { signal?: AbortSignal }): Promise<WindowLease>;
}

/** A running screencast (recorder's `Screencast`). */
export interface ScreencastLike {
  stop(): Promise<Frame[]>;
}

/** Encoder options (recorder's). */
export interface EncodeOptions {
  readonly fps: number;
  readonly quality: number;
}

/** The recorder functions the runner uses (@browsertask/recorder fits). */
export interface RecorderApi {
  startScreencast(
    page: Page,
    options: { fps: number; maxFrames: number; maxDurationMs: number },
  ): Promise<ScreencastLike> | ScreencastLike;
  encodeGif(frames: readonly Frame[], options: EncodeOptions): Promise<Buffer>;
  /** Rejects with code `ERR_RECORDER_FFMPEG_MISSING` when ffmpeg cannot be started. */
  encodeMp4(frames: readonly Frame[], options: EncodeOptions): Promise<Buffer>;
}

/** Mutable state shared by a whole run (every nested flow sees the same object). */
export interface RunState {
  /** Set by `return`: remaining steps are skipped. */
  returned: boolean;
  returnValue: unknown;
}

/** What every action implementation receives. */
export interface StepContext {
  readonly page: Page;
  readonly context: BrowserContext;
  /** Relative file params land here; absolute ones must be inside `roots.allowed`. */
  readonly roots: PathRoots;
  /** The window's downloads directory. */
  readonly downloadsDir: string;
  /** Live bindings: inputs, earlier results, loop variables. */
  readonly bindings: Record<string, unknown>;
  /** The response `data`: every bound result by name. */
  readonly data: Record<string, unknown>;
  /** Environment fallback of templating (injected, never process.env directly). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly deadline: Deadline;
  /** Emits an event (a no-op publisher for synchronous callers). */
  publish(event: RunEvent): Promise<void>;
  /** Bundle for `js fn` modules and `read-file`; absent in bare tests. */
  readonly bundle: BundleReader | undefined;
  /** Recorder for `record`; absent means recording fails with a clear message. */
  readonly recorder: RecorderApi | undefined;
  /** Where step-level `record` GIFs go: `<recordingsDir>/<task>/<runId>/`. */
  readonly recordingsDir: string;
  readonly taskName: string;
  readonly runId: string;
  /** Slugs of the tasks running in this window, outermost first (guards `call` cycles). */
  readonly callStack: readonly string[];
  /** Looks up another task for `call`; absent means `call` fails. */
  readonly getTask: ((slug: string) => Promise<TaskDef>) | undefined;
  readonly state: RunState;
  readonly logger: Logger;
  /** Runs child steps (block actions); the interpreter's `executeFlow`. */
  readonly runFlow: (flow: readonly StepDef[], ctx: StepContext) => Promise<void>;
}

/** An action implementation: coerced params in, step result out. */
export type ActionImpl = (
  params: Record<string, unknown>,
  step: StepDef,
  ctx: StepContext,
  label: string,
) => Promise<unknown>;
