/** Downloads: `download-each` (real browser downloads) and `save-captures-to-dir` (blob captures). */
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { ActionImpl } from '../context.js';
import { RunnerError } from '../errors.js';
import { resolveSafePath } from '../paths.js';

function uniqueName(taken: Set<string>, name: string): string {
  const safe = basename(name).replace(/[\\/:*?"<>|\0]/g, '_') || 'download';
  let candidate = safe;
  const ext = extname(safe);
  for (let i = 1; taken.has(candidate); i += 1)
    candidate = `${safe.slice(0, safe.length - ext.length)}-${i}${ext}`;
  taken.add(candidate);
  return candidate;
}

/**
 * `download-each <selector>`: clicks every match in DOM order and saves each download into
 * the window's downloads directory. Result `[{path, basename}]`.
 */
export const downloadEachAction: ActionImpl = async (params, _step, ctx, label) => {
  const selector = String(params.selector);
  const perFile = typeof params.timeoutPerFileMs === 'number' ? params.timeoutPerFileMs : 30000;
  const count = await ctx.deadline.run(label, () => ctx.page.locator(selector).count());
  await mkdir(ctx.downloadsDir, { recursive: true });
  const taken = new Set<string>();
  const out: { path: string; basename: string }[] = [];
  for (let i = 0; i < count; i += 1) {
    const download = await ctx.deadline.run(label, async (timeout) => {
      const t = Math.min(perFile, timeout);
      const [d] = await Promise.all([
        ctx.page.waitForEvent('download', { timeout: t }),
        ctx.page.locator(selector).nth(i).click({ timeout: t }),
      ]);
      return d;
    });
    const name = uniqueName(taken, download.suggestedFilename());
    const path = join(ctx.downloadsDir, name);
    await ctx.deadline.run(label, () => download.saveAs(path));
    out.push({ path, basename: name });
  }
  return out;
};

interface Capture {
  id?: unknown;
  name?: unknown;
  mime?: unknown;
  url?: unknown;
  bytesB64?: unknown;
  ready?: unknown;
}

/**
 * `save-captures-to-dir dir <d> [naming <tpl>]`: drains blobs an in-page
 * `URL.createObjectURL` hook buffered in `window.__browsertaskCaptures` (also read:
 * `window.__webtasksCaptures`) — entries `{id, name, mime, url, bytesB64, ready}`; entries
 * with `ready === false` stay for a later drain. Result `[{path, basename, size, mime, name, url}]`.
 */
export const saveCapturesToDirAction: ActionImpl = async (params, _step, ctx, label) => {
  const dir = resolveSafePath(label, 'dir', String(params.dir), ctx.roots);
  const naming = typeof params.naming === 'string' ? params.naming : '{id}_{name}';
  const captures = await ctx.deadline.run(label, () =>
    ctx.page.evaluate(() => {
      const w = window as unknown as Record<string, unknown>;
      const list = (w.__browsertaskCaptures ?? w.__webtasksCaptures) as Capture[] | undefined;
      if (!Array.isArray(list)) return null;
      const ready = list.filter((c) => c.ready !== false);
      const rest = list.filter((c) => c.ready === false);
      list.splice(0, list.length, ...rest);
      return ready;
    }),
  );
  if (captures === null) {
    throw new RunnerError(
      'ERR_RUNNER_STEP_FAILED',
      `step "${label}": no capture hook in the page (window.__browsertaskCaptures is not an array)`,
      { step: label },
    );
  }
  await mkdir(dir, { recursive: true });
  const taken = new Set<string>();
  const out: Record<string, unknown>[] = [];
  for (const [index, c] of captures.entries()) {
    const bytes = Buffer.from(typeof c.bytesB64 === 'string' ? c.bytesB64 : '', 'base64');
    const name = typeof c.name === 'string' && c.name !== '' ? c.name : `capture-${index}`;
    const mime = typeof c.mime === 'string' ? c.mime : 'application/octet-stream';
    const fileName = naming
      .replaceAll(
        '{id}',
        typeof c.id === 'string' || typeof c.id === 'number' ? String(c.id) : String(index),
      )
      .replaceAll('{name}', name)
      .replaceAll('{ext}', extname(name).replace(/^\./, ''))
      .replaceAll('{mime}', mime.replace(/\//g, '_'))
      .replaceAll('{size}', String(bytes.length))
      .replaceAll('{ts}', String(Date.now()));
    const base = uniqueName(taken, fileName);
    const path = resolveSafePath(label, 'dir', join(dir, base), ctx.roots);
    await writeFile(path, bytes);
    out.push({
      path,
      basename: base,
      size: bytes.length,
      mime,
      name,
      url: typeof c.url === 'string' ? c.url : null,
    });
  }
  return out;
};
