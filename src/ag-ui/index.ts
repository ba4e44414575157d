'use client'
export { useAgUiSession } from './useAgUiSession'
export type { UseAgUiSessionOptions, UseAgUiSessionResult } from './useAgUiSession'
