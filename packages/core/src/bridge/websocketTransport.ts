import { DEFAULT_MESSAGE_LIMITS, utf8Length } from '../protocol/bounds'
import type { Transport } from '../protocol/messages'

/** The part of the WebSocket API the transport uses (the browser's, or `ws` in Node). */
export interface WebSocketLike {
  readonly readyState: number
  send(data: string): void
  close(code?: number, reason?: string): void
  addEventListener(
    type: 'open' | 'message' | 'close' | 'error',
    listener: (event: any) => void,
  ): void
  removeEventListener(
    type: 'open' | 'message' | 'close' | 'error',
    listener: (event: any) => void,
  ): void
}

/** A WebSocket constructor: `globalThis.WebSocket`, or `WebSocket` from the `ws` package. */
export type WebSocketConstructor = new (
  url: string | URL,
  protocols?: string | string[],
) => WebSocketLike

/** Reconnection delays: `min(maxMs, initialMs × factor^attempt)`, shortened by up to `jitter`. */
export interface BackoffOptions {
  /** First delay in ms. Default 500. */
  initialMs?: number
  /** Longest delay in ms. Default 30 000. */
  maxMs?: number
  /** Growth per failed attempt. Default 2. */
  factor?: number
  /** Fraction of each delay left to chance, 0–1. Default 0.5. */
  jitter?: number
}

/** Options of `websocketTransport`. */
export interface WebSocketTransportOptions {
  /** The server to dial (reconnects with backoff). */
  url?: string | URL
  /** Sub-protocols offered on connect. */
  protocols?: string | string[]
  /** The constructor to dial with. Default `globalThis.WebSocket` (pass `ws`'s in Node 20). */
  WebSocket?: WebSocketConstructor
  /**
   * Instead of `url`: a factory called for every (re)connection, or one socket that is already
   * open or opening (a server's accepted connection), which is never redialled.
   */
  socket?: WebSocketLike | (() => WebSocketLike)
  /** Largest inbound text frame in UTF-8 bytes; larger ones are dropped. Default 16 MiB. */
  maxMessageBytes?: number
  /** Messages kept while disconnected; the oldest is dropped past it. Default 256. */
  outboxLimit?: number
  backoff?: BackoffOptions
}

const OPEN = 1

/**
 * A transport over one WebSocket: one message per JSON text frame. It dials on first use,
 * reconnects with exponential backoff and jitter after a drop, keeps a bounded outbox while
 * disconnected (the oldest message goes first when it is full) and drops binary or oversized
 * inbound frames. `close()` is final: no reconnection, nothing sent afterwards. Throws at once
 * when given neither `url` nor `socket`, or no WebSocket constructor exists.
 *
 * @example
 * tm.use(bridge({ transport: websocketTransport({ url: 'wss://app.example.com/agent' }) }))
 */
