import type { Emitter } from '../events/emitter'
import { createSubscribable } from '../events/subscribable'
import type { ErrorEvent } from '../types'
import type { Misconfigured } from './misconfiguration'

/** What a registry's revisions tell, and to whom. */
export interface RevisionParts {
  readonly events: Emitter
  readonly errorEvent: (event: ErrorEvent) => void
  readonly misconfigured: Misconfigured
  /** Runs at every change: drops what it made stale (access answers, the manifests). */
  onChange(): void
  /** Runs once per revision, before anyone hears of it: withdraws what lost its access. */
  beforeNotify(): void
}

/** A registry's revisions: what changed, and its `change` event and `tm.subscribe` listeners. */
export interface Revisions {
  /** The revision listeners last heard of, or are about to. */
  rev(): number
  /** Any change: one revision per microtask, then withdrawal, `change` and subscribers. */
  changed(): void
  /** `tm.subscribe`. */
  subscribe(listener: (rev: number) => void): () => void
}

/** Creates a registry's revisions, at 0. */
export function createRevisions(parts: RevisionParts): Revisions {
  const { events, misconfigured } = parts
  const subscribers = createSubscribable<[number]>({
    report: parts.errorEvent,
    label: 'tm.subscribe',
  })
  let rev = 0
  let notifyScheduled = false
  return {
    rev: () => rev,
    changed() {
      parts.onChange()
      if (notifyScheduled) return
      notifyScheduled = true
      rev++
      queueMicrotask(() => {
        notifyScheduled = false
        parts.beforeNotify()
        events.emit('change', { rev })
        subscribers.notify(rev)
      })
    },
    subscribe(listener) {
      if (typeof listener !== 'function') {
        misconfigured('invalid_listener', ['subscribe'])
        return () => {}
      }
      return subscribers.subscribe(listener)
    },
  }
}
