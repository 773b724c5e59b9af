/**
 * `extract`: rendered HTML to JSON with a CSS field spec, in ONE page call for all rows
 * and fields (platform-notes: ~45× faster than per-field locator calls).
 */
import type { ExtractField } from '@browsertask/recipe-parser';
import type { ActionImpl } from '../context.js';

interface FieldSpec {
  readonly name: string;
  readonly kind: string;
  readonly selector: string | null;
  readonly attr: string | null;
  readonly value: unknown;
  readonly transform: string | null;
}

function toSpecs(fields: unknown): FieldSpec[] {
  if (fields === null || typeof fields !== 'object') return [];
  return Object.entries(fields as Record<string, ExtractField>).map(([name, f]) => ({
    name,
    kind: f.kind ?? 'text',
    // `.` (webtasks) and an absent selector both mean the row element itself.
    selector:
      f.selector === undefined || f.selector === '.' || f.selector === '' ? null : f.selector,
    attr: f.name ?? null,
    value: f.value ?? null,
    transform: f.transform ?? null,
  }));
}

/** Applies a field transform to an extracted string (numbers parse digits, `1,234` → 1234). */
export function applyTransform(value: string | null, transform: string | null): unknown {
  if (value === null || transform === null) return value;
  switch (transform) {
    case 'trim':
      return value.trim();
    case 'lower':
      return value.toLowerCase();
    case 'upper':
      return value.toUpperCase();
    case 'int':
    case 'long': {
      const digits = value.replace(/[^\d-]/g, '');
      const n = Number.parseInt(digits, 10);
      return Number.isNaN(n) ? null : n;
    }
    case 'float': {
      const n = Number.parseFloat(value.replace(/[^\d.eE+-]/g, ''));
      return Number.isNaN(n) ? null : n;
    }
    default:
      return value;
  }
}

/** `extract <name> from <selector> [repeat] … end`: a list with `repeat`, else one object (or null). */
export const extractAction: ActionImpl = async (params, _step, ctx, label) => {
  const selector = typeof params.selector === 'string' ? params.selector : '';
  const repeat = params.repeat === true;
  const specs = toSpecs(params.fields);
  const raw = await ctx.deadline.run(label, () =>
    ctx.page.evaluate(
      ({ selector, repeat, specs }) => {
        const rows = repeat
          ? Array.from(document.querySelectorAll(selector))
          : [document.querySelector(selector)].filter((r): r is Element => r !== null);
        return rows.map((row) => {
          const record: Record<string, unknown> = {};
          for (const f of specs) {
            if (f.kind === 'const') {
              record[f.name] = f.value;
              continue;
            }
            const el = f.selector === null ? row : row.querySelector(f.selector);
            if (el === null) record[f.name] = null;
            else if (f.kind === 'attr') record[f.name] = el.getAttribute(f.attr ?? '');
            else if (f.kind === 'html') record[f.name] = el.innerHTML;
            else record[f.name] = (el.textContent ?? '').trim();
          }
          return record;
        });
      },
      { selector, repeat, specs },
    ),
  );
  const records = raw.map((record) => {
    const out: Record<string, unknown> = {};
    for (const f of specs) {
      const v = record[f.name];
      out[f.name] =
        f.kind === 'const' ? v : applyTransform(typeof v === 'string' ? v : null, f.transform);
    }
    return out;
  });
  return repeat ? records : (records[0] ?? null);
};
