'use client'
export { useFormTool } from './useFormTool'
export { useWizardTool } from './useWizardTool'
export type { UseFormToolOptions, UseFormToolResult } from './useFormTool'
export type { UseWizardToolOptions, UseWizardToolStep } from './useWizardTool'
export type {
  FileDescription,
  FileFieldRules,
  FillResult,
  FormOption,
  FormOptionsLookup,
  FormOptionsResult,
  FormStateResult,
  FormStep,
  FormStepState,
  FormToolNames,
  SkippedField,
} from '@toolmark/core/forms'
