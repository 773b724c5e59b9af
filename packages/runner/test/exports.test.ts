// The public API is deliberate: a change here must be a conscious one.
import assert from 'node:assert/strict';
import { it } from 'node:test';

it('exports exactly the documented names', async () => {
  const names = Object.keys(await import('../src/index.js')).sort();
  assert.deepEqual(names, [
    'ACTION_IMPLS',
    'CollectingPublisher',
    'Deadline',
    'Runner',
    'RunnerError',
    'SESSION_RESET_MESSAGE',
    'bindInputs',
    'cleanBundlePath',
    'coerceParam',
    'coerceParams',
    'createRecorder',
    'createTaskRegistry',
    'executeFlow',
    'executeStep',
    'isDeadTarget',
    'isRunnerError',
    'isTimeoutError',
    'lookupName',
    'noopLogger',
    'noopPublisher',
    'renderRecords',
    'renderReturnValue',
    'renderString',
    'renderValue',
    'resolveSafePath',
    'runRecordingsDir',
    'stringifyValue',
    'toSseEvent',
  ]);
});
