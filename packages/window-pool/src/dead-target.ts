/**
 * Message fragments Playwright (and the CDP/websocket layers under it) produce when the
 * target a call was talking to is gone: renderer crash, closed page/context/browser,
 * detached target, dropped websocket (platform-notes "What Playwright surfaces on faults").
 */
const DEAD_TARGET_PATTERNS: readonly RegExp[] = [
  /target crashed/i,
  /page crashed/i,
  /tab crashed/i,
  /target page, context or browser has been closed/i,
  /target (?:has been )?closed/i,
  /browser has been closed/i,
  /browser has disconnected/i,
  /browser closed/i,
  /context (?:has been )?closed/i,
  /page (?:has been )?closed/i,
  /target (?:was )?detached/i,
  /detached from target/i,
  /session (?:closed|deleted)/i,
  /websocket(?: connection)? (?:is )?(?:closed|not open|error)/i,
  /websocket: close/i,
  /websocket closed/i,
  /connection closed/i,
];

const DEAD_TARGET_NAMES = new Set(['TargetClosedError']);

/**
 * Classifies an error from a browser call: `true` when the target (tab, context, browser or
 * the connection to it) is dead, so the window must be replaced and the run fails with
 * {@link SessionResetError}. Follows the `cause` chain. Timeouts and selector errors are
 * not dead targets.
 *
 * @param err - anything caught from a Playwright call
 */
export function isDeadTargetError(err: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = err;
  while (current !== undefined && current !== null && !seen.has(current)) {
    seen.add(current);
    if (current instanceof Error) {
      if (DEAD_TARGET_NAMES.has(current.name)) return true;
      const firstLine = current.message.split('\n', 1)[0] ?? '';
      if (DEAD_TARGET_PATTERNS.some((re) => re.test(firstLine))) return true;
      current = current.cause;
    } else if (typeof current === 'string') {
      return DEAD_TARGET_PATTERNS.some((re) => re.test(current as string));
    } else {
      return false;
    }
  }
  return false;
}
