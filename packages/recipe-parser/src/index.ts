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
