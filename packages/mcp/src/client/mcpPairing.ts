import { bridge } from '@toolmark/core/bridge'
import type { Transport } from '@toolmark/core/protocol'
import type { Consumer, Toolmark } from '@toolmark/core'
import { CloseCode, parseHandshakeReply, type HandshakeRejection } from '../handshake'
import { defaultStorage, readToken, writeToken, type TokenStorage } from './tokenStore'

/** Default port of `toolmark-mcp`'s pairing socket. */
export const DEFAULT_MCP_PORT = 17840

/**
 * Where the pairing stands:
 * `connecting` — opening the socket or waiting for the server's answer;
 * `paired` — the desktop agent sees this page's tools;
 * `rejected` — the code or stored session was refused (terminal: enter a new code);
 * `superseded` — another page paired with the server (terminal);
 * `disconnected` — the server went away; reconnecting with backoff.
 */
export type McpPairingStatus = 'connecting' | 'paired' | 'rejected' | 'superseded' | 'disconnected'

/** Why a pairing was rejected: the server's reason, or `no_code` when there was nothing to send. */
export type McpPairingRejection = HandshakeRejection | 'no_code'

/** Extra facts about a status change. */
export interface McpPairingStatusDetail {
  /** Set with `rejected`. */
  reason?: McpPairingRejection
}

/** The part of a WebSocket the pairing uses; the browser's `WebSocket` and `ws` both fit. */
export interface McpWebSocket {
  readonly readyState: number
  send(data: string): void
  close(code?: number, reason?: string): void
  addEventListener(type: string, listener: (event: any) => void): void
}

/** A WebSocket constructor (the browser's by default). */
export type McpWebSocketConstructor = new (url: string) => McpWebSocket

/** Options of `mcpPairing`. */
export interface McpPairingOptions {
  /** The one-time code shown by `toolmark-mcp`. Without it, the stored session is resumed. */
  code?: string
  /** The server's loopback port (default 17840). */
  port?: number
  /** Called on every status change. */
  onStatus?: (status: McpPairingStatus, detail: McpPairingStatusDetail) => void
  /** WebSocket constructor (default `globalThis.WebSocket`). */
  WebSocket?: McpWebSocketConstructor
  /** Where the session token is kept (default `localStorage`, else memory). */
  storage?: TokenStorage
  /** Reconnect delays after a lost connection, in ms (default 500 doubling to 30 000). */
  reconnect?: { initialMs?: number; maxMs?: number }
}

const OPEN = 1

/** Whether a session token for this port is stored, so `mcpPairing()` can resume without a code. */
export function hasMcpSession(
  port: number = DEFAULT_MCP_PORT,
  storage: TokenStorage = defaultStorage(),
): boolean {
  return readToken(storage, port) !== undefined
}

/** Forgets the stored session token for this port; the next pairing needs a new code. */
export function forgetMcpSession(
  port: number = DEFAULT_MCP_PORT,
  storage: TokenStorage = defaultStorage(),
): void {
  writeToken(storage, port, undefined)
}

/**
 * Pairs this page with a local `toolmark-mcp` server, so a desktop MCP client can call its
 * tools as caller `mcp` (confirmations appear inline in the page's `<ConfirmDialog>`).
 * The token the server hands back is stored, so a reload resumes without a new code.
 *
 * @example
 * ```ts
 * const dispose = tm.use(mcpPairing({ code: 'K7QF-2M9D', onStatus: (s) => console.log(s) }))
 * ```
 */
export function mcpPairing(options: McpPairingOptions = {}): Consumer {
  return (tm: Toolmark) => {
    const port = options.port ?? DEFAULT_MCP_PORT
    const storage = options.storage ?? defaultStorage()
    const initialDelay = options.reconnect?.initialMs ?? 500
    const maxDelay = options.reconnect?.maxMs ?? 30_000
    const Socket =
      options.WebSocket ?? (globalThis as { WebSocket?: McpWebSocketConstructor }).WebSocket
    let code = options.code?.trim() || undefined
    let delay = initialDelay
    let disposed = false
    let socket: McpWebSocket | undefined
    let timer: ReturnType<typeof setTimeout> | undefined
    let detachBridge: (() => void) | undefined
    let status: McpPairingStatus | undefined

    function report(next: McpPairingStatus, detail: McpPairingStatusDetail = {}): void {
      if (disposed || (status === next && next !== 'rejected')) return
      status = next
      try {
        options.onStatus?.(next, detail)
      } catch {}
    }

    function end(next: 'rejected' | 'superseded', detail: McpPairingStatusDetail = {}): void {
      report(next, detail)
      disposed = true
      teardown()
    }

    function teardown(): void {
      detachBridge?.()
      detachBridge = undefined
      if (timer !== undefined) clearTimeout(timer)
      timer = undefined
      const open = socket
      socket = undefined
      if (open && open.readyState <= OPEN) {
        try {
          open.close(1000, 'done')
        } catch {}
      }
    }

    function connect(): void {
      timer = undefined
      const token = readToken(storage, port)
      const hello = code
        ? { type: 'pair' as const, code }
        : token
          ? { type: 'resume' as const, token }
          : undefined
      if (!hello) return end('rejected', { reason: 'no_code' })
      if (!Socket) return end('rejected', { reason: 'invalid_handshake' })
      report('connecting')

      let ws: McpWebSocket
      try {
        ws = new Socket(`ws://127.0.0.1:${port}`)
      } catch {
        return retry()
      }
      socket = ws
      let paired = false
      const listeners = new Set<(message: unknown) => void>()
      const transport: Transport = {
        send(text) {
          if (socket === ws && ws.readyState === OPEN) ws.send(text)
        },
        onMessage(listener) {
          listeners.add(listener)
          return () => listeners.delete(listener)
        },
      }

      ws.addEventListener('open', () => {
        if (socket === ws) ws.send(JSON.stringify(hello))
      })
      ws.addEventListener('message', (event: { data: unknown }) => {
        if (socket !== ws || typeof event.data !== 'string') return
        if (paired) {
          if (event.data.startsWith('{"type":"superseded"')) return end('superseded')
          for (const listener of [...listeners]) listener(event.data)
          return
        }
        const reply = parseHandshakeReply(event.data)
        if (!reply || reply.type === 'superseded') {
          return end('rejected', { reason: 'invalid_handshake' })
        }
        if (reply.type === 'rejected') {
          if (hello.type === 'resume' && readToken(storage, port) === hello.token) {
            writeToken(storage, port, undefined)
          }
          return end('rejected', { reason: reply.reason })
        }
        paired = true
        code = undefined // single use: reconnects resume with the token
        delay = initialDelay
        writeToken(storage, port, reply.token)
        report('paired')
        detachBridge = tm.use(bridge({ transport, caller: 'mcp' }))
      })
      ws.addEventListener('close', (event: { code?: number }) => {
        if (socket !== ws) return
        socket = undefined
        detachBridge?.()
        detachBridge = undefined
        if (event.code === CloseCode.superseded) return end('superseded')
        if (event.code === CloseCode.rejected)
          return end('rejected', { reason: 'invalid_handshake' })
        retry()
      })
      // An error is always followed by a close, which decides what happens next.
      ws.addEventListener('error', () => {})
    }

    function retry(): void {
      if (disposed) return
      report('disconnected')
      timer = setTimeout(connect, delay)
      delay = Math.min(delay * 2, maxDelay)
    }

    connect()
    return () => {
      if (disposed) return
      report('disconnected')
      disposed = true
      teardown()
    }
  }
}
