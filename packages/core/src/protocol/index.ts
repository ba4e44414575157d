/**
 * `@toolmark/core/protocol` — bridge protocol v1: message types, a dependency-free validator,
 * safe encoding and decoding, and the JSON Schema of every message.
 */
export { PROTOCOL_VERSION } from './messages'
export type {
  MessageDirection,
  MessageBase,
  ManifestMessage,
  ResultMessage,
  ConfirmedMessage,
  ProgressMessage,
  ToAgentMessage,
  HelloMessage,
  CallMessage,
  DescribeMessage,
  CancelMessage,
  ToPageMessage,
  ProtocolMessage,
  DescribeResult,
  Transport,
} from './messages'
export { validateMessage } from './validateMessage'
export type { MessageCheck, ValidateMessageOptions } from './validateMessage'
export { decodeMessage } from './decodeMessage'
export { encodeMessage } from './encodeMessage'
export type { EncodeMessageOptions } from './encodeMessage'
export type { MessageLimits } from './bounds'
export { messageSchemas, directionSchemas } from './schemas'
