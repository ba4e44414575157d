/**
 * `@toolmark/mcp/client`: the page side of `toolmark-mcp`. Browser code only (no Node imports).
 */
export { forgetMcpSession, hasMcpSession, mcpPairing } from './mcpPairing'
export { DEFAULT_MCP_PORT } from './mcpPort'
export type {
  McpPairingOptions,
  McpPairingRejection,
  McpPairingStatus,
  McpPairingStatusDetail,
  McpWebSocket,
  McpWebSocketConstructor,
} from './mcpPairing'
export { createMcpPairingObserver } from './pairingObserver'
export type {
  McpPairingObserver,
  McpPairingObserverOptions,
  McpPairingSnapshot,
  McpPairingState,
} from './pairingObserver'
export type { TokenStorage } from './tokenStore'
export type { HandshakeRejection } from '../handshake'
