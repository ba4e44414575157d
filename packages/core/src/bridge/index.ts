/**
 * `@toolmark/core/bridge` — serves a registry to an agent over protocol v1, and the transports
 * that carry it.
 */
export { bridge } from './bridge'
export type { BridgeOptions } from './bridge'
export { createInPageChannel } from './createInPageChannel'
export type { InPageChannel } from './createInPageChannel'
export { postMessageTransport } from './postMessageTransport'
export type {
  PostMessageTarget,
  PostMessageEventLike,
  PostMessageListenTarget,
  PostMessageTransportOptions,
} from './postMessageTransport'
export { websocketTransport } from './websocketTransport'
export type {
  WebSocketLike,
  WebSocketConstructor,
  BackoffOptions,
  WebSocketTransportOptions,
} from './websocketTransport'
export type { Transport } from '../protocol/messages'
