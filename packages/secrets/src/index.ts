// Public API of @browsertask/secrets: secret declarations (schema + validation), resolution
// (env, arg, prompt, default), publication into an env object, audit lines and redaction.
export { formatAudit, type AuditEntry, type AuditSource } from './audit.js';
export {
  secretsConfigSchema,
  validateSecretsConfig,
  type SecretsConfigDiagnostic,
  type ValidateSecretsConfigResult,
} from './config-schema.js';
export { SECRET_SOURCES, type SecretDeclaration, type SecretSource } from './declaration.js';
export { SecretsError, type SecretsErrorCode, type SecretsErrorOptions } from './errors.js';
export { noopLogger, type Logger } from './logger.js';
export {
  createRedactingDestination,
  pinoRedaction,
  type LineDestination,
  type PinoRedactionOptions,
  type RedactingDestination,
} from './pino-redaction.js';
export {
  createEnquirerPrompt,
  type EnquirerPromptOptions,
  type PromptCallOptions,
  type PromptFn,
  type SecretQuestion,
} from './prompt.js';
export { publishSecrets } from './publish-secrets.js';
export { REDACTED, createRedactor, type Redactor } from './redactor.js';
export {
  resolveSecrets,
  type ResolveSecretsOptions,
  type ResolveSecretsResult,
} from './resolve-secrets.js';
