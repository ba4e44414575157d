export { createFormTools, createFormMemory } from './createFormTools'
export { createWizardTools } from './createWizardTools'
export { createDomFormTools } from './createDomFormTools'
export { formSteps } from './steps/formSteps'
export { optionLookups } from './fill/optionLookups'
export { fileFields } from './files/fileFields'
export { formProvenance } from './fill/formProvenance'
export type {
  FieldProvenance,
  FormProvenance,
  FormProvenanceStore,
  RevertFieldOutcome,
} from './fill/formProvenance'
export type { DomFormToolsOptions } from './createDomFormTools'
export { filePreview, isFileDescription } from './files/filePreviews'
export type { FillInput } from './fill/fillInput'
export type { FileDescription, FileFieldRules } from './values/fileValues'
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
} from './values/types'
