/** Network and session actions: capture-network, console, get/set-cookies, http-get/post. */
import {
  request as playwrightRequest,
  type BrowserContext,
  type ConsoleMessage,
  type Cookie,
  type Request,
  type Response,
} from 'playwright';
import type { ActionImpl } from '../context.js';
import { RunnerError } from '../errors.js';
import { writeSafe } from './output.js';
import { readRequired } from './read.js';

interface NetworkEntry {
  method: string;
  url: string;
  resourceType: string;
  requestHeaders: Record<string, string>;
  status: number | null;
  responseHeaders: Record<string, string> | null;
  failure: string | null;
  body?: string;
  bodyTruncated?: boolean;
}

/**
 * `capture-network … end`: request/response entries while the children run (Playwright's
 * page events). A failing child still yields its entries to the path when one is given.
 */
export const captureNetworkAction: ActionImpl = async (params, step, ctx, label) => {
  const filter =
    typeof params.urlFilter === 'string' && params.urlFilter !== '' ? params.urlFilter : undefined;
  const includeBodies = params.includeBodies === true;
  const maxBodyBytes = typeof params.maxBodyBytes === 'number' ? params.maxBodyBytes : 65536;
  const entries = new Map<Request, NetworkEntry>();
  const pending: Promise<void>[] = [];
  const onRequest = (r: Request): void => {
    if (filter !== undefined && !r.url().includes(filter)) return;
    entries.set(r, {
      method: r.method(),
      url: r.url(),
      resourceType: r.resourceType(),
      requestHeaders: r.headers(),
      status: null,
      responseHeaders: null,
      failure: null,
    });
  };
  const onResponse = (res: Response): void => {
    const entry = entries.get(res.request());
    if (entry === undefined) return;
    entry.status = res.status();
    entry.responseHeaders = res.headers();
    if (includeBodies) {
      pending.push(
        res.body().then(
          (buf) => {
            entry.body = buf.subarray(0, maxBodyBytes).toString('utf8');
            entry.bodyTruncated = buf.length > maxBodyBytes;
          },
          () => undefined,
        ),
      );
    }
  };
  const onFailed = (r: Request): void => {
    const entry = entries.get(r);
    if (entry !== undefined) entry.failure = r.failure()?.errorText ?? 'failed';
  };
  ctx.page.on('request', onRequest);
  ctx.page.on('response', onResponse);
  ctx.page.on('requestfailed', onFailed);
  const finish = async (): Promise<NetworkEntry[]> => {
    ctx.page.off('request', onRequest);
    ctx.page.off('response', onResponse);
    ctx.page.off('requestfailed', onFailed);
    await ctx.deadline.run(label, () => Promise.all(pending)).catch(() => undefined);
    const list = [...entries.values()];
    if (typeof params.path === 'string' && params.path !== '') {
      await writeSafe(ctx, label, 'path', params.path, JSON.stringify(list, null, 2));
    }
    return list;
  };
  try {
    await ctx.runFlow(step.do ?? [], ctx);
  } catch (err) {
    await finish().catch(() => undefined);
    throw err;
  }
  return finish();
};

/** `console … end`: console messages (and uncaught page errors) while the children run. */
export const consoleAction: ActionImpl = async (_params, step, ctx) => {
  const messages: { type: string; text: string }[] = [];
  const onConsole = (m: ConsoleMessage): void =>
    void messages.push({ type: m.type(), text: m.text() });
  const onError = (e: Error): void => void messages.push({ type: 'pageerror', text: e.message });
  ctx.page.on('console', onConsole);
  ctx.page.on('pageerror', onError);
  try {
    await ctx.runFlow(step.do ?? [], ctx);
  } finally {
    ctx.page.off('console', onConsole);
    ctx.page.off('pageerror', onError);
  }
  return messages;
};

