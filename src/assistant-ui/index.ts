'use client'
export { useToolmarkAssistantTools } from './useToolmarkAssistantTools'
export type { UseToolmarkAssistantToolsOptions } from './useToolmarkAssistantTools'
export { useToolmarkSendAutomaticallyWhen } from './useToolmarkSendAutomaticallyWhen'
export type {
  AutoSendMessage,
  SendAutomaticallyWhen,
  UseToolmarkSendAutomaticallyWhenOptions,
} from './useToolmarkSendAutomaticallyWhen'
