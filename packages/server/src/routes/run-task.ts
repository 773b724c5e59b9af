import type { Router } from '@koa/router';
import { SseStream } from '@browsertask/sse';
import { ServerError } from '../errors.js';
import type { AppContext, AppSettings, AppState } from '../internal/context.js';
import { readJsonObjectBody } from '../internal/read-body.js';
import type { PublishFn, RunEvent, RunTask } from '../types.js';

/** Dependencies of the task endpoint. */
export interface RunTaskRouteDeps {
  readonly runTask: RunTask;
  readonly maxBodyBytes: number;
  readonly heartbeatMs: number;
  readonly settings: AppSettings;
}

const TERMINAL_KINDS = new Set(['done', 'error']);
const noopPublish: PublishFn = () => undefined;

function wantsEventStream(ctx: AppContext): boolean {
  return ctx
    .get('accept')
    .split(',')
    .some((part) => part.split(';')[0]!.trim().toLowerCase() === 'text/event-stream');
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** An AbortSignal that fires when the client goes away before the response is finished. */
function disconnectSignal(ctx: AppContext): AbortSignal {
  const controller = new AbortController();
  const res = ctx.res;
  res.once('close', () => {
    if (!res.writableFinished) {
      const reason = new Error('client disconnected');
      reason.name = 'AbortError';
      controller.abort(reason);
    }
  });
  return controller.signal;
}

async function runSync(
  ctx: AppContext,
  name: string,
  input: Record<string, unknown>,
  deps: RunTaskRouteDeps,
): Promise<void> {
  const signal = disconnectSignal(ctx);
  let data: unknown;
  try {
    data = await deps.runTask(name, input, {
      signal,
      publish: noopPublish,
      requestId: ctx.state.requestId,
    });
  } catch (err) {
    throw new ServerError('ERR_SERVER_EXECUTION_FAILED', messageOf(err), { cause: err });
  }
  ctx.body = { ok: true, data: data ?? null };
}

async function runSse(
  ctx: AppContext,
  name: string,
  input: Record<string, unknown>,
  deps: RunTaskRouteDeps,
): Promise<void> {
  // Throws ERR_SSE_NO_FLUSHER before anything is written: the error middleware answers 500.
  const stream = new SseStream(ctx.res, { heartbeatMs: deps.heartbeatMs });
  ctx.respond = false;
  const { logger, redact } = deps.settings;
  const publish = async (event: RunEvent): Promise<void> => {
    // The server owns the single terminal event (spec: exactly one `done` or `error`).
    if (stream.closed || TERMINAL_KINDS.has(event.kind)) return;
    await stream.send(event.kind, { text: event.text, data: event.data ?? null });
  };
  try {
    const data = await deps.runTask(name, input, {
      signal: stream.signal,
      publish,
      requestId: ctx.state.requestId,
    });
    await stream.send('done', { ok: true, data: data ?? null });
  } catch (err) {
    const message = redact(messageOf(err));
    logger.info({ reqId: ctx.state.requestId, task: name, err }, 'task failed');
    await stream.send('error', { message });
  } finally {
    await stream.close();
  }
}

/**
 * `POST /tasks/<name...>`: JSON envelope, or an SSE stream when `Accept` asks for
 * `text/event-stream`. `POST /tasks` and `POST /tasks/` answer 400 `MISSING_NAME`.
 */
export function registerRunTaskRoute(router: Router<AppState>, deps: RunTaskRouteDeps): void {
  router.post('/tasks', () => {
    throw new ServerError(
      'ERR_SERVER_MISSING_NAME',
      'no task name in the path: POST /tasks/<name>',
    );
  });
  router.post('/tasks/*name', async (ctx) => {
    const raw = ctx.params['name'] ?? '';
    const name = raw.replace(/^\/+|\/+$/g, '');
    if (name === '') {
      throw new ServerError(
        'ERR_SERVER_MISSING_NAME',
        'no task name in the path: POST /tasks/<name>',
      );
    }
    const input = await readJsonObjectBody(ctx.req, deps.maxBodyBytes);
    if (wantsEventStream(ctx)) await runSse(ctx, name, input, deps);
    else await runSync(ctx, name, input, deps);
  });
}
