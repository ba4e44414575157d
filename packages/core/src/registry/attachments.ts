import type { Emitter } from '../events/emitter'
import type { Consumer, ErrorEvent, Toolmark } from '../types'
import { problemMessage, type Misconfigured } from './misconfiguration'

/** What the app attaches to a registry from outside: event listeners and consumers. */
export interface AttachmentParts {
  readonly dev: boolean
  readonly events: Emitter
  readonly misconfigured: Misconfigured
  readonly errorEvent: (event: ErrorEvent) => void
}

/** `tm.events` and `tm.use` over a registry's emitter. */
export function createAttachments(
  tm: () => Toolmark,
  { dev, events, misconfigured, errorEvent }: AttachmentParts,
): Pick<Toolmark, 'events' | 'use'> {
  return {
    events: {
      on(type, listener) {
        if (typeof listener !== 'function') {
          misconfigured('invalid_listener', ['events.on', String(type)])
          return () => {}
        }
        return events.on(type, listener)
      },
    },
    /**
     * Attaches a consumer (bridge, WebMCP, a pairing…) and returns its detach, which runs the
     * consumer's teardown once. A consumer that throws is the app's bug: development rethrows,
     * production reports `consumer_threw` and attaches nothing.
     */
    use(consumer: Consumer) {
      if (typeof consumer !== 'function') {
        misconfigured('invalid_consumer', ['use'])
        return () => {}
      }
      let teardown: (() => void) | void
      try {
        teardown = consumer(tm())
      } catch (cause) {
        if (dev) throw cause
        errorEvent({ code: 'consumer_threw', message: problemMessage(['consumer threw']), cause })
        return () => {}
      }
      let active = true
      return () => {
        if (!active) return
        active = false
        try {
          if (typeof teardown === 'function') teardown()
        } catch (cause) {
          const message = problemMessage(['consumer teardown threw'])
          errorEvent({ code: 'consumer_threw', message, cause })
        }
      }
    },
  }
}
