'use client'
export { ToolmarkDevtools } from './ToolmarkDevtools'
export type { ToolmarkDevtoolsProps } from './ToolmarkDevtools'
