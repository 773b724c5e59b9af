import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { SECRET_SOURCES, type SecretDeclaration, type SecretSource } from './declaration.js';

const ENV_NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_]*$';

/**
 * JSON Schema (draft-07) of a bundle's `secrets` config file (`secrets.yaml`, `.yml`, `.json`
 * or no extension). An empty file (`null`) and a missing `secrets` key mean "no secrets".
 * Scalar `default`/`description` values that YAML reads as numbers or booleans are accepted
 * and turned into strings, as webtasks does.
 */
export const secretsConfigSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'browsertask secrets config',
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    secrets: {
      type: ['array', 'null'],
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name'],
        properties: {
          name: {
            type: 'string',
            pattern: ENV_NAME_PATTERN,
            description: 'Environment variable name; also the {{name}} token in recipes.',
          },
          description: {
            type: ['string', 'number', 'boolean'],
            description: 'Shown in the interactive prompt.',
          },
          required: { type: 'boolean', default: false },
          sensitive: { type: 'boolean', default: false },
          default: { type: ['string', 'number', 'boolean'], default: '' },
          sources: {
            type: 'array',
            items: { enum: [...SECRET_SOURCES] },
            uniqueItems: true,
            default: [...SECRET_SOURCES],
          },
        },
      },
    },
  },
} as const;

/** One problem found in a secrets config: where (JSON Pointer, `""` = the document) and what. */
export interface SecretsConfigDiagnostic {
  /** JSON Pointer into the parsed document, e.g. `/secrets/0/name`; `""` is the whole document. */
  path: string;
  /** What is wrong and what was expected. */
  message: string;
}

/** Result of {@link validateSecretsConfig}: the normalised declarations or every problem found. */
export type ValidateSecretsConfigResult =
  { ok: true; value: SecretDeclaration[] } | { ok: false; diagnostics: SecretsConfigDiagnostic[] };

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  // Compiled lazily so importing the package costs nothing (sideEffects: false).
  compiled ??= new Ajv({
    allErrors: true,
    strict: true,
    allowUnionTypes: true,
    verbose: true,
  }).compile(secretsConfigSchema);
  return compiled;
}

const YAML_TYPE_NAMES: Record<string, string> = {
  object: 'a mapping',
  array: 'a list',
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  null: 'empty',
};

function describeTypes(type: unknown): string {
  const types = Array.isArray(type) ? (type as string[]) : [String(type)];
  return types.map((t) => YAML_TYPE_NAMES[t] ?? t).join(' or ');
}

function describeValue(data: unknown): string {
  if (data === null) return 'null';
  if (Array.isArray(data)) return 'a list';
  if (typeof data === 'object') return 'a mapping';
  return JSON.stringify(data);
}

function toDiagnostic(error: ErrorObject): SecretsConfigDiagnostic {
  const path = error.instancePath;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { path, message: `missing required field "${String(params.missingProperty)}"` };
    case 'additionalProperties': {
      const field = String(params.additionalProperty);
      const allowed =
        path === '' ? 'secrets' : 'name, description, required, sensitive, default, sources';
      return {
        path: `${path}/${field.replaceAll('~', '~0').replaceAll('/', '~1')}`,
        message: `unknown field "${field}" (allowed: ${allowed})`,
      };
    }
    case 'type':
      return {
        path,
        message: `must be ${describeTypes(params.type)}, got ${describeValue(error.data)}`,
      };
    case 'pattern':
      return {
        path,
        message: `${JSON.stringify(error.data)} is not a valid environment variable name (letters, digits and _, not starting with a digit)`,
      };
    case 'enum':
      return {
        path,
        message: `unknown source ${JSON.stringify(error.data)}; expected one of ${SECRET_SOURCES.join(', ')}`,
      };
    case 'uniqueItems':
      return {
        path,
        message: `source listed twice (items ${String(params.j)} and ${String(params.i)})`,
      };
    default:
      return { path, message: error.message ?? `fails ${error.keyword}` };
  }
}

interface RawSecret {
  name: string;
  description?: string | number | boolean;
  required?: boolean;
  sensitive?: boolean;
  default?: string | number | boolean;
  sources?: SecretSource[];
}

/**
 * Validate a parsed `secrets` config file (YAML or JSON already parsed) and apply defaults
 * (`required: false`, `sensitive: false`, `default: ""`, `sources: ["env","arg","prompt"]`).
 * Reports every problem at once; never throws. The input is not modified.
 *
 * @example
 * const result = validateSecretsConfig(YAML.parse(text));
 * if (!result.ok) for (const d of result.diagnostics) console.error(`secrets.yaml: ${d.path}: ${d.message}`);
 */
export function validateSecretsConfig(data: unknown): ValidateSecretsConfigResult {
  const validate = validator();
  if (!validate(data)) {
    const diagnostics = (validate.errors ?? []).map(toDiagnostic);
    return { ok: false, diagnostics: dedupe(diagnostics) };
  }
  const raw: RawSecret[] = (data as { secrets?: RawSecret[] | null } | null)?.secrets ?? [];
  const diagnostics: SecretsConfigDiagnostic[] = [];
  const firstIndex = new Map<string, number>();
  const value = raw.map((secret, index): SecretDeclaration => {
    const first = firstIndex.get(secret.name);
    if (first === undefined) firstIndex.set(secret.name, index);
    else
      diagnostics.push({
        path: `/secrets/${index}/name`,
        message: `duplicate secret "${secret.name}" (first declared at /secrets/${first})`,
      });
    return {
      name: secret.name,
      description: secret.description === undefined ? '' : String(secret.description),
      required: secret.required ?? false,
      sensitive: secret.sensitive ?? false,
      default: secret.default === undefined ? '' : String(secret.default),
      sources: [...(secret.sources ?? SECRET_SOURCES)],
    };
  });
  if (diagnostics.length > 0) return { ok: false, diagnostics };
  return { ok: true, value };
}

function dedupe(diagnostics: SecretsConfigDiagnostic[]): SecretsConfigDiagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = `${d.path}\0${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
