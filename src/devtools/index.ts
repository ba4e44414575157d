'use client'
export { ToolmarkDevtools, ToolmarkDevtoolsInProduction } from './ToolmarkDevtools'
export type { ToolmarkDevtoolsProps } from './ToolmarkDevtools'
