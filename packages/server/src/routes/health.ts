import type { Router } from '@koa/router';
import type { AppState } from '../internal/context.js';
import type { HealthFn, TaskCatalogue } from '../types.js';

/** `GET /health` → `{ ok: true, taskCount, pools }` (taskCount re-counted live). */
export function registerHealthRoute(
  router: Router<AppState>,
  deps: { catalogue: TaskCatalogue; health: HealthFn },
): void {
  router.get('/health', async (ctx) => {
    const [taskCount, pools] = await Promise.all([deps.catalogue.count(), deps.health()]);
    ctx.body = { ok: true, taskCount, pools };
  });
}
