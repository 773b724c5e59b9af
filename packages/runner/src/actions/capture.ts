/** Rendering and capture actions: screenshot, pdf, html-to-pdf, snapshot (MHTML), emulate, save-html. */
import type { CDPSession, Page } from 'playwright';
import type { ActionImpl, StepContext } from '../context.js';
import { RunnerError } from '../errors.js';
import { binaryOutput, requirePathOrName, writeSafe } from './output.js';
import { readRequired } from './read.js';

const opt = <T>(v: unknown, pred: (x: unknown) => x is T): T | undefined =>
  pred(v) ? v : undefined;
const isStr = (x: unknown): x is string => typeof x === 'string' && x !== '';
const isNum = (x: unknown): x is number => typeof x === 'number';

/** `screenshot`: viewport (`.`), full page, or one element; png or jpeg. */
export const screenshotAction: ActionImpl = async (params, step, ctx, label) => {
  requirePathOrName(step, label, params.path);
  const type = params.format === 'jpeg' ? 'jpeg' : 'png';
  const quality = type === 'jpeg' ? opt(params.quality, isNum) : undefined;
  const selector = typeof params.selector === 'string' ? params.selector : '.';
  const bytes = await ctx.deadline.run(label, (timeout) =>
    selector === '.' || selector === ''
      ? ctx.page.screenshot({ type, quality, fullPage: params.fullPage === true, timeout })
      : ctx.page.locator(selector).first().screenshot({ type, quality, timeout }),
  );
  return binaryOutput(step, label, ctx, params.path, bytes);
};

interface PdfOptions {
  format?: string;
  landscape: boolean;
  printBackground: boolean;
  scale?: number;
  pageRanges?: string;
}

function pdfOptions(params: Record<string, unknown>): PdfOptions {
  return {
    format: opt(params.format, isStr),
    landscape: params.landscape === true,
    printBackground: params.printBackground !== false,
    scale: opt(params.scale, isNum),
    pageRanges: opt(params.pageRanges, isStr),
  };
}

async function renderPdf(
  ctx: StepContext,
  label: string,
  page: Page,
  options: PdfOptions,
): Promise<Buffer> {
  return ctx.deadline.run(label, () => page.pdf(options));
}

/** `pdf`: the current page as PDF (Playwright's `page.pdf`). */
export const pdfAction: ActionImpl = async (params, step, ctx, label) => {
  requirePathOrName(step, label, params.path);
  const bytes = await renderPdf(ctx, label, ctx.page, pdfOptions(params));
  return binaryOutput(step, label, ctx, params.path, bytes);
};

/** `html-to-pdf`: an HTML string (or file) rendered in a scratch page of the same window context. */
export const htmlToPdfAction: ActionImpl = async (params, step, ctx, label) => {
  requirePathOrName(step, label, params.path);
  let html: string;
  if (isStr(params.html)) html = params.html;
  else if (isStr(params.file))
    html = (await readRequired(ctx, label, 'file', params.file)).toString('utf8');
  else {
    throw new RunnerError(
      'ERR_RUNNER_INVALID_PARAM',
      `step "${label}": html-to-pdf needs html or file`,
      {
        step: label,
      },
    );
  }
  if (isStr(params.css)) html = `<style>${params.css}</style>\n${html}`;
  const scratch = await ctx.deadline.run(label, () => ctx.context.newPage());
  try {
    await ctx.deadline.run(label, (timeout) =>
      scratch.setContent(html, { timeout, waitUntil: 'load' }),
    );
    const bytes = await renderPdf(ctx, label, scratch, pdfOptions(params));
    return await binaryOutput(step, label, ctx, params.path, bytes);
  } finally {
    await scratch.close().catch(() => undefined);
  }
};

const sessions = new WeakMap<Page, CDPSession>();

/** One CDP session per page, kept so emulation overrides persist (they die with the session). */
async function cdpFor(ctx: StepContext, label: string): Promise<CDPSession> {
  const existing = sessions.get(ctx.page);
  if (existing !== undefined) return existing;
  const session = await ctx.deadline.run(label, () => ctx.context.newCDPSession(ctx.page));
  sessions.set(ctx.page, session);
  return session;
}

/** `snapshot`: an MHTML single-file archive (CDP `Page.captureSnapshot`; Playwright has none). */
export const snapshotAction: ActionImpl = async (params, step, ctx, label) => {
  requirePathOrName(step, label, params.path);
  const session = await cdpFor(ctx, label);
  const { data } = await ctx.deadline.run(label, () =>
    session.send('Page.captureSnapshot', { format: 'mhtml' }),
  );
  return binaryOutput(step, label, ctx, params.path, Buffer.from(data, 'utf8'));
};

/**
 * `emulate`: viewport metrics (CDP device-metrics override, kept on the window) and colour
 * scheme (`page.emulateMedia`); `reset true` clears both.
 */
export const emulateAction: ActionImpl = async (params, _step, ctx, label) => {
  const session = await cdpFor(ctx, label);
  if (params.reset === true) {
    // Clearing the override would also drop the context's own viewport (Playwright's
    // override): put that viewport back instead; deviceScaleFactor 0 = the default.
    const viewport = ctx.page.viewportSize();
    await ctx.deadline.run(label, () =>
      viewport === null
        ? session.send('Emulation.clearDeviceMetricsOverride')
        : session.send('Emulation.setDeviceMetricsOverride', {
            ...viewport,
            deviceScaleFactor: 0,
            mobile: false,
          }),
    );
    await ctx.deadline.run(label, () => ctx.page.emulateMedia({ colorScheme: null }));
    return { reset: true };
  }
  const applied: Record<string, unknown> = {};
  if (isNum(params.width) || isNum(params.height)) {
    const current = ctx.page.viewportSize() ?? { width: 1280, height: 720 };
    const metrics = {
      width: isNum(params.width) ? params.width : current.width,
      height: isNum(params.height) ? params.height : current.height,
      deviceScaleFactor: isNum(params.deviceScaleFactor) ? params.deviceScaleFactor : 1,
      mobile: params.mobile === true,
    };
    await ctx.deadline.run(label, () =>
      session.send('Emulation.setDeviceMetricsOverride', metrics),
    );
    Object.assign(applied, metrics);
  }
  if (isStr(params.colorScheme)) {
    const colorScheme = params.colorScheme as 'light' | 'dark' | 'no-preference';
    await ctx.deadline.run(label, () => ctx.page.emulateMedia({ colorScheme }));
    applied.colorScheme = colorScheme;
  }
  return applied;
};

/** `save-html`: an element's outerHTML (`.` = the whole document) to a file; result `{path, size}`. */
export const saveHtmlAction: ActionImpl = async (params, _step, ctx, label) => {
  const selector = typeof params.selector === 'string' ? params.selector : '.';
  const html = await ctx.deadline.run(label, async (timeout) =>
    selector === '.' || selector === ''
      ? ctx.page.content()
      : ctx.page
          .locator(selector)
          .first()
          .evaluate((el) => el.outerHTML, undefined, { timeout }),
  );
  const path = await writeSafe(ctx, label, 'path', String(params.path), html);
  return { path, size: Buffer.byteLength(html) };
};
