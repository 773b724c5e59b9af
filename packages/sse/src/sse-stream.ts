import type { ServerResponse } from 'node:http';
import { SseError } from './errors.js';
import { formatComment, formatEvent } from './format-event.js';
import { noopLogger, type Logger } from './logger.js';

/** Options of {@link SseStream}. */
export interface SseStreamOptions {
  /**
   * Interval of the `: ping` heartbeat comment in ms; `0` disables it. The timer is
   * unref'd, so it never keeps the process alive.
   * @default 15000
   */
  readonly heartbeatMs?: number;
  /** Extra response headers (the four SSE headers always win). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Receives debug lines (`client disconnected`). @default noopLogger */
  readonly logger?: Logger;
}

/** The spec's four SSE response headers, word for word. */
export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
});

/** Default heartbeat interval (spec: a `: ping` comment every 15 seconds). */
export const DEFAULT_HEARTBEAT_MS = 15_000;

/** Why a response cannot stream, or `undefined` when it can. */
function whyCannotStream(res: ServerResponse): string | undefined {
  if (typeof res.write !== 'function' || typeof res.flushHeaders !== 'function') {
    return 'the response has no write/flushHeaders (not a streaming Node ServerResponse)';
  }
  if (res.headersSent) return 'the response headers were already sent';
  if (res.writableEnded || res.destroyed) return 'the response is already ended or destroyed';
  return undefined;
}

/**
 * A Server-Sent Events writer over a Node `ServerResponse`: writes the four SSE headers
 * at once, frames events with {@link formatEvent}, sends a `: ping` heartbeat, respects
 * back-pressure (`send` resolves after `drain`), exposes a `signal` that aborts when the
 * client disconnects, and ignores writes once closed.
 *
 * @throws SseError `ERR_SSE_NO_FLUSHER` from the constructor when the response cannot stream.
 * @example
 * const sse = new SseStream(res, { heartbeatMs: 15_000 });
 * await sse.send('status', { text: 'loading', data: null });
 * await sse.send('done', { ok: true, data: { title: 'x' } });
 * await sse.close();
 */
export class SseStream {
  /** Aborts when the client disconnects before the stream is closed by the server. */
  readonly signal: AbortSignal;

  readonly #res: ServerResponse;
  readonly #abort = new AbortController();
  readonly #logger: Logger;
  #heartbeat: NodeJS.Timeout | undefined;
  #closed = false;

  /** Writes the headers and starts the heartbeat. */
  constructor(res: ServerResponse, options: SseStreamOptions = {}) {
    const reason = whyCannotStream(res);
    if (reason !== undefined) {
      throw new SseError('ERR_SSE_NO_FLUSHER', `cannot stream Server-Sent Events: ${reason}`);
    }
    this.#res = res;
    this.#logger = options.logger ?? noopLogger;
    this.signal = this.#abort.signal;

    res.on('close', this.#onClose);
    res.statusCode = 200;
    for (const [name, value] of Object.entries({ ...options.headers, ...SSE_HEADERS })) {
      res.setHeader(name, value);
    }
    res.flushHeaders();
    // Nagle would hold small events back; SSE wants them on the wire now.
    res.socket?.setNoDelay(true);

    const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
    if (heartbeatMs > 0) {
      this.#heartbeat = setInterval(this.#ping, heartbeatMs);
      this.#heartbeat.unref();
    }
  }

  /** `true` once the server closed the stream or the client went away. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Sends one event. Resolves `true` once the bytes are handed to the socket (after
   * `drain` when the socket buffer was full), `false` when the stream is closed (the
   * write is ignored).
   * @throws SseError `ERR_SSE_BAD_EVENT` when `event` contains a line break.
   */
  send(event: string, data: unknown): Promise<boolean> {
    return this.#write(formatEvent(event, data));
  }

  /** Sends a comment line (`: <text>`); same resolution as {@link SseStream.send}. */
  comment(text: string): Promise<boolean> {
    return this.#write(formatComment(text));
  }

  /** Ends the response (graceful). Idempotent; later writes are ignored. */
  close(): Promise<void> {
    const res = this.#res;
    this.#markClosed();
    if (res.writableFinished || res.destroyed) return Promise.resolve();
    return new Promise<void>((resolve) => {
      res.once('close', () => resolve());
      res.end(() => resolve());
    });
  }

  /** Destroys the response at once (the client sees a cut connection). Idempotent. */
  destroy(): void {
    this.#markClosed();
    if (!this.#res.destroyed) this.#res.destroy();
  }

  /** Same as {@link SseStream.close}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #write(chunk: string): Promise<boolean> {
    const res = this.#res;
    if (this.#closed || res.writableEnded || res.destroyed) return Promise.resolve(false);
    if (res.write(chunk)) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const done = (written: boolean): void => {
        res.off('drain', onDrain);
        res.off('close', onClose);
        resolve(written);
      };
      const onDrain = (): void => done(true);
      const onClose = (): void => done(false);
      res.on('drain', onDrain);
      res.on('close', onClose);
    });
  }

  #markClosed(): void {
    this.#closed = true;
    if (this.#heartbeat !== undefined) {
      clearInterval(this.#heartbeat);
      this.#heartbeat = undefined;
    }
  }

  readonly #ping = (): void => {
    // Skip a ping while the socket is back-pressured: it would only add to the backlog.
    if (this.#res.writableNeedDrain) return;
    void this.comment('ping');
  };

  readonly #onClose = (): void => {
    const disconnected = !this.#res.writableFinished;
    this.#markClosed();
    if (disconnected && !this.#abort.signal.aborted) {
      this.#logger.debug({}, 'client disconnected');
      const reason = new Error('client disconnected');
      reason.name = 'AbortError';
      this.#abort.abort(reason);
    }
  };
}
