import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const validDir = fileURLToPath(new URL('../fixtures/valid/', import.meta.url));
export const invalidDir = fileURLToPath(new URL('../fixtures/invalid/', import.meta.url));

export interface Fixture {
  readonly name: string;
  readonly text: string;
}

export function readFixtures(dir: string): Fixture[] {
  return readdirSync(dir)
    .filter((n) => !n.endsWith('.json'))
    .sort()
    .map((name) => ({ name, text: readFileSync(dir + name, 'utf8') }));
}

/** A TaskDef as plain data without `pos`/`source`, for deep comparison. */
export function stripPositions(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (k, v: unknown) => (k === 'pos' || k === 'source' ? undefined : v)),
  );
}
