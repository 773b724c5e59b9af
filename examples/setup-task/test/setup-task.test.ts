// examples/setup-task end to end: the real `browsertask serve` (real Chromium, real HTTP)
// on the example bundle, one service start, a pool of one window. The first run's setup
// signs in; the next runs on the same window find the session and skip signing in.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { serve, type Served } from '../../../apps/service/test/helpers/cli.js';

const bundle = fileURLToPath(new URL('../bundle', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'browsertask-setup-task-'));
let svc: Served;

before(async () => {
  svc = await serve({
    SERVICE_BUNDLE: bundle,
    SERVICE_DOWNLOADS_DIR: join(tmp, 'downloads'),
    SERVICE_PROFILE_DIR: join(tmp, 'profiles'),
    ACCOUNT_USER: undefined,
    ACCOUNT_PASSWORD: undefined,
  });
});
after(async () => {
  const code = await svc?.stop();
  rmSync(tmp, { recursive: true, force: true });
  assert.equal(code, 0);
});

interface SseEvent {
  event: string;
  data: { text?: string; data?: unknown; ok?: boolean; message?: string };
}

/** POSTs with `Accept: text/event-stream` and parses the whole stream. */
async function sse(slug: string): Promise<SseEvent[]> {
  const res = await fetch(`${svc.baseUrl}/tasks/${slug}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: '{}',
  });
  assert.equal(res.headers.get('content-type')?.split(';')[0], 'text/event-stream');
  const events: SseEvent[] = [];
  for (const block of (await res.text()).split('\n\n')) {
    const lines = block.split('\n');
    const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
    const data = lines
      .filter((l) => l.startsWith('data: '))
      .map((l) => l.slice(6))
      .join('\n');
    if (event !== undefined) events.push({ event, data: JSON.parse(data) as SseEvent['data'] });
  }
  return events;
}

const statusTexts = (events: SseEvent[]): (string | undefined)[] =>
  events.filter((e) => e.event === 'status').map((e) => e.data.text);

test('the first run runs the setup, which signs in', async () => {
  const events = await sse('account/orders');
  assert.deepEqual(statusTexts(events), [
    'Running setup: account/ensure-login',
    'Signing in as ada',
  ]);
  const setup = events.find((e) => e.event === 'setup');
  assert.deepEqual(setup?.data, { text: 'Session ready', data: { alreadySignedIn: false } });
  const done = events.at(-1);
  assert.equal(done?.event, 'done');
  assert.equal(done?.data.ok, true);
  const orders = done?.data.data as { id: string; item: string; total: number }[];
  assert.deepEqual(
    orders.map((o) => [o.id, o.total]),
    [
      ['A-1001', 89.9],
      ['A-1002', 34.5],
      ['A-1003', 59],
    ],
  );
});

test('a second run on the same window finds the session and does not sign in again', async () => {
  const events = await sse('account/profile');
  assert.deepEqual(statusTexts(events), ['Running setup: account/ensure-login']);
  const setup = events.find((e) => e.event === 'setup');
  assert.deepEqual(setup?.data, { text: 'Session ready', data: { alreadySignedIn: true } });
  const done = events.at(-1);
  assert.equal(done?.event, 'done');
  assert.deepEqual(done?.data.data, {
    user: 'ada',
    email: 'ada@example.com',
    plan: 'Team',
    since: '2021-03-14',
  });
});

test('a synchronous caller gets only the envelope, with the account data', async () => {
  const res = await fetch(`${svc.baseUrl}/tasks/account/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  assert.equal(res.status, 200);
  const body = (await res.json()) as { ok: boolean; data: { id: string }[] };
  assert.equal(body.ok, true);
  assert.deepEqual(
    body.data.map((o) => o.id),
    ['A-1001', 'A-1002', 'A-1003'],
  );
  const health = (await (await fetch(`${svc.baseUrl}/health`)).json()) as {
    pools: Record<string, { size: number; free: number }>;
  };
  assert.deepEqual(Object.keys(health.pools), ['default']);
  assert.equal(health.pools.default?.size, 1, 'every run used the same single window');
});

test('the sensitive password never reaches the log', () => {
  assert.doesNotMatch(svc.stderr(), /correct-horse/);
});
