import assert from 'node:assert/strict';
import { test } from 'node:test';

test('public API: the sorted export names are deliberate', async () => {
  const names = Object.keys(await import('../src/index.js')).sort();
  assert.deepEqual(names, [
    'ACTIONS',
    'ACTION_NAMES',
    'RecipeError',
    'TASK_EXTENSIONS',
    'formatDiagnostic',
    'fromYaml',
    'inputJsonSchema',
    'isActionName',
    'loadTask',
    'loadTaskOrThrow',
    'noopLogger',
    'parseRecipe',
    'taskDefSchema',
    'templateRefs',
    'toYaml',
  ]);
});
