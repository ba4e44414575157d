import type { ErrorEvent, ToolmarkEventMap, ToolmarkEventType, ToolmarkEvents } from './types'

/** The registry's event bus: a `Set` of listeners per type, each listener isolated. */
export interface Emitter extends ToolmarkEvents {
  emit<K extends ToolmarkEventType>(type: K, event: ToolmarkEventMap[K]): void
  has(type: ToolmarkEventType): boolean
}

export function createEmitter(): Emitter {
  const listeners = new Map<ToolmarkEventType, Set<(event: any) => void>>()
  const emitter: Emitter = {
    on(type, listener) {
      let set = listeners.get(type)
      if (!set) listeners.set(type, (set = new Set()))
      // Wrap so the same function can be added twice and removed once each.
      const entry = (event: any) => listener(event)
      set.add(entry)
      return () => {
        set.delete(entry)
      }
    },
    has(type) {
      return (listeners.get(type)?.size ?? 0) > 0
    },
    emit(type, event) {
      const set = listeners.get(type)
      if (!set || set.size === 0) return
      for (const listener of [...set]) {
        try {
          listener(event)
        } catch (cause) {
          // A throwing listener never breaks a call; an `error` listener that throws is dropped
          // silently to avoid a loop.
          if (type !== 'error') {
            const report: ErrorEvent = {
              code: 'listener_threw',
              message: `A "${type}" event listener threw`,
              cause,
            }
            emitter.emit('error', report)
          }
        }
      }
    },
  }
  return emitter
}
