'use client'
export { useFormTool } from './useFormTool'
export { useWizardTool } from './useWizardTool'
export type { UseFormToolOptions, UseFormToolResult } from './useFormTool'
export type { UseWizardToolOptions, UseWizardToolStep } from './useWizardTool'
export type {
  FieldProvenance,
  FileDescription,
  FileFieldRules,
  FileFields,
  FillResult,
  FormOption,
  FormOptionsLookup,
  FormOptionsResult,
  FormProvenance,
  FormStateResult,
  FormStep,
  FormStepState,
  FormSteps,
  FormToolNames,
  OptionLookups,
  RevertFieldOutcome,
  SkippedField,
} from '@toolmark/core/forms'
