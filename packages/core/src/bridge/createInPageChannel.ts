import type { Transport } from '../protocol/messages'

/** Both ends of an in-page channel, plus a way to shut it. */
export interface InPageChannel {
  /** Give this one to `bridge({ transport })`. */
  page: Transport
  /** Give this one to `createPageClient({ transport })`. */
  agent: Transport
  /** Closes both ends; nothing is delivered afterwards. Idempotent. */
  close(): void
}

/**
 * A channel between a page and an agent running in the same realm (an assistant panel in the
 * app). It behaves like a wire: every message crosses as JSON text and arrives asynchronously
 * (on a microtask), so neither end ever holds the other's objects.
 *
 * @example
 * const channel = createInPageChannel()
 * tm.use(bridge({ transport: channel.page }))
 * const client = createPageClient({ transport: channel.agent })
 */
export function createInPageChannel(): InPageChannel {
  let closed = false
  const listeners = {
    page: new Set<(m: unknown) => void>(),
    agent: new Set<(m: unknown) => void>(),
  }
  const closeListeners = new Set<() => void>()

  const end = (to: keyof typeof listeners, own: keyof typeof listeners): Transport => ({
    send(text) {
      if (closed) return
      let wire: string
      try {
        wire = typeof text === 'string' ? text : JSON.stringify(text)
      } catch {
        return
      }
      if (typeof wire !== 'string') return
      queueMicrotask(() => {
        if (closed) return
        for (const listener of [...listeners[to]]) {
          try {
            listener(wire)
          } catch {
            // One broken listener does not starve the others.
          }
        }
      })
    },
    onMessage(listener) {
      const entry = (message: unknown) => listener(message)
      listeners[own].add(entry)
      return () => {
        listeners[own].delete(entry)
      }
    },
    close: () => close(),
    onClose(listener) {
      if (closed) return () => {}
      const entry = () => listener()
      closeListeners.add(entry)
      return () => {
        closeListeners.delete(entry)
      }
    },
  })

  const close = () => {
    if (closed) return
    closed = true
    listeners.page.clear()
    listeners.agent.clear()
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

  return { page: end('agent', 'page'), agent: end('page', 'agent'), close }
}
