'use client'
export { useFormTool } from './useFormTool'
export type { UseFormToolOptions } from './useFormTool'
export type {
  FillResult,
  FormOption,
  FormOptionsLookup,
  FormOptionsResult,
  FormStateResult,
  FormToolNames,
  SkippedField,
} from '@toolmark/core/forms'
