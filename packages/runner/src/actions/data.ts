/** Values and files: export (CSV, NDJSON, markdown), read-file, write-files. */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ActionImpl } from '../context.js';
import { RunnerError } from '../errors.js';
import { resolveSafePath } from '../paths.js';
import { stringifyValue } from '../template.js';
import { textOutput } from './output.js';
import { readAllowed } from './read.js';

function csvCell(value: unknown): string {
  const text = stringifyValue(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function mdCell(value: unknown): string {
  return stringifyValue(value).replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>');
}

/**
 * Renders records as `csv` (RFC 4180 quoting, header row), `ndjson` (one JSON object a
 * line) or `md` (a markdown table). Columns default to the sorted union of keys.
 */
export function renderRecords(
  format: string,
  records: readonly Record<string, unknown>[],
  columns?: readonly string[],
): string {
  if (format === 'ndjson')
    return records.map((r) => JSON.stringify(r)).join('\n') + (records.length > 0 ? '\n' : '');
  const cols = columns ?? [...new Set(records.flatMap((r) => Object.keys(r)))].sort();
  if (format === 'csv') {
    const lines = [
      cols.map(csvCell).join(','),
      ...records.map((r) => cols.map((c) => csvCell(r[c])).join(',')),
    ];
    return `${lines.join('\n')}\n`;
  }
  const lines = [
    `| ${cols.map(mdCell).join(' | ')} |`,
    `| ${cols.map(() => '---').join(' | ')} |`,
    ...records.map((r) => `| ${cols.map((c) => mdCell(r[c])).join(' | ')} |`),
  ];
  return `${lines.join('\n')}\n`;
}

/** `export csv|ndjson|md data "{{rows}}" [columns [...]] [path <file>]`: the text. */
export const exportAction: ActionImpl = async (params, step, ctx, label) => {
  const data = params.data;
  let records: Record<string, unknown>[];
  if (Array.isArray(data)) {
    records = data.map((r) =>
      r !== null && typeof r === 'object' ? (r as Record<string, unknown>) : { value: r },
    );
  } else if (data !== null && typeof data === 'object') records = [data as Record<string, unknown>];
  else {
    throw new RunnerError(
      'ERR_RUNNER_INVALID_PARAM',
      `step "${label}": data must be a list or a map of records`,
      {
        step: label,
      },
    );
  }
  const columns = Array.isArray(params.columns) ? params.columns.map(String) : undefined;
  const text = renderRecords(String(params.format), records, columns);
  return textOutput(step, label, ctx, params.path, text);
};

/** `read-file path <p> [optional true]`: a text file from the downloads roots or the bundle. */
export const readFileAction: ActionImpl = async (params, _step, ctx, label) => {
  const path = String(params.path);
  const bytes = await readAllowed(ctx, label, 'path', path);
  if (bytes === undefined) {
    if (params.optional === true) return '';
    throw new RunnerError('ERR_RUNNER_STEP_FAILED', `step "${label}": file "${path}" not found`, {
      step: label,
    });
  }
  return bytes.toString('utf8');
};

/**
 * `write-files root <dir> files "{{list}}"`: each `{path, content}` or `{path, bytesB64}`
 * is written under root (no traversal out of it). Result `{count, root, files:[{path,size}]}`.
 */
export const writeFilesAction: ActionImpl = async (params, _step, ctx, label) => {
  const root = resolveSafePath(label, 'root', String(params.root), ctx.roots);
  const files = params.files;
  if (!Array.isArray(files)) {
    throw new RunnerError('ERR_RUNNER_INVALID_PARAM', `step "${label}": files must be a list`, {
      step: label,
    });
  }
  const written: { path: string; size: number }[] = [];
  for (const file of files as Record<string, unknown>[]) {
    const rel = typeof file?.path === 'string' ? file.path : '';
    const target = resolveSafePath(label, 'files[].path', rel, { base: root, allowed: [root] });
    const bytes =
      typeof file.bytesB64 === 'string'
        ? Buffer.from(file.bytesB64, 'base64')
        : Buffer.from(stringifyValue(file.content), 'utf8');
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, bytes);
    written.push({ path: target, size: bytes.length });
  }
  return { count: written.length, root, files: written };
};
