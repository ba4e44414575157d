'use client'
export { useToolmarkAssistantTools } from './useToolmarkAssistantTools'
export type { UseToolmarkAssistantToolsOptions } from './useToolmarkAssistantTools'