function cookieView(c: Cookie): Record<string, unknown> {
  return {
    name: c.name,
    value: c.value,
    domain: c.domain,
    path: c.path,
    expires: c.expires,
    httpOnly: c.httpOnly,
    secure: c.secure,
    sameSite: c.sameSite,
  };
}

/** `get-cookies [urls [...]] [path <file>]`: the window's cookies. */
export const getCookiesAction: ActionImpl = async (params, _step, ctx, label) => {
  const urls = Array.isArray(params.urls) ? params.urls.map(String) : undefined;
  const cookies = (await ctx.deadline.run(label, () => ctx.context.cookies(urls))).map(cookieView);
  if (typeof params.path === 'string' && params.path !== '') {
    await writeSafe(ctx, label, 'path', params.path, JSON.stringify(cookies, null, 2));
  }
  return cookies;
};

type SetCookie = Parameters<BrowserContext['addCookies']>[0][number];

/** `set-cookies cookies [...]` or `set-cookies file <json>`: installs cookies; result `{count}`. */
export const setCookiesAction: ActionImpl = async (params, _step, ctx, label) => {
  let cookies: unknown = params.cookies;
  if (typeof cookies === 'string' && cookies.trim() !== '')
    cookies = JSON.parse(cookies) as unknown;
  if (
    (cookies === undefined || cookies === '') &&
    typeof params.file === 'string' &&
    params.file !== ''
  ) {
    cookies = JSON.parse(
      (await readRequired(ctx, label, 'file', params.file)).toString('utf8'),
    ) as unknown;
  }
  if (!Array.isArray(cookies)) {
    throw new RunnerError(
      'ERR_RUNNER_INVALID_PARAM',
      `step "${label}": set-cookies needs a cookie list (cookies or file)`,
      {
        step: label,
      },
    );
  }
  const list = cookies.map((c: Record<string, unknown>) => {
    const cookie: Record<string, unknown> = { ...c };
    if (cookie.url === undefined && cookie.path === undefined) cookie.path = '/';
    if (typeof cookie.expires !== 'number' || cookie.expires <= 0) delete cookie.expires;
    if (typeof cookie.sameSite === 'string') {
      const s = cookie.sameSite.toLowerCase();
      cookie.sameSite = s === 'strict' ? 'Strict' : s === 'none' ? 'None' : 'Lax';
    }
    return cookie as unknown as SetCookie;
  });
  await ctx.deadline.run(label, () => ctx.context.addCookies(list));
  return { count: list.length };
};

/**
 * `http-get` / `http-post`: an outbound call with no page involved (Playwright's request
 * API, its own cookie jar). Result `{status, headers, body, json?}`; a non-2xx status is a
 * result, not a failure.
 */
export const httpRequestAction: ActionImpl = async (params, _step, ctx, label) => {
  const method = (typeof params.method === 'string' ? params.method : 'GET').toUpperCase();
  const headers: Record<string, string> = {};
  if (params.headers !== null && typeof params.headers === 'object') {
    for (const [k, v] of Object.entries(params.headers as Record<string, unknown>))
      headers[k] = String(v);
  }
  let data: string | undefined;
  if (typeof params.body === 'string') data = params.body;
  else if (params.body !== undefined && params.body !== null) {
    data = JSON.stringify(params.body);
    if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
  }
  const own = typeof params.timeoutMs === 'number' ? params.timeoutMs : 30000;
  const api = await playwrightRequest.newContext();
  try {
    const res = await ctx.deadline.run(label, (timeout) =>
      api.fetch(String(params.url), { method, headers, data, timeout: Math.min(own, timeout) }),
    );
    const body = (await ctx.deadline.run(label, () => res.body())).toString('utf8');
    const out: Record<string, unknown> = { status: res.status(), headers: res.headers(), body };
    try {
      out.json = JSON.parse(body) as unknown;
    } catch {
      // Not JSON: `json` stays absent (webtasks' shape).
    }
    return out;
  } finally {
    await api.dispose().catch(() => undefined);
  }
};
