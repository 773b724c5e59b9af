// Writes schema/taskdef.schema.json from src/schema.ts (a test keeps them equal).
import { writeFileSync } from 'node:fs';
import { taskDefSchema } from '../src/schema.ts';

writeFileSync(
  new URL('../schema/taskdef.schema.json', import.meta.url),
  `${JSON.stringify(taskDefSchema, null, 2)}\n`,
);
