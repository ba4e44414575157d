export { createFormTools, createFormMemory } from './createFormTools'
export { createWizardTools } from './createWizardTools'
export { createDomFormTools } from './createDomFormTools'
export { formSteps } from './formSteps'
export { optionLookups } from './optionLookups'
export { fileFields } from './fileFields'
export { formProvenance } from './formProvenance'
export type {
  FieldProvenance,
  FormProvenance,
  FormProvenanceStore,
  RevertFieldOutcome,
} from './formProvenance'
export type { DomFormToolsOptions } from './createDomFormTools'
export { isSensitiveElement } from './sensitiveFields'
export { filePreview, isFileDescription } from './filePreviews'
export type { FillInput } from './fillInput'
export type { FileDescription, FileFieldRules } from './fileValues'
export type {
  FileFields,
  FillResult,
  FormAdapter,
  FormField,
  FormMemory,
  FormOption,
  FormOptionsLookup,
  FormOptionsResult,
  FormStateResult,
  FormStep,
  FormStepState,
  FormSteps,
  FormSubmitOutcome,
  FormToolNames,
  FormTools,
  FormToolsOptions,
  FormWriteSource,
  OptionLookups,
  SkippedField,
  WizardStep,
  WizardToolsOptions,
} from './types'
