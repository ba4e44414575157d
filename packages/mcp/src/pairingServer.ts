import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type RawData, type WebSocket } from 'ws'
import {
  CloseCode,
  MAX_HANDSHAKE_BYTES,
  parseHandshakeRequest,
  type HandshakeReply,
} from './handshake'
import type { Pairing } from './pairing'

/** Largest protocol frame a paired page may send (1 MiB, the bridge's inbound bound). */
export const DEFAULT_MAX_FRAME_BYTES = 1_048_576
/** How long a new socket has to send its handshake. */
export const DEFAULT_HANDSHAKE_TIMEOUT_MS = 10_000
/** Sockets allowed to be mid-handshake at once; more are closed at once. */
const MAX_PENDING_HANDSHAKES = 16

/** A page that completed the handshake: protocol v1 text frames in both directions. */
export interface PairedPage {
  /** The page's Origin, from the allow-list. */
  readonly origin: string
  /** Sends one text frame; ignored once closed. */
  send(text: string): void
  /** Receives every text frame; returns an unsubscribe. */
  onMessage(listener: (text: string) => void): () => void
  /** Called once when the socket closes, whoever closed it. */
  onClose(listener: () => void): () => void
  /** Closes the socket. */
  close(code?: number, reason?: string): void
  readonly closed: boolean
}

/** Options of `startPairingServer`. */
export interface PairingServerOptions {
  /** Port on 127.0.0.1; 0 picks a free one. */
  port: number
  /** Exact origins allowed to open the socket. */
  allowOrigins: readonly string[]
  pairing: Pairing
  /** Called with each newly paired page, after the previous one was superseded. */
  onPaired(page: PairedPage): void
  /** Diagnostics (stderr). */
  log(line: string): void
  /** Largest frame in bytes (default 1 MiB); a larger frame closes the socket (1009). */
  maxFrameBytes?: number
  /** Time allowed for the handshake (default 10 s). */
  handshakeTimeoutMs?: number
}

/** The running loopback server. */
export interface PairingServer {
  /** The bound port. */
  readonly port: number
  /** The page currently paired, if any. */
  current(): PairedPage | undefined
  close(): Promise<void>
}

/** Why an upgrade request was turned down, or the accepted Origin. */
export type UpgradeCheck =
  { ok: true; origin: string } | { ok: false; status: 403 | 421; reason: string }

/** Whether an address is IPv4 or IPv6 loopback. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4) || address === '::1'
}

/**
 * Decides whether a WebSocket upgrade may proceed: from loopback, Host naming this server on
 * loopback (no DNS rebinding), and an Origin on the allow-list (a missing Origin is refused).
 */
export function checkUpgrade(
  request: { host?: string; origin?: string; remoteAddress?: string },
  server: { port: number; allowOrigins: readonly string[] },
): UpgradeCheck {
  if (!isLoopbackAddress(request.remoteAddress)) {
    return { ok: false, status: 403, reason: 'not from loopback' }
  }
  const host = (request.host ?? '').toLowerCase()
  if (host !== `127.0.0.1:${server.port}` && host !== `localhost:${server.port}`) {
    return { ok: false, status: 421, reason: `unexpected Host "${request.host ?? ''}"` }
  }
  if (!request.origin) return { ok: false, status: 403, reason: 'missing Origin' }
  if (!server.allowOrigins.includes(request.origin)) {
    return { ok: false, status: 403, reason: `Origin ${request.origin} is not allowed` }
  }
  return { ok: true, origin: request.origin }
}

