/**
 * Variables the service publishes into the environment recipes template from, so a
 * task can reach the service itself (its static mounts) and its output directories.
 */
import type { ServiceConfig } from './config.js';

/** Names of the variables {@link publishedEnv} sets. */
export const PUBLISHED_ENV_NAMES: readonly string[] = [
  'SERVICE_BASE_URL',
  'SERVICE_DOWNLOADS_DIR',
  'SERVICE_RECORDINGS_DIR',
];

/**
 * The published variables: `SERVICE_BASE_URL` (`http://<host>:<port>` as callers on
 * this machine reach the service; a wildcard bind becomes 127.0.0.1) and the absolute
 * download and recording directories.
 */
export function publishedEnv(config: ServiceConfig, port: number): Record<string, string> {
  const wildcard = config.host === '0.0.0.0' || config.host === '::' || config.host === '[::]';
  const host = wildcard
    ? '127.0.0.1'
    : config.host.includes(':') && !config.host.startsWith('[')
      ? `[${config.host}]`
      : config.host;
  return {
    SERVICE_BASE_URL: `http://${host}:${port}`,
    SERVICE_DOWNLOADS_DIR: config.downloadsDir,
    SERVICE_RECORDINGS_DIR: config.recordingsDir,
  };
}
