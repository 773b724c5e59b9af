export {
  ACTIONS,
  ACTION_NAMES,
  isActionName,
  type ActionName,
  type ActionSpec,
  type BlockKind,
  type ParamSpec,
  type ParamType,
} from './actions.js';
export type {
  ExtractField,
  ExtractFieldKind,
  ExtractTransform,
  FlowValue,
  InputDef,
  InputType,
  SourcePos,
  StepDef,
  TaskDef,
  Transport,
} from './taskdef.js';
export {
  formatDiagnostic,
  type Diagnostic,
  type DiagnosticSeverity,
  type RecipeWarningCode,
} from './diagnostics.js';
export { RecipeError, type RecipeErrorCode } from './errors.js';
export { noopLogger, type Logger } from './logger.js';
export { parseRecipe, type LoadResult, type ParseOptions } from './parse-recipe.js';
export { fromYaml, toYaml } from './yaml.js';
export { loadTask, loadTaskOrThrow, TASK_EXTENSIONS } from './load-task.js';
export { taskDefSchema } from './schema.js';
export { inputJsonSchema, type InputJsonSchema } from './input-schema.js';
export { templateRefs } from './template-refs.js';
