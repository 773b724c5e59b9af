import type { IncomingMessage } from 'node:http';
import { ServerError } from '../errors.js';

/** Reads the raw body, failing fast with 413 once it exceeds `maxBytes`. */
async function readRaw(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const tooLarge = (): ServerError =>
    new ServerError(
      'ERR_SERVER_BODY_TOO_LARGE',
      `request body is larger than the limit of ${maxBytes} bytes`,
    );
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    // Discard the rest so the 413 response can still be delivered on this connection.
    req.resume();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    total += buf.length;
    if (total > maxBytes) {
      req.resume();
      throw tooLarge();
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks, total);
}

/**
 * Reads an optional JSON-object body: empty → `{}`; invalid JSON or anything but an
 * object → `ERR_SERVER_BAD_BODY`; more than `maxBytes` → `ERR_SERVER_BODY_TOO_LARGE`.
 * The Content-Type is not enforced (curl's default form type is common in practice).
 */
export async function readJsonObjectBody(
  req: IncomingMessage,
  maxBytes: number,
): Promise<Record<string, unknown>> {
  const text = (await readRaw(req, maxBytes)).toString('utf8');
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ServerError(
      'ERR_SERVER_BAD_BODY',
      `request body is not valid JSON: ${(err as Error).message}`,
      { cause: err },
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    const kind = parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : typeof parsed;
    throw new ServerError(
      'ERR_SERVER_BAD_BODY',
      `request body must be a JSON object of input values, got ${kind}`,
    );
  }
  return parsed as Record<string, unknown>;
}
