/**
 * `@toolmark/mcp/client`: the page side of `toolmark-mcp`. Browser code only (no Node imports).
 */
export { DEFAULT_MCP_PORT, forgetMcpSession, hasMcpSession, mcpPairing } from './mcpPairing'
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
