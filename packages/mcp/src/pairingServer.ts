import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import { acceptHandshake, type HandshakeContext, type PendingHandshake } from './acceptHandshake'
import { CloseCode, type Transcript } from './handshake'
import type { Pairing } from './pairing'
import { closeSoon, frameText, reply } from './socketFrames'
import { createThrottledLog } from './throttledLog'

/** Largest protocol frame a paired page may send (1 MiB, the bridge's inbound bound). */
export const DEFAULT_MAX_FRAME_BYTES = 1_048_576
/** How long a new socket has to complete the handshake. */
export const DEFAULT_HANDSHAKE_TIMEOUT_MS = 5_000
/** Sockets allowed to be mid-handshake at once; past it, a new socket pushes out the stalest. */
export const DEFAULT_MAX_PENDING_HANDSHAKES = 256
/**
 * How long a challenged socket is given to answer before it may be pushed out under load: more
 * than a slow device needs to derive the code's key (PBKDF2) and prove it.
 */
export const DEFAULT_PROOF_WINDOW_MS = 3_000
/** Close code for a socket turned away because every handshake slot holds a page still in time. */
export const BUSY_CLOSE_CODE = 1013
/** How long a wrong code or token waits for its answer, holding its socket. */
export const DEFAULT_FAILURE_DELAY_MS = 1_000

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
  /** Time allowed for the whole handshake (default 5 s). */
  handshakeTimeoutMs?: number
  /** Sockets mid-handshake at once (default 256); past it the stalest is dropped. */
  maxPendingHandshakes?: number
  /** Delay before a wrong code or token is answered (default 1 s). */
  failureDelayMs?: number
  /**
   * How long a challenged socket is protected from being pushed out while it derives its proof
   * (default 3 s). A socket that answers within it is never pushed out.
   */
  proofWindowMs?: number
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
 * Makes room for a new socket by pushing out the stalest pending one: failed first, then silent,
 * then one challenged at least `proofWindowMs` ago. `false` when every slot holds a socket still
 * within its proof window (or being checked), which is never pushed out.
 */
function pushOutStalest(pending: ReadonlySet<PendingHandshake>, proofWindowMs: number): boolean {
  const order = [...pending]
  const now = performance.now()
  const victim =
    order.find((entry) => entry.phase === 'failed') ??
    order.find((entry) => entry.phase === 'hello') ??
    order.find(
      (entry) =>
        entry.phase === 'challenged' &&
        entry.challengedAt !== undefined &&
        now - entry.challengedAt >= proofWindowMs,
    )
  if (!victim) return false
  victim.drop()
  return true
}

/** The HTTP side: plain requests are told to upgrade, and slow headers are cut as handshakes are. */
function createUpgradeOnlyServer(handshakeTimeoutMs: number): Server {
  return createServer(
    // Requests that never finish their headers are cut too, not only WebSocket handshakes.
    {
      headersTimeout: handshakeTimeoutMs,
      requestTimeout: handshakeTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, handshakeTimeoutMs),
    },
    (_request, response) => {
      response.writeHead(426, { 'Content-Type': 'text/plain', Connection: 'close' })
      response.end('toolmark-mcp: WebSocket only\n')
    },
  )
}

/** Listens on 127.0.0.1 and resolves with the bound port (`port` unless it was 0). */
function listenOnLoopback(http: Server, port: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const onError = (error: Error) => reject(error)
    http.once('error', onError)
    http.listen(port, '127.0.0.1', () => {
      http.off('error', onError)
      const address = http.address()
      resolve(address && typeof address === 'object' ? address.port : port)
    })
  })
}

/**
 * Starts the pairing WebSocket on 127.0.0.1. Each socket must pass `checkUpgrade`, then
 * complete the challenge–response handshake (`handshake.ts`) within `handshakeTimeoutMs`; a
 * success supersedes the page paired before.
 *
 * Nothing a local process does can keep the real page out: idle sockets time out, and when
 * `maxPendingHandshakes` are pending a new socket pushes out the stalest one: failed first, then
 * silent, then one challenged longer ago than `proofWindowMs` that has not answered. A socket
 * still within its proof window, or whose proof is being checked, is never pushed out: while every
 * slot holds one, the new socket is turned away (closed 1013) and the page's client tries again.
 * Wrong codes are answered late and never replace the code.
 */
export async function startPairingServer(options: PairingServerOptions): Promise<PairingServer> {
  const maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES
  const handshakeTimeoutMs = options.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS
  const maxPending = Math.max(1, options.maxPendingHandshakes ?? DEFAULT_MAX_PENDING_HANDSHAKES)
  const proofWindowMs = options.proofWindowMs ?? DEFAULT_PROOF_WINDOW_MS
  const wss = new WebSocketServer({ noServer: true, maxPayload: maxFrameBytes })
  const http = createUpgradeOnlyServer(handshakeTimeoutMs)
  let port = options.port
  let paired: { page: PairedPage; socket: WebSocket } | undefined
  const pending = new Set<PendingHandshake>()
  const refusals = createThrottledLog(options.log, {
    summary: (n, ms) =>
      `toolmark-mcp: ${n} more pairing attempts refused in the last ${ms / 1000} s (the code shown stays valid)`,
  })
  const upgrades = createThrottledLog(options.log, {
    summary: (n, ms) =>
      `toolmark-mcp: ${n} more WebSocket upgrades refused in the last ${ms / 1000} s`,
  })

  function promote(socket: WebSocket, origin: string, transcript: Transcript, proof?: string) {
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
    reply(socket, proof === undefined ? { type: 'paired' } : { type: 'paired', proof })
    options.log(
      `toolmark-mcp: page at ${origin} ${transcript.mode === 'pair' ? 'paired' : 'resumed'}`,
    )
    options.onPaired(page)
  }

  // Read by every socket's handshake; the port is read late, as it is known once listening.
  const handshakes: HandshakeContext = {
    port: () => port,
    pairing: options.pairing,
    handshakeTimeoutMs,
    failureDelayMs: options.failureDelayMs ?? DEFAULT_FAILURE_DELAY_MS,
    pending,
    refusals,
    promote,
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
      upgrades.note(`toolmark-mcp: refused a WebSocket upgrade: ${check.reason}`)
      refuse(socket, check.status, check.reason)
      return
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      // Oversized frames make ws close with 1009 and emit an error; nothing else to do.
      ws.on('error', () => {})
      if (pending.size >= maxPending && !pushOutStalest(pending, proofWindowMs)) {
        upgrades.note('toolmark-mcp: turned a socket away: every handshake slot is in use')
        closeSoon(ws, BUSY_CLOSE_CODE, 'busy')
        return
      }
      acceptHandshake(ws, check.origin, handshakes)
    })
  })

  port = await listenOnLoopback(http, options.port)
  http.on('error', (error) => options.log(`toolmark-mcp: pairing server error: ${error.message}`))

  return {
    get port() {
      return port
    },
    current: () => paired?.page,
    close: () =>
      new Promise<void>((resolve) => {
        for (const entry of [...pending]) entry.drop()
        refusals.flush()
        upgrades.flush()
        for (const client of wss.clients) client.terminate()
        wss.close()
        http.close(() => resolve())
        http.closeAllConnections()
      }),
  }
}
