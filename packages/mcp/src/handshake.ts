/**
 * The pairing handshake: the first messages on the loopback WebSocket, before protocol v1.
 * Shared by the server and the page, so it imports nothing (no Node, no DOM).
 */

/** Page → server: pair with a typed code, or resume with a session token. */
export type HandshakeRequest = { type: 'pair'; code: string } | { type: 'resume'; token: string }

/** Why the server turned a handshake down. */
export type HandshakeRejection =
  'bad_code' | 'expired_code' | 'bad_token' | 'invalid_handshake' | 'handshake_timeout'

/** Server → page. */
export type HandshakeReply =
  | { type: 'paired'; token: string }
  | { type: 'rejected'; reason: HandshakeRejection }
  | { type: 'superseded' }

/** Close codes the server uses, so the page knows whether to reconnect. */
export const CloseCode = {
  /** A newer pairing took over: terminal, never reconnect. */
  superseded: 4001,
  /** The handshake failed: terminal for this attempt. */
  rejected: 4003,
} as const

/** Largest handshake frame either side accepts, in bytes. */
export const MAX_HANDSHAKE_BYTES = 4096

const REJECTIONS: readonly string[] = [
  'bad_code',
  'expired_code',
  'bad_token',
  'invalid_handshake',
  'handshake_timeout',
]

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function parse(text: unknown): Record<string, unknown> | undefined {
  if (typeof text !== 'string' || text.length > MAX_HANDSHAKE_BYTES) return undefined
  try {
    const value: unknown = JSON.parse(text)
    return isRecord(value) ? value : undefined
  } catch {
    return undefined
  }
}

const keys = (value: Record<string, unknown>) => Object.keys(value).sort().join(',')

/** Parses a page's handshake frame strictly; anything else is `undefined`. */
export function parseHandshakeRequest(text: unknown): HandshakeRequest | undefined {
  const value = parse(text)
  if (!value) return undefined
  if (value.type === 'pair' && keys(value) === 'code,type' && typeof value.code === 'string') {
    return value.code.length > 0 && value.code.length <= 64
      ? { type: 'pair', code: value.code }
      : undefined
  }
  if (value.type === 'resume' && keys(value) === 'token,type' && typeof value.token === 'string') {
    return value.token.length > 0 && value.token.length <= 256
      ? { type: 'resume', token: value.token }
      : undefined
  }
  return undefined
}

/** Parses the server's handshake reply strictly; anything else is `undefined`. */
export function parseHandshakeReply(text: unknown): HandshakeReply | undefined {
  const value = parse(text)
  if (!value) return undefined
  if (value.type === 'paired' && typeof value.token === 'string' && value.token.length > 0) {
    return { type: 'paired', token: value.token }
  }
  if (
    value.type === 'rejected' &&
    typeof value.reason === 'string' &&
    REJECTIONS.includes(value.reason)
  ) {
    return { type: 'rejected', reason: value.reason as HandshakeRejection }
  }
  if (value.type === 'superseded') return { type: 'superseded' }
  return undefined
}
