/** Launcher flags of the form `--NAME=value`, last occurrence winning; stops at `--`. */
export function secretFlags(argv: readonly string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (const arg of argv) {
    if (arg === '--') break;
    if (!arg.startsWith('--')) continue;
    const eq = arg.indexOf('=');
    if (eq <= 2) continue;
    flags.set(arg.slice(2, eq), arg.slice(eq + 1));
  }
  return flags;
}

/** Names given as a bare `--NAME` (no `=`), used to hint at the supported `--NAME=value` form. */
export function bareFlags(argv: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const arg of argv) {
    if (arg === '--') break;
    if (arg.startsWith('--') && arg.length > 2 && !arg.includes('=')) names.add(arg.slice(2));
  }
  return names;
}
