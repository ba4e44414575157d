import type { ErrorEvent, ToolmarkEventMap, ToolmarkEventType, ToolmarkEvents } from '../types'

/** The registry's event bus: the listeners of each type, each listener isolated. */
export interface Emitter extends ToolmarkEvents {
  emit<K extends ToolmarkEventType>(type: K, event: ToolmarkEventMap[K]): void
  has(type: ToolmarkEventType): boolean
  /**
   * `has` of each type as a field, kept up to date by `on` and unsubscribe: read several times on
   * every call, where asking `has` looked the type up in a map each time (bench/call.mjs, see
   * docs/performance.md).
   */
  readonly listening: Readonly<Record<ToolmarkEventType, boolean>>
}

/** One `on()`: its own object, so the same function can be added twice and removed once each. */
interface Subscription {
  readonly listener: (event: any) => void
}

export function createEmitter(): Emitter {
  // Each type's list is replaced, never changed in place, on `on` and on unsubscribe: `emit`
  // walks the list it found, so a listener added or removed while an event is being delivered
  // takes effect from the next event, and delivering one copies nothing.
  const lists = new Map<ToolmarkEventType, readonly Subscription[]>()
  const listening: Record<ToolmarkEventType, boolean> = {
    call: false,
    interaction: false,
    result: false,
    progress: false,
    confirm: false,
    undo: false,
    change: false,
    error: false,
  }
  const heard = (type: ToolmarkEventType, on: boolean) => {
    if (Object.prototype.hasOwnProperty.call(listening, type)) listening[type] = on
  }
  const emitter: Emitter = {
    listening,
    on(type, listener) {
      const subscription: Subscription = { listener }
      lists.set(type, [...(lists.get(type) ?? []), subscription])
      heard(type, true)
      return () => {
        const list = lists.get(type)
        if (!list?.includes(subscription)) return
        const rest = list.filter((s) => s !== subscription)
        if (rest.length > 0) lists.set(type, rest)
        else {
          lists.delete(type)
          heard(type, false)
        }
      }
    },
    has(type) {
      return lists.has(type)
    },
    emit(type, event) {
      const list = lists.get(type)
      if (!list) return
      for (let i = 0; i < list.length; i++) {
        const listener = list[i].listener
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
