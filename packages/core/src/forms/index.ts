export { createFormTools, createFormMemory } from './createFormTools'
export { isSensitiveElement } from './sensitiveFields'
export type { FillInput } from './fillInput'
export type {
  FillResult,
  FormAdapter,
  FormField,
  FormMemory,
  FormOption,
  FormOptionsLookup,
  FormOptionsResult,
  FormStateResult,
  FormSubmitOutcome,
  FormToolNames,
  FormTools,
  FormToolsOptions,
  FormWriteSource,
  SkippedField,
} from './types'
