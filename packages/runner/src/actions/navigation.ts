/** Navigation, waiting, typing, clicking and scrolling actions. */
import type { Request } from 'playwright';
import type { ActionImpl } from '../context.js';
import { isTimeoutError } from '../deadline.js';
import { RunnerError } from '../errors.js';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown, fallback: number): number => (typeof v === 'number' ? v : fallback);

/** `goto <url>`: navigates and waits for `load`; result `{url, status}`. */
export const gotoAction: ActionImpl = async (params, _step, ctx, label) => {
  const response = await ctx.deadline.run(label, (timeout) =>
    ctx.page.goto(str(params.url), { timeout, waitUntil: 'load' }),
  );
  return { url: ctx.page.url(), status: response?.status() ?? null };
};

/** `wait <ms>`: a fixed sleep, bounded by the deadline. */
export const waitAction: ActionImpl = async (params, _step, ctx, label) => {
  await ctx.deadline.sleep(label, num(params.duration, 0));
  return null;
};

/** `wait until <selector> timeout <ms>`: DOM presence, default 10 000 ms. */
export const waitForAction: ActionImpl = async (params, _step, ctx, label) => {
  const selector = str(params.selector);
  const own = num(params.timeoutMs, 10000);
  const deadlineBinds = ctx.deadline.remainingMs() <= own;
  try {
    await ctx.deadline.run(label, (timeout) =>
      ctx.page.waitForSelector(selector, { state: 'attached', timeout: Math.min(own, timeout) }),
    );
  } catch (err) {
    if (isTimeoutError(err) && !deadlineBinds) {
      throw new RunnerError(
        'ERR_RUNNER_STEP_FAILED',
        `step "${label}": timeout after ${own} ms waiting for "${selector}"`,
        { step: label, cause: err },
      );
    }
    throw err;
  }
  return null;
};

/** `wait-network-idle`: no more than `maxInflight` requests for `idleMs`. */
export const waitForNetworkIdleAction: ActionImpl = async (params, _step, ctx, label) => {
  const idleMs = num(params.idleMs, 500);
  const own = num(params.timeoutMs, 15000);
  const maxInflight = num(params.maxInflight, 0);
  const inflight = new Set<Request>();
  const page = ctx.page;
  const onRequest = (r: Request): void => void inflight.add(r);
  const onDone = (r: Request): void => void inflight.delete(r);
  page.on('request', onRequest);
  page.on('requestfinished', onDone);
  page.on('requestfailed', onDone);
  try {
    const started = Date.now();
    let quietSince = Date.now();
    for (;;) {
      if (inflight.size > maxInflight) quietSince = Date.now();
      if (Date.now() - quietSince >= idleMs) return { inflight: inflight.size };
      if (Date.now() - started >= own) {
        throw new RunnerError(
          'ERR_RUNNER_STEP_FAILED',
          `step "${label}": network not idle after ${own} ms (${inflight.size} requests in flight)`,
          { step: label },
        );
      }
      await ctx.deadline.sleep(label, Math.min(50, idleMs));
    }
  } finally {
    page.off('request', onRequest);
    page.off('requestfinished', onDone);
    page.off('requestfailed', onDone);
  }
};

/** `sendkeys <selector> keys <text>`: focuses the element and types (real key events). */
export const sendkeysAction: ActionImpl = async (params, _step, ctx, label) => {
  const locator = ctx.page.locator(str(params.selector)).first();
  await ctx.deadline.run(label, (timeout) =>
    locator.pressSequentially(str(params.keys), { timeout }),
  );
  return null;
};

/**
 * `click <selector> [text <t> match exact|contains] [closest <sel>]`: a trusted click.
 * Matching by visible text and retargeting to an ancestor happen in the page; the click
 * itself is Playwright's (real input events, so `isTrusted` handlers fire).
 */
export const clickAction: ActionImpl = async (params, _step, ctx, label) => {
  const selector = str(params.selector);
  const text = typeof params.text === 'string' ? params.text : undefined;
  const closest =
    typeof params.closest === 'string' && params.closest !== '' ? params.closest : undefined;
  if (text === undefined && closest === undefined) {
    await ctx.deadline.run(label, (timeout) =>
      ctx.page.locator(selector).first().click({ timeout }),
    );
    return null;
  }
  const mark = `bt${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const found = await ctx.deadline.run(label, () =>
    ctx.page.evaluate(
      ({ selector, text, exact, closest, mark }) => {
        // No named helper functions here: tsx's keepNames would reference `__name` in the page.
        for (const el of Array.from(document.querySelectorAll(selector))) {
          const visible = ((el as HTMLElement).innerText ?? el.textContent ?? '')
            .replace(/\s+/g, ' ')
            .trim();
          if (text !== null) {
            const want = text.replace(/\s+/g, ' ').trim();
            if (exact ? visible !== want : !visible.includes(want)) continue;
          }
          const target = closest === null ? el : el.closest(closest);
          if (target === null) continue;
          target.setAttribute('data-browsertask-click', mark);
          return true;
        }
        return false;
      },
      {
        selector,
        text: text ?? null,
        exact: params.match !== 'contains',
        closest: closest ?? null,
        mark,
      },
    ),
  );
  if (!found) {
    throw new RunnerError(
      'ERR_RUNNER_STEP_FAILED',
      `step "${label}": no "${selector}" element${text === undefined ? '' : ` with text "${text}"`}${closest === undefined ? '' : ` inside "${closest}"`}`,
      { step: label },
    );
  }
  const target = ctx.page.locator(`[data-browsertask-click="${mark}"]`);
  await ctx.deadline.run(label, (timeout) => target.click({ timeout }));
  await ctx.deadline
    .run(label, () =>
      target.evaluateAll((els) => els.forEach((e) => e.removeAttribute('data-browsertask-click'))),
    )
    .catch(() => undefined);
  return null;
};

/** `scroll until stable`: scrolls a container until its scrollHeight stops changing. */
export const scrollUntilStableAction: ActionImpl = async (params, _step, ctx, label) => {
  const selector = str(params.selector);
  const up = params.direction !== 'down';
  const stableMs = num(params.stableMs, 1500);
  const maxIterations = num(params.maxIterations, 0);
  let iterations = 0;
  let lastHeight = -1;
  let stableSince = Date.now();
  for (;;) {
    const height = await ctx.deadline.run(label, () =>
      ctx.page.evaluate(
        ({ selector, up }) => {
          const el = document.querySelector(selector);
          if (el === null) return null;
          el.scrollTop = up ? 0 : el.scrollHeight;
          el.dispatchEvent(new Event('scroll'));
          return el.scrollHeight;
        },
        { selector, up },
      ),
    );
    if (height === null) {
      throw new RunnerError('ERR_RUNNER_STEP_FAILED', `step "${label}": no element "${selector}"`, {
        step: label,
      });
    }
    iterations += 1;
    if (height !== lastHeight) {
      lastHeight = height;
      stableSince = Date.now();
    } else if (Date.now() - stableSince >= stableMs) break;
    if (maxIterations > 0 && iterations >= maxIterations) break;
    await ctx.deadline.sleep(label, Math.min(250, Math.max(10, stableMs / 4)));
  }
  return { iterations, scrollHeight: lastHeight };
};
