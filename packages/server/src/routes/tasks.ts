import type { Router } from '@koa/router';
import type { AppState } from '../internal/context.js';
import type { InputDescriptor, TaskCatalogue, TaskListingEntry } from '../types.js';

/** Exactly the spec's descriptor fields; `default` only when declared. */
function describeInput(d: InputDescriptor): Record<string, unknown> {
  const out: Record<string, unknown> = { type: d.type, required: d.required };
  if (d.default !== undefined) out['default'] = d.default;
  out['doc'] = d.doc ?? '';
  return out;
}

/** Exactly the spec's listing fields, whatever else the catalogue carries. */
export function toListingEntry(t: TaskListingEntry): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [name, d] of Object.entries(t.input)) input[name] = describeInput(d);
  return {
    name: t.name,
    poolTag: t.poolTag,
    transports: [...t.transports],
    timeoutMs: t.timeoutMs,
    input,
  };
}

/** `GET /tasks` → the live listing as a JSON array. */
export function registerTasksRoute(
  router: Router<AppState>,
  deps: { catalogue: TaskCatalogue },
): void {
  router.get('/tasks', async (ctx) => {
    const tasks = await deps.catalogue.list();
    ctx.body = tasks.map(toListingEntry);
  });
}