export function websocketTransport(options: WebSocketTransportOptions): Transport {
  const maxBytes = options.maxMessageBytes ?? DEFAULT_MESSAGE_LIMITS.toAgent.maxBytes
  const outboxLimit = Math.max(0, options.outboxLimit ?? 256)
  const backoff = {
    initialMs: options.backoff?.initialMs ?? 500,
    maxMs: options.backoff?.maxMs ?? 30_000,
    factor: options.backoff?.factor ?? 2,
    jitter: Math.min(1, Math.max(0, options.backoff?.jitter ?? 0.5)),
  }
  const given = options.socket
  const single = given !== undefined && typeof given !== 'function' ? given : undefined
  let dial: () => WebSocketLike
  if (typeof given === 'function') dial = given
  else if (single) dial = () => single
  else if (options.url !== undefined) {
    const Ctor =
      options.WebSocket ?? (globalThis as unknown as { WebSocket?: WebSocketConstructor }).WebSocket
    if (!Ctor) {
      throw new TypeError(
        'websocketTransport: no WebSocket here; pass one, e.g. `WebSocket` from the "ws" package',
      )
    }
    const { url, protocols } = options
    dial = () => new Ctor(url as string | URL, protocols)
  } else {
    throw new TypeError('websocketTransport: pass `url` or `socket`')
  }

  const listeners = new Set<(message: unknown) => void>()
  const closeListeners = new Set<() => void>()
  const outbox: string[] = []
  let socket: WebSocketLike | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let attempt = 0
  let started = false
  let closed = false

  const deliver = (text: string) => {
    for (const listener of [...listeners]) {
      try {
        listener(text)
      } catch {
        // Isolated, like every listener.
      }
    }
  }

  /** Closed for good: by `close()`, or the one socket that is never redialled dropped. */
  const ended = () => {
    const notify = [...closeListeners]
    closeListeners.clear()
    for (const listener of notify) {
      try {
        listener()
      } catch {
        // Isolated.
      }
    }
  }

  const flush = () => {
    while (socket && socket.readyState === OPEN && outbox.length > 0) {
      const text = outbox[0]
      try {
        socket.send(text)
      } catch {
        return
      }
      outbox.shift()
    }
  }

  const enqueue = (text: string) => {
    if (outboxLimit === 0) return
    outbox.push(text)
    while (outbox.length > outboxLimit) outbox.shift()
  }

  const schedule = () => {
    if (closed || single || timer !== undefined) return
    const base = Math.min(backoff.maxMs, backoff.initialMs * backoff.factor ** attempt)
    attempt++
    const delay = base * (1 - backoff.jitter * Math.random())
    timer = setTimeout(() => {
      timer = undefined
      connect()
    }, delay)
  }

  const connect = () => {
    if (closed) return
    let current: WebSocketLike
    try {
      current = dial()
    } catch {
      schedule()
      return
    }
    socket = current
    const onOpen = () => {
      attempt = 0
      flush()
    }
    const onMessage = (event: { data: unknown }) => {
      if (closed || socket !== current) return
      const data = event.data
      // Binary frames and frames past the limit never reach a listener.
      if (typeof data !== 'string' || data.length > maxBytes) return
      if (utf8Length(data, maxBytes) > maxBytes) return
      deliver(data)
    }
    // `ws` throws an 'error' nobody listens to; the 'close' that follows does the work.
    const onError = () => {}
    const onClose = () => {
      current.removeEventListener('open', onOpen)
      current.removeEventListener('message', onMessage)
      current.removeEventListener('close', onClose)
      if (socket === current) socket = undefined
      if (single && !closed) {
        closed = true
        listeners.clear()
        ended()
        return
      }
      schedule()
    }
    current.addEventListener('open', onOpen)
    current.addEventListener('message', onMessage)
    current.addEventListener('close', onClose)
    current.addEventListener('error', onError)
    if (current.readyState === OPEN) onOpen()
  }

  const start = () => {
    if (started || closed) return
    started = true
    connect()
  }

  return {
    send(text) {
      if (closed) return
      start()
      if (socket && socket.readyState === OPEN && outbox.length === 0) {
        try {
          socket.send(text)
          return
        } catch {
          // Falls through to the outbox; the close event will reconnect.
        }
      }
      enqueue(text)
      flush()
    },
    onMessage(listener) {
      if (closed) return () => {}
      const entry = (message: unknown) => listener(message)
      listeners.add(entry)
      start()
      return () => {
        listeners.delete(entry)
      }
    },
    onClose(listener) {
      if (closed) return () => {}
      const entry = () => listener()
      closeListeners.add(entry)
      return () => {
        closeListeners.delete(entry)
      }
    },
    close() {
      if (closed) return
      closed = true
      if (timer !== undefined) clearTimeout(timer)
      timer = undefined
      outbox.length = 0
      listeners.clear()
      const current = socket
      socket = undefined
      try {
        current?.close(1000, 'closed')
      } catch {
        // Already closing.
      }
      ended()
    },
  }
}
