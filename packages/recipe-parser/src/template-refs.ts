/**
 * `{{…}}` references: which root names a string or flow value uses, and the warning
 * pass that flags names that are neither inputs, bindings nor known secrets.
 */
import type { Diagnostic } from './diagnostics.js';
import type { FlowValue, StepDef, TaskDef } from './taskdef.js';

const TOKEN = /\{\{\s*([^{}|]*?)\s*(?:\|[^{}]*)?\}\}/g;

function collect(value: FlowValue | undefined, out: string[], seen: Set<string>): void {
  if (typeof value === 'string') {
    if (!value.includes('{{')) return;
    for (const m of value.matchAll(TOKEN)) {
      const root = (m[1] ?? '').split('.')[0]!.trim();
      if (root !== '' && !seen.has(root)) {
        seen.add(root);
        out.push(root);
      }
    }
  } else if (Array.isArray(value)) {
    for (const v of value) collect(v, out, seen);
  } else if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) collect(v, out, seen);
  }
}

/**
 * The root names referenced by `{{…}}` tokens in a string or flow value, in order of
 * first appearance: `{{a.b.0}}` → `a`, `{{q|or:x}}` → `q`.
 *
 * @example
 * templateRefs({ url: 'https://x/?q={{q|or:go}}', n: ['{{page.title}}'] }) // ['q', 'page']
 */
export function templateRefs(value: FlowValue | undefined): string[] {
  const out: string[] = [];
  collect(value, out, new Set());
  return out;
}

/** Names a step binds for the steps after it (and, for for-each, for its children). */
function boundName(step: StepDef): string | undefined {
  if (step.run === 'set') {
    const n = step.params['name'];
    return typeof n === 'string' ? n : step.as;
  }
  return step.as;
}

/**
 * Warn about `{{name}}` references that are neither an input, an earlier binding, a
 * loop variable nor one of `knownNames` (secrets). After a `call` step, or in a task
 * with a `setupTask`, names may come from the other task: no warnings from there on.
 * `locate` refines the position of a reference (the recipe parser points at the token).
 */
export function checkTemplateNames(
  task: TaskDef,
  knownNames: Iterable<string>,
  locate?: (step: StepDef, name: string) => { line: number; col: number } | undefined,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (task.setupTask !== undefined) return out;
  const known = new Set<string>([...knownNames, ...Object.keys(task.input)]);
  let silenced = false;

  const walk = (steps: readonly StepDef[], scope: Set<string>): void => {
    for (const step of steps) {
      if (silenced) return;
      const refs = templateRefs([...(step.status !== undefined ? [step.status] : []), step.params]);
      for (const name of refs) {
        if (scope.has(name)) continue;
        const at = locate?.(step, name) ?? step.pos;
        out.push({
          file: step.pos?.file ?? task.source ?? '',
          line: at?.line ?? 1,
          col: at?.col ?? 1,
          severity: 'warning',
          code: 'WARN_RECIPE_UNKNOWN_NAME',
          message: `\`{{${name}}}\` is not an input, an earlier binding or a known secret; it renders empty unless the environment defines \`${name}\``,
        });
      }
      if (step.do) {
        const inner = new Set(scope);
        if (step.run === 'for-each') {
          const item = typeof step.params['as'] === 'string' ? step.params['as'] : 'item';
          inner.add(item).add(`${item}_index`);
        }
        if (step.run === 'loop') inner.add('loop_index');
        walk(step.do, inner);
        // Children of record/capture-network/console share the bindings map.
        if (step.run !== 'for-each') for (const n of inner) scope.add(n);
      }
      if (step.run === 'call') silenced = true;
      const bound = boundName(step);
      if (bound !== undefined) scope.add(bound);
    }
  };
  walk(task.flow, known);
  return out;
}
