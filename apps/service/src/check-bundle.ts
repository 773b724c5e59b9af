/**
 * `browsertask check`: parses every recipe and config file of a bundle (directory or
 * zip) without a browser, and cross-checks what a run would trip over.
 */
import { dirname } from 'node:path';
import { openBundle } from '@browsertask/bundle-fs';
import type { StepDef } from '@browsertask/recipe-parser';
import { loadBundleTasks } from './bundle-tasks.js';
import { loadBundleConfig } from './config-files.js';
import { formatProblem } from './diagnostics.js';
import { PUBLISHED_ENV_NAMES } from './published-env.js';

/** Result of {@link checkBundle}: formatted errors and warnings. */
export interface CheckBundleResult {
  readonly kind: 'directory' | 'zip';
  readonly taskCount: number;
  readonly errors: readonly string[];
  readonly warnings: readonly string[];
}

function walkSteps(steps: readonly StepDef[], visit: (s: StepDef) => void): void {
  for (const s of steps) {
    visit(s);
    if (s.do) walkSteps(s.do, visit);
  }
}

/**
 * Checks a bundle. Errors: recipe syntax, config files, duplicate slugs. Warnings:
 * undeclared pools, missing setup/call targets and JS modules, template names that
 * are neither inputs, bindings, declared secrets nor variables the service publishes
 * (reported by the recipe parser).
 * @example const { errors } = await checkBundle('bundle-example', process.env);
 */
export async function checkBundle(
  path: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<CheckBundleResult> {
  const bundle = await openBundle(path);
  try {
    const prefix = `${path.replace(/\/+$/, '')}${bundle.kind === 'zip' ? '!/' : '/'}`;
    const config = await loadBundleConfig(bundle, {
      env,
      baseDir: bundle.kind === 'zip' ? dirname(bundle.path) : bundle.path,
      displayPrefix: prefix,
    });
    const secrets = (config.config.secrets ?? []).map((s) => s.name);
    const loaded = await loadBundleTasks(bundle, prefix, [...secrets, ...PUBLISHED_ENV_NAMES]);
    const errors = [
      ...loaded.errors,
      ...config.problems.filter((p) => p.severity === 'error').map(formatProblem),
    ];
    const warnings = [
      ...loaded.warnings,
      ...config.problems.filter((p) => p.severity === 'warning').map(formatProblem),
    ];
    const pools = new Set(['default', ...Object.keys(config.config.pool?.pools ?? {})]);
    const slugs = new Set(loaded.tasks.map((t) => t.task.name));
    const files = new Set(await bundle.list());
    for (const { path: p, task } of loaded.tasks) {
      const at = (s?: StepDef): string =>
        s?.pos ? `${s.pos.file}:${s.pos.line}:${s.pos.col}` : `${prefix}${p}:1:1`;
      if (!pools.has(task.poolTag)) {
        warnings.push(`${at()}: warning: pool "${task.poolTag}" is not declared in pool.yaml`);
      }
      if (task.setupTask !== undefined && !slugs.has(task.setupTask)) {
        warnings.push(`${at()}: warning: setup task "${task.setupTask}" does not exist`);
      }
      walkSteps(task.flow, (s) => {
        if (
          s.run === 'call' &&
          typeof s.params.task === 'string' &&
          !s.params.task.includes('{{')
        ) {
          if (!slugs.has(s.params.task)) {
            warnings.push(`${at(s)}: warning: called task "${s.params.task}" does not exist`);
          }
        }
        for (const key of ['fn', 'whileFn', 'untilFn'] as const) {
          const mod = s.params[key];
          if (typeof mod === 'string' && mod !== '' && !mod.includes('{{')) {
            const file = `scripts/${mod.endsWith('.js') ? mod : `${mod}.js`}`;
            if (!files.has(file)) warnings.push(`${at(s)}: warning: JS module ${file} not found`);
          }
        }
      });
    }
    return { kind: bundle.kind, taskCount: loaded.tasks.length, errors, warnings };
  } finally {
    await bundle.close();
  }
}
