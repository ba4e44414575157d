import type { RawData, WebSocket } from 'ws'
import type { HandshakeReply } from './handshake'

/** How long a closing socket may take to answer the close frame before it is cut. */
const CLOSE_GRACE_MS = 1_000

/** The text of a text frame; undefined for a binary one, which the protocol never sends. */
export function frameText(data: RawData, isBinary: boolean): string | undefined {
  if (isBinary) return undefined
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  return Buffer.from(data as ArrayBuffer).toString('utf8')
}

/** Sends one handshake frame, unless the socket is no longer open. */
export function reply(socket: WebSocket, message: HandshakeReply | { type: 'superseded' }): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message))
}

/** Closes a socket, and cuts it if the peer does not answer the close frame in time. */
export function closeSoon(socket: WebSocket, code: number, reason: string): void {
  socket.close(code, reason)
  // A peer that never answers the close frame must not hold the socket for ws's 30 s.
  setTimeout(() => socket.terminate(), CLOSE_GRACE_MS).unref()
}
