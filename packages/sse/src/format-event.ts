import { SseError } from './errors.js';

const LINE_BREAK = /\r\n|\r|\n/;

/**
 * Serialises the `data` of an event: strings are sent as they are, every other value as
 * JSON (`undefined` becomes `null`).
 */
function serialiseData(data: unknown): string {
  if (typeof data === 'string') return data;
  return JSON.stringify(data) ?? 'null';
}

/**
 * Formats one Server-Sent Event: `event: <name>` then one `data:` line per line of the
 * payload, then a blank line. Multi-line payloads are split into several `data:` lines
 * (a raw line break inside one `data:` line would end the event early, see h3js/h3#733).
 *
 * @param event - the event name (`status`, `done`, …); must not contain a line break.
 * @param data - a string (sent verbatim) or any JSON value (sent as JSON).
 * @throws SseError `ERR_SSE_BAD_EVENT` when `event` contains a line break.
 * @example
 * formatEvent('done', { ok: true, data: 1 }); // 'event: done\ndata: {"ok":true,"data":1}\n\n'
 */
export function formatEvent(event: string, data: unknown): string {
  if (LINE_BREAK.test(event)) {
    throw new SseError(
      'ERR_SSE_BAD_EVENT',
      `SSE event name must be a single line, got ${JSON.stringify(event)}`,
    );
  }
  const lines = serialiseData(data).split(LINE_BREAK);
  let out = `event: ${event}\n`;
  for (const line of lines) out += `data: ${line}\n`;
  return `${out}\n`;
}

/**
 * Formats an SSE comment (`: <text>`), e.g. the `: ping` heartbeat. Each line of a
 * multi-line text becomes its own comment line.
 *
 * @example
 * formatComment('ping'); // ': ping\n\n'
 */
export function formatComment(text: string): string {
  let out = '';
  for (const line of text.split(LINE_BREAK)) out += `: ${line}\n`;
  return `${out}\n`;
}
