'use client'
export { McpPairing } from './McpPairing'
export type { McpPairingLabels, McpPairingProps } from './McpPairing'
