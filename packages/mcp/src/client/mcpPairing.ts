import { bridge } from '@toolmark/core/bridge'
import type { Transport } from '@toolmark/core/protocol'
import { reportError, type Consumer, type Toolmark } from '@toolmark/core'
import { CloseCode, type HandshakeRejection } from '../handshake'
import { hasWebCrypto } from '../handshakeCrypto'
import { describePort, pairingSocketUrl, parseMcpPort } from './mcpPort'
import { createPageHandshake, type PageSecret } from './pageHandshake'
import { defaultStorage, readToken, writeToken, type TokenStorage } from './tokenStore'

/**
 * Where the pairing stands:
 * `connecting` — opening the socket or running the handshake;
 * `paired` — the server proved it knows the secret: the desktop agent sees this page's tools;
 * `disconnected` — the connection dropped or an attempt failed; retrying with backoff;
 * `rejected` — the server refused the code or the stored session (terminal: enter a new code);
 * `superseded` — another page paired with the server (terminal);
 * `unverified` — the process on the port could not prove it is the `toolmark-mcp` that knows
 *   the code or session (terminal; it was sent nothing it could use);
 * `unreachable` — no server answered after the allowed attempts (terminal).
 */
export type McpPairingStatus =
  | 'connecting'
  | 'paired'
  | 'disconnected'
  | 'rejected'
  | 'superseded'
  | 'unverified'
  | 'unreachable'

/**
 * Why a pairing was rejected: the server's reason, `no_code` when there was nothing to send,
 * `unsupported` when this page has no WebSocket or no WebCrypto (`crypto.subtle` exists
 * only in secure contexts: https, or http on localhost), or `invalid_port` when the `port`
 * option is not a whole number from 1 to 65535 (production; development throws).
 */
export type McpPairingRejection = HandshakeRejection | 'no_code' | 'unsupported' | 'invalid_port'

/** Extra facts about a status change. */
export interface McpPairingStatusDetail {
  /** Set with `rejected`. */
  reason?: McpPairingRejection
  /**
   * Failed attempts in a row: with `disconnected` so far (0 after a paired connection
   * dropped), with `unverified` and `unreachable` in all.
   */
  attempts?: number
  /** With `disconnected`: the delay before the next attempt, in ms. */
  retryInMs?: number
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
  /**
   * The server's loopback port (default 17840): a whole number from 1 to 65535, as a number or
   * a string of digits only. Anything else throws in development and, in production, emits an
   * `invalid_port` error event and ends the pairing `rejected` (`invalid_port`), no socket opened.
   */
  port?: number | string
  /** Called on every status change. */
  onStatus?: (status: McpPairingStatus, detail: McpPairingStatusDetail) => void
  /** WebSocket constructor (default `globalThis.WebSocket`). */
  WebSocket?: McpWebSocketConstructor
  /** Where the session token is kept (default `localStorage`, else memory). */
  storage?: TokenStorage
  /**
   * Retries after a lost connection or a failed attempt: delays in ms (default 500 doubling to
   * 30 000) and failed attempts in a row before giving up (default 10).
   */
  reconnect?: { initialMs?: number; maxMs?: number; maxAttempts?: number }
  /** Time one attempt may take, from opening the socket to the server's proof (default 10 000). */
  handshakeTimeoutMs?: number
}

const OPEN = 1

/** Whether a session token for this port is stored, so `mcpPairing()` can resume without a code. */
export function hasMcpSession(
  port?: number | string,
  storage: TokenStorage = defaultStorage(),
): boolean {
  const checked = parseMcpPort(port)
  return checked !== undefined && readToken(storage, checked) !== undefined
}

/** Forgets the stored session token for this port; the next pairing needs a new code. */
export function forgetMcpSession(
  port?: number | string,
  storage: TokenStorage = defaultStorage(),
): void {
  const checked = parseMcpPort(port)
  if (checked !== undefined) writeToken(storage, checked, undefined)
}

/**
 * A `port` option that is not a port: development throws with the fix; production reports it
 * and the pairing ends `rejected` before any socket is opened.
 */
function refusePort(tm: Toolmark, options: McpPairingOptions): () => void {
  const message = `mcpPairing({ port }): ${describePort(options.port)} is not a port. Give a whole number from 1 to 65535, as a number or a string of digits (the --port of toolmark-mcp, default 17840).`
  if (tm.dev) throw new Error(`[toolmark] ${message}`)
  reportError(tm, { code: 'invalid_port', message })
  try {
    options.onStatus?.('rejected', { reason: 'invalid_port' })
  } catch {}
  return () => {}
}

/**
 * Pairs this page with a local `toolmark-mcp` server, so a desktop MCP client can call its
 * tools as caller `mcp` (confirmations appear inline in the page's `<ConfirmDialog>`).
 *
 * The code or stored session token never crosses the socket: both sides prove they know it
 * (`handshake.ts`), and the bridge attaches only to a server that proved it. The next session
 * token is derived by both sides and stored, so a reload resumes without a new code.
 *
 * Each paired connection gets a bridge of its own, so grants given to caller `mcp` end with the
 * connection: a drop, a resume, a new pairing, `superseded` or dispose — the next client paired
 * into the page is asked again.
 *
 * @example
 * ```ts
 * const dispose = tm.use(mcpPairing({ code: 'K7QF2-M9DXA', onStatus: (s) => console.log(s) }))
 * ```
 */
