/** Where a secret's value came from; `unresolved` = no source nor a non-empty default. */
export type AuditSource = 'env' | 'arg' | 'prompt' | 'default' | 'unresolved';

/** One line of the start-up audit: which source resolved a secret (value only if not sensitive). */
export interface AuditEntry {
  /** The secret's name. */
  name: string;
  /** Where its value came from. */
  source: AuditSource;
  /** Whether the secret is declared `sensitive` (then `value` is absent). */
  sensitive: boolean;
  /** The resolved value; present only for non-sensitive, resolved secrets. */
  value?: string;
}

/**
 * One human-readable log line for an audit entry, e.g. `SHOP_USER from arg = "alice"`,
 * `SHOP_PASSWORD from env (sensitive, value hidden)`, `API_KEY unresolved`.
 * Never contains the value of a sensitive secret.
 */
export function formatAudit(entry: AuditEntry): string {
  if (entry.source === 'unresolved') return `${entry.name} unresolved`;
  const head = `${entry.name} from ${entry.source}`;
  if (entry.sensitive || entry.value === undefined) return `${head} (sensitive, value hidden)`;
  return `${head} = ${JSON.stringify(entry.value)}`;
}
