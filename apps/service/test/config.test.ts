import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isLoopbackHost, readServiceConfig } from '../src/index.js';

const where = { cwd: '/srv/app', homeDir: '/home/u', platform: 'linux' };

describe('readServiceConfig', () => {
  it('applies the spec defaults', () => {
    const { config, warnings } = readServiceConfig({ DISPLAY: ':0' }, where);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.port, 8765);
    assert.equal(config.bundlePath, '/srv/app/bundle-example');
    assert.equal(config.downloadsDir, '/srv/app/build/downloads');
    assert.equal(config.recordingsDir, '/srv/app/build/downloads/recordings');
    assert.equal(config.headless, false);
    assert.equal(config.profileDir, '/home/u/.service/profiles');
    assert.equal(config.logLevel, 'info');
    assert.equal(config.maxBodyBytes, 1024 * 1024);
    assert.equal(config.taskTimeoutMs, 60_000);
    assert.equal(config.acquireTimeoutMs, 30_000);
    assert.equal(config.heartbeatMs, 15_000);
    assert.equal(config.token, undefined);
    assert.deepEqual(warnings, []);
  });

  it('reads every variable', () => {
    const { config } = readServiceConfig(
      {
        SERVICE_HOST: '0.0.0.0',
        SERVICE_PORT: '9000',
        SERVICE_BUNDLE: 'b.zip',
        SERVICE_DOWNLOADS_DIR: '/tmp/dl',
        SERVICE_HEADLESS: 'true',
        SERVICE_PROFILE_DIR: '~/p',
        SERVICE_BROWSER: '/usr/bin/chromium',
        SERVICE_TOKEN: 's3cret',
        SERVICE_LOG_LEVEL: 'debug',
        SERVICE_MAX_BODY_BYTES: '10',
        SERVICE_TASK_TIMEOUT_MS: '5000',
      },
      where,
    );
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.port, 9000);
    assert.equal(config.bundlePath, '/srv/app/b.zip');
    assert.equal(config.recordingsDir, '/tmp/dl/recordings');
    assert.equal(config.headless, true);
    assert.equal(config.profileDir, '/home/u/p');
    assert.equal(config.browserPath, '/usr/bin/chromium');
    assert.equal(config.token, 's3cret');
    assert.equal(config.logLevel, 'debug');
    assert.equal(config.maxBodyBytes, 10);
    assert.equal(config.taskTimeoutMs, 5000);
  });

  it('falls back to headless with a warning when there is no display', () => {
    const { config, warnings } = readServiceConfig({ SERVICE_HEADLESS: 'false' }, where);
    assert.equal(config.headless, true);
    assert.match(warnings[0] ?? '', /no display/);
  });

  it('rejects invalid values naming the variable', () => {
    for (const [name, value] of [
      ['SERVICE_PORT', 'http'],
      ['SERVICE_PORT', '70000'],
      ['SERVICE_HEADLESS', 'maybe'],
      ['SERVICE_LOG_LEVEL', 'loud'],
    ] as const) {
      assert.throws(
        () => readServiceConfig({ [name]: value }, where),
        (err: Error & { code?: string }) =>
          err.code === 'ERR_SERVICE_ENV' && err.message.includes(name),
      );
    }
  });

  it('tells loopback from remote bind addresses', () => {
    assert.equal(isLoopbackHost('127.0.0.1'), true);
    assert.equal(isLoopbackHost('localhost'), true);
    assert.equal(isLoopbackHost('::1'), true);
    assert.equal(isLoopbackHost('0.0.0.0'), false);
    assert.equal(isLoopbackHost('192.168.1.4'), false);
  });
});
