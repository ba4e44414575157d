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
 * The reconnection delay after `attempt` failed attempts, from the options' defaults:
 * `min(maxMs, initialMs × factor^attempt)`, shortened by up to `jitter` at random.
 */
function backoffDelay(options: BackoffOptions | undefined): (attempt: number) => number {
  const initialMs = options?.initialMs ?? 500
  const maxMs = options?.maxMs ?? 30_000
  const factor = options?.factor ?? 2
  const jitter = Math.min(1, Math.max(0, options?.jitter ?? 0.5))
  return (attempt) => Math.min(maxMs, initialMs * factor ** attempt) * (1 - jitter * Math.random())
}

/**
 * How the transport gets a socket: the factory, the one given socket (`single`, never
 * redialled), or a new one to `url`. Throws when there is nothing to dial with.
 */
function dialerOf(options: WebSocketTransportOptions): {
  dial: () => WebSocketLike
  single: WebSocketLike | undefined
} {
  const given = options.socket
  if (typeof given === 'function') return { dial: given, single: undefined }
  if (given) return { dial: () => given, single: given }
  if (options.url === undefined) throw new TypeError('websocketTransport: pass `url` or `socket`')
  const Ctor =
    options.WebSocket ?? (globalThis as unknown as { WebSocket?: WebSocketConstructor }).WebSocket
  if (!Ctor) {
    throw new TypeError(
      'websocketTransport: no WebSocket here; pass one, e.g. `WebSocket` from the "ws" package',
    )
  }
  const { url, protocols } = options
  return { dial: () => new Ctor(url as string | URL, protocols), single: undefined }
}

/** Calls each listener with `value`; a throwing listener is isolated, like every listener. */
function notifyEach<T>(listeners: readonly ((value: T) => void)[], value: T): void {
  for (const listener of listeners) {
    try {
      listener(value)
    } catch {
      // Isolated.
    }
  }
}

/** Messages kept while disconnected, oldest first; past `limit` the oldest is dropped. */
function createOutbox(limit: number) {
  const queue: string[] = []
  return {
    get empty() {
      return queue.length === 0
    },
    push(text: string) {
      if (limit === 0) return
      queue.push(text)
      while (queue.length > limit) queue.shift()
    },
    /**
     * Sends what is kept, in order, while the socket is open; stops at a send that throws. The
     * socket is read before every message: a send may close it.
     */
    flush(current: () => WebSocketLike | undefined) {
      let socket = current()
      while (socket && socket.readyState === OPEN && queue.length > 0) {
        try {
          socket.send(queue[0])
        } catch {
          return
        }
        queue.shift()
        socket = current()
      }
    },
    clear() {
      queue.length = 0
    },
  }
}

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
  const outbox = createOutbox(Math.max(0, options.outboxLimit ?? 256))
  const delayOf = backoffDelay(options.backoff)
  const { dial, single } = dialerOf(options)

  const listeners = new Set<(message: unknown) => void>()
  const closeListeners = new Set<() => void>()
  let socket: WebSocketLike | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let attempt = 0
  let started = false
  let closed = false

  /** Closed for good: by `close()`, or the one socket that is never redialled dropped. */
  const ended = () => {
    const notify = [...closeListeners]
    closeListeners.clear()
    notifyEach(notify, undefined)
  }

  const flush = () => outbox.flush(() => socket)

  const schedule = () => {
    if (closed || single || timer !== undefined) return
    const delay = delayOf(attempt)
    attempt++
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
      notifyEach([...listeners], data)
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
      if (socket && socket.readyState === OPEN && outbox.empty) {
        try {
          socket.send(text)
          return
        } catch {
          // Falls through to the outbox; the close event will reconnect.
        }
      }
      outbox.push(text)
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
      outbox.clear()
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
