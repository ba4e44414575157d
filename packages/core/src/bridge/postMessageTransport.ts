import type { Transport } from '../protocol/messages'

/** Anything with `postMessage(message, targetOrigin)`: a `Window`, an iframe's `contentWindow`. */
export interface PostMessageTarget {
  postMessage(message: unknown, targetOrigin: string): void
}

/** The fields of a `MessageEvent` the transport reads. */
export interface PostMessageEventLike {
  readonly data: unknown
  readonly origin: string
  readonly source: unknown
}

/** Where `message` events arrive: the current window. */
export interface PostMessageListenTarget {
  addEventListener(type: 'message', listener: (event: PostMessageEventLike) => void): void
  removeEventListener(type: 'message', listener: (event: PostMessageEventLike) => void): void
}

/** Options of `postMessageTransport`. */
export interface PostMessageTransportOptions {
  /** The window to talk to: `iframe.contentWindow`, `window.parent`, `window.opener`. */
  target: PostMessageTarget
  /** The exact origin of `target` (`'https://app.example.com'`); never `'*'`. */
  targetOrigin: string
  /** Origins accepted for inbound messages. Default `[targetOrigin]`. */
  allowedOrigins?: readonly string[]
  /** The window inbound messages must come from (`event.source`). Default `target`. */
  source?: unknown
  /** Where to listen for `message` events. Default `globalThis` (the current window). */
  listenOn?: PostMessageListenTarget
}

function exactOrigin(value: unknown, option: string): string {
  let parsed: string | undefined
  try {
    parsed = typeof value === 'string' ? new URL(value).origin : undefined
  } catch {
    parsed = undefined
  }
  if (parsed === undefined || parsed === 'null' || parsed !== value) {
    throw new TypeError(
      `postMessageTransport: ${option} must be an exact origin such as "https://app.example.com" ` +
        `(scheme, host and port, no path, never "*"); got ${JSON.stringify(value)}`,
    )
  }
  return parsed
}

/**
 * A transport between two windows (a page and an iframe, a page and its opener). Messages cross
 * as JSON text. It posts only to the exact `targetOrigin`, and accepts a message only when it
 * comes from the expected window (`source`) and from an allow-listed origin; everything else on
 * the window's `message` event is ignored. Throws at once on a wildcard or malformed origin.
 *
 * @example
 * // In the app, talking to an assistant iframe:
 * const transport = postMessageTransport({
 *   target: frame.contentWindow!,
 *   targetOrigin: 'https://assistant.example.com',
 * })
 * tm.use(bridge({ transport }))
 */
export function postMessageTransport(options: PostMessageTransportOptions): Transport {
  const targetOrigin = exactOrigin(options.targetOrigin, 'targetOrigin')
  const allowed = (options.allowedOrigins ?? [targetOrigin]).map((origin, i) =>
    exactOrigin(origin, `allowedOrigins[${i}]`),
  )
  const { target } = options
  const source = 'source' in options ? options.source : target
  const listenOn = options.listenOn ?? (globalThis as unknown as PostMessageListenTarget)
  const listeners = new Set<(message: unknown) => void>()
  let closed = false

  const onEvent = (event: PostMessageEventLike) => {
    if (closed || event.source !== source || !allowed.includes(event.origin)) return
    if (typeof event.data !== 'string') return
    const text = event.data
    for (const listener of [...listeners]) {
      try {
        listener(text)
      } catch {
        // Isolated, like every listener.
      }
    }
  }

  return {
    send(text) {
      if (closed) return
      try {
        target.postMessage(text, targetOrigin)
      } catch {
        // A closed or navigated window: the message is lost, like on any broken wire.
      }
    },
    onMessage(listener) {
      if (closed) return () => {}
      const entry = (message: unknown) => listener(message)
      if (listeners.size === 0) listenOn.addEventListener('message', onEvent)
      listeners.add(entry)
      return () => {
        if (!listeners.delete(entry)) return
        if (listeners.size === 0) listenOn.removeEventListener('message', onEvent)
      }
    },
    close() {
      if (closed) return
      closed = true
      if (listeners.size > 0) listenOn.removeEventListener('message', onEvent)
      listeners.clear()
    },
  }
}
