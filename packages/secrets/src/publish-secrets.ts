/**
 * Publish resolved secret values into an environment object (the service passes
 * `process.env`), so `{{NAME}}` in recipes resolves through the environment fallback.
 * Only the given names are written; this package never touches `process.*` itself.
 *
 * @returns the names written, in order.
 * @example
 * publishSecrets(resolved.values, process.env);
 */
export function publishSecrets(
  values: Readonly<Record<string, string>>,
  targetEnv: Record<string, string | undefined>,
): string[] {
  const names = Object.keys(values);
  for (const name of names) targetEnv[name] = values[name];
  return names;
}