function refuse(socket: Duplex, status: number, text: string): void {
  const body = `${text}\n`
  socket.end(
    `HTTP/1.1 ${status} ${status === 421 ? 'Misdirected Request' : status === 426 ? 'Upgrade Required' : 'Forbidden'}\r\n` +
      `Connection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  )
}

function frameText(data: RawData, isBinary: boolean): string | undefined {
  if (isBinary) return undefined
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  return Buffer.from(data as ArrayBuffer).toString('utf8')
}

function wrap(socket: WebSocket, origin: string): PairedPage {
  const messageListeners = new Set<(text: string) => void>()
  const closeListeners = new Set<() => void>()
  let closed = false

  socket.on('message', (data, isBinary) => {
    const text = frameText(data, isBinary)
    if (text === undefined) return
    for (const listener of [...messageListeners]) listener(text)
  })
  socket.once('close', () => {
    closed = true
    for (const listener of [...closeListeners]) listener()
    messageListeners.clear()
    closeListeners.clear()
  })

  return {
    origin,
    get closed() {
      return closed
    },
    send(text) {
      if (!closed && socket.readyState === socket.OPEN) socket.send(text)
    },
    onMessage(listener) {
      messageListeners.add(listener)
      return () => messageListeners.delete(listener)
    },
    onClose(listener) {
      if (closed) {
        listener()
        return () => {}
      }
      closeListeners.add(listener)
      return () => closeListeners.delete(listener)
    },
    close(code, reason) {
      if (!closed) socket.close(code, reason)
    },
  }
}

/**
 * Starts the pairing WebSocket on 127.0.0.1. Each socket must pass `checkUpgrade`, then send
 * one handshake frame (`pair` or `resume`); a success supersedes the page paired before.
 */
export async function startPairingServer(options: PairingServerOptions): Promise<PairingServer> {
  const maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES
  const handshakeTimeoutMs = options.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS
  const wss = new WebSocketServer({ noServer: true, maxPayload: maxFrameBytes })
  const http: Server = createServer((_request, response) => {
    response.writeHead(426, { 'Content-Type': 'text/plain', Connection: 'close' })
    response.end('toolmark-mcp: WebSocket only\n')
  })
  let port = options.port
  let paired: { page: PairedPage; socket: WebSocket } | undefined
  let pending = 0

  function reply(socket: WebSocket, message: HandshakeReply): void {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message))
  }

  function handshake(socket: WebSocket, origin: string): void {
    pending++
    let done = false
    const finish = () => {
      if (done) return false
      done = true
      pending--
      clearTimeout(timer)
      socket.off('message', onFirst)
      return true
    }
    const reject = (reason: Extract<HandshakeReply, { type: 'rejected' }>['reason']) => {
      reply(socket, { type: 'rejected', reason })
      socket.close(CloseCode.rejected, reason)
    }
    const timer = setTimeout(() => {
      if (finish()) reject('handshake_timeout')
    }, handshakeTimeoutMs)
    socket.once('close', () => finish())

    function onFirst(data: RawData, isBinary: boolean) {
      if (!finish()) return
      const text = frameText(data, isBinary)
      const request =
        text !== undefined && Buffer.byteLength(text) <= MAX_HANDSHAKE_BYTES
          ? parseHandshakeRequest(text)
          : undefined
      if (!request) {
        options.log('toolmark-mcp: dropped a socket with an invalid handshake')
        reject('invalid_handshake')
        return
      }
      const outcome =
        request.type === 'pair'
          ? options.pairing.pair(request.code)
          : options.pairing.resume(request.token)
      if (!outcome.ok) {
        options.log(
          `toolmark-mcp: ${request.type} from ${origin} rejected (${outcome.reason}${outcome.rotated ? '; the code was replaced' : ''})`,
        )
        reject(outcome.reason)
        return
      }
      const previous = paired
      const page = wrap(socket, origin)
      paired = { page, socket }
      page.onClose(() => {
        if (paired?.page === page) paired = undefined
      })
      if (previous && !previous.page.closed) {
        reply(previous.socket, { type: 'superseded' })
        previous.page.close(CloseCode.superseded, 'superseded')
      }
      reply(socket, { type: 'paired', token: outcome.token })
      options.log(
        `toolmark-mcp: page at ${origin} ${request.type === 'pair' ? 'paired' : 'resumed'}`,
      )
      options.onPaired(page)
    }
    socket.on('message', onFirst)
  }

  http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => {})
    const check = checkUpgrade(
      {
        host: request.headers.host,
        origin: request.headers.origin,
        remoteAddress: request.socket.remoteAddress,
      },
      { port, allowOrigins: options.allowOrigins },
    )
    if (!check.ok) {
      options.log(`toolmark-mcp: refused a WebSocket upgrade: ${check.reason}`)
      refuse(socket, check.status, check.reason)
      return
    }
    if (pending >= MAX_PENDING_HANDSHAKES) {
      refuse(socket, 403, 'too many pending handshakes')
      return
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      // Oversized frames make ws close with 1009 and emit an error; nothing else to do.
      ws.on('error', () => {})
      handshake(ws, check.origin)
    })
  })

  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => reject(error)
    http.once('error', onError)
    http.listen(options.port, '127.0.0.1', () => {
      http.off('error', onError)
      const address = http.address()
      if (address && typeof address === 'object') port = address.port
      resolve()
    })
  })
  http.on('error', (error) => options.log(`toolmark-mcp: pairing server error: ${error.message}`))

  return {
    get port() {
      return port
    },
    current: () => paired?.page,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate()
        wss.close()
        http.close(() => resolve())
        http.closeAllConnections()
      }),
  }
}