export function mcpPairing(options: McpPairingOptions = {}): Consumer {
  return (tm: Toolmark) => {
    const checked = parseMcpPort(options.port)
    if (checked === undefined) return refusePort(tm, options)
    const port: number = checked
    const storage = options.storage ?? defaultStorage()
    const initialDelay = options.reconnect?.initialMs ?? 500
    const maxDelay = options.reconnect?.maxMs ?? 30_000
    const maxAttempts = Math.max(1, options.reconnect?.maxAttempts ?? 10)
    const handshakeTimeoutMs = options.handshakeTimeoutMs ?? 10_000
    const Socket =
      options.WebSocket ?? (globalThis as { WebSocket?: McpWebSocketConstructor }).WebSocket
    let code = options.code?.trim() || undefined
    let delay = initialDelay
    let failures = 0
    let disposed = false
    let socket: McpWebSocket | undefined
    let timer: ReturnType<typeof setTimeout> | undefined
    let detachBridge: (() => void) | undefined
    let status: McpPairingStatus | undefined

    function report(next: McpPairingStatus, detail: McpPairingStatusDetail = {}): void {
      if (disposed) return
      if (status === next && next !== 'rejected' && next !== 'disconnected') return
      status = next
      try {
        options.onStatus?.(next, detail)
      } catch {}
    }

    function end(
      next: 'rejected' | 'superseded' | 'unverified' | 'unreachable',
      detail: McpPairingStatusDetail = {},
    ): void {
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

    /** One attempt failed: retry with backoff, or give up after `maxAttempts` in a row. */
    function failed(kind: 'unverified' | 'unreachable'): void {
      if (disposed) return
      failures++
      if (failures >= maxAttempts) return end(kind, { attempts: failures })
      schedule()
    }

    function schedule(): void {
      report('disconnected', { attempts: failures, retryInMs: delay })
      timer = setTimeout(connect, delay)
      delay = Math.min(delay * 2, maxDelay)
    }

    function connect(): void {
      timer = undefined
      const token = readToken(storage, port)
      const secret: PageSecret | undefined = code
        ? { mode: 'pair', code }
        : token
          ? { mode: 'resume', token }
          : undefined
      if (!secret) return end('rejected', { reason: 'no_code' })
      if (!Socket || !hasWebCrypto()) return end('rejected', { reason: 'unsupported' })
      report('connecting')

      let ws: McpWebSocket
      try {
        ws = new Socket(pairingSocketUrl(port))
      } catch {
        return failed('unreachable')
      }
      socket = ws
      const handshake = createPageHandshake(secret, port)
      let phase: 'opening' | 'handshake' | 'paired' = 'opening'
      let frames: Promise<void> = Promise.resolve()
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

      /** Ends this attempt without pairing: closes the socket and decides what comes next. */
      const giveUp = () => {
        if (socket !== ws) return
        socket = undefined
        try {
          ws.close(1000, 'handshake failed')
        } catch {}
        // A peer that took the code's proof without proving itself may search the code
        // offline: that code is never offered again.
        if (handshake.proofSent) return end('unverified', { attempts: failures + 1 })
        failed(phase === 'opening' ? 'unreachable' : 'unverified')
      }
      const deadline = setTimeout(giveUp, handshakeTimeoutMs)

      async function onFrame(data: string): Promise<void> {
        if (socket !== ws) return
        if (phase === 'paired') {
          if (data.startsWith('{"type":"superseded"')) return end('superseded')
          for (const listener of [...listeners]) {
            try {
              listener(data)
            } catch {}
          }
          return
        }
        const step = await handshake.receive(data)
        if (socket !== ws) return
        switch (step.kind) {
          case 'send':
            ws.send(step.frame)
            return
          case 'rejected':
            clearTimeout(deadline)
            if (secret!.mode === 'resume' && readToken(storage, port) === secret!.token) {
              if (step.reason === 'bad_token') writeToken(storage, port, undefined)
            }
            return end('rejected', { reason: step.reason })
          case 'unverified':
            clearTimeout(deadline)
            return end('unverified', { attempts: failures + 1 })
          case 'paired':
            clearTimeout(deadline)
            phase = 'paired'
            code = undefined // single use: reconnects resume with the token
            delay = initialDelay
            failures = 0
            writeToken(storage, port, step.token)
            report('paired')
            detachBridge = tm.use(bridge({ transport, caller: 'mcp' }))
        }
      }

      ws.addEventListener('open', () => {
        if (socket !== ws) return
        phase = 'handshake'
        handshake.hello().then(
          (hello) => {
            if (socket === ws && ws.readyState === OPEN) ws.send(hello)
          },
          () => giveUp(),
        )
      })
      ws.addEventListener('message', (event: { data: unknown }) => {
        if (socket !== ws || typeof event.data !== 'string') return
        const data = event.data
        // In order: frames that follow `paired` wait until the bridge is attached.
        frames = frames
          .then(() => onFrame(data))
          .catch(() => {
            // Only the handshake's own work can throw here (WebCrypto failing).
            if (phase !== 'paired') giveUp()
          })
      })
      ws.addEventListener('close', (event: { code?: number }) => {
        clearTimeout(deadline)
        if (socket !== ws) return
        if (phase === 'paired') {
          socket = undefined
          detachBridge?.()
          detachBridge = undefined
          if (event.code === CloseCode.superseded) return end('superseded')
          return schedule()
        }
        if (event.code === CloseCode.superseded) {
          socket = undefined
          return end('superseded')
        }
        if (event.code === CloseCode.rejected) {
          // The reason normally arrives first; let a frame still being handled finish.
          return void frames.then(() => {
            if (socket !== ws) return
            socket = undefined
            end('rejected', { reason: 'invalid_handshake' })
          })
        }
        giveUp()
      })
      // An error is always followed by a close, which decides what happens next.
      ws.addEventListener('error', () => {})
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
