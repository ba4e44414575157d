import { reportError } from '../../events/reportError'
import type { Caller, FieldChange, Toolmark } from '../../types'
import { readOnlyIndex } from './readOnlyIndex'
import type { EditTracker, PlannedWrite } from './formMemory'
import { cloneValue, deepEqual, getIn, overlapIndex, splitPath } from '../values/paths'
import type {
  FieldProvenance,
  FormAdapter,
  FormMemory,
  FormProvenance,
  FormProvenanceStore,
  RevertFieldOutcome,
} from '../values/types'

export type { FieldProvenance, FormProvenance, FormProvenanceStore, RevertFieldOutcome }

/** A recorded agent value at one path. */
interface Origin extends FieldProvenance {
  /** What the agent wrote there. */
  readonly value: unknown
  /** What the field held before the agent's uninterrupted run of writes there began. */
  readonly before: unknown
  /** The writes of that run, oldest first: a revert marks them so their undo skips the field. */
  readonly writes: readonly PlannedWrite[]
  /** The origins this one replaced (at or below its path), restored when its write is undone. */
  readonly replaced: ReadonlyArray<readonly [string, Origin]>
}

/** What the registered tools lend the store: the current adapter and how to write through it. */
export interface ProvenanceBinding {
  readonly tm: Toolmark
  readonly adapter: FormAdapter<unknown>
  readonly edits: EditTracker
  /** The change a revert made, as fills report one (files described, secrets masked). */
  change(path: string, before: unknown, after: unknown): FieldChange
}

/** The store's internal side, used by the form's tools. */
export interface InternalProvenance extends FormProvenanceStore {
  /** Lends the store a registration's adapter; returns the detach. */
  attach(binding: ProvenanceBinding): () => void
  /** Records a fill's writes as the agent's, from this call. */
  record(planned: readonly PlannedWrite[], by: { callId: string; caller: Caller }): void
  /** Forgets writes an undo restored, bringing back the origins they replaced. */
  undone(planned: readonly PlannedWrite[]): void
}

const stores = new WeakMap<FormMemory, InternalProvenance>()
const EMPTY: FormProvenance = new Map()

/**
 * The provenance store of a form memory: which fields hold an agent's value and from which call.
 * The same store for the same memory; `createFormTools` feeds it.
 *
 * @example
 * const memory = createFormMemory()
 * createFormTools(tm, adapter, { name: 'ticket', description: 'A ticket', schema, memory })
 * await tm.call('ticket.fill', { values: { title: 'Printer' } })
 * formProvenance(memory).getSnapshot().get('title') // { callId, caller: 'inapp', at }
 */
export function formProvenance(memory: FormMemory): FormProvenanceStore {
  return internalProvenance(memory)
}

/** The store of `memory`, with the methods the form's tools use. */
export function internalProvenance(memory: FormMemory): InternalProvenance {
  let store = stores.get(memory)
  if (!store) {
    store = createProvenance()
    stores.set(memory, store)
  }
  return store
}

/** The origins whose field still holds the agent's value, in the store's order. */
function heldOrigins(origins: ReadonlyMap<string, Origin>, values: unknown): Origin[] {
  const held: Origin[] = []
  for (const [path, origin] of origins) {
    if (deepEqual(getIn(values, splitPath(path)), origin.value)) held.push(origin)
  }
  return held
}

/** The snapshot of the origins kept (their field holds the agent's value), in the store's order. */
function snapshotOf(
  origins: ReadonlyMap<string, Origin>,
  kept: ReadonlySet<Origin>,
): FormProvenance {
  const next = new Map<string, FieldProvenance>()
  for (const [path, origin] of origins) {
    if (kept.has(origin)) {
      next.set(path, Object.freeze({ callId: origin.callId, caller: origin.caller, at: origin.at }))
    }
  }
  return next
}

/**
 * The origins that writes at `written` replace, by the written path at or above them. One pass
 * over the origins (each key's ancestors looked up), so a 200-field fill stays linear.
 */
function replacedBy(
  origins: ReadonlyMap<string, Origin>,
  written: ReadonlySet<string>,
): Map<string, Array<readonly [string, Origin]>> {
  const taken = new Map<string, Array<readonly [string, Origin]>>()
  for (const [key, origin] of origins) {
    for (let prefix = key; ; prefix = prefix.slice(0, prefix.lastIndexOf('.'))) {
      if (written.has(prefix)) {
        const list = taken.get(prefix) ?? []
        list.push([key, origin])
        taken.set(prefix, list)
        break
      }
      if (!prefix.includes('.')) break
    }
  }
  return taken
}

/** The origin a fill's write leaves at its path, from the call `by` at time `at`. */
function originOf(
  p: PlannedWrite,
  previous: Origin | undefined,
  by: { callId: string; caller: Caller },
  at: number,
  replaced: ReadonlyArray<readonly [string, Origin]>,
): Origin {
  // The agent rewriting its own value continues one run: a revert goes back past all of it.
  const continues = previous !== undefined && deepEqual(p.before, previous.value)
  return {
    callId: by.callId,
    caller: by.caller,
    at,
    value: cloneValue(p.after),
    before: continues ? previous.before : cloneValue(p.before),
    writes: continues ? [...previous.writes, p] : [p],
    replaced,
  }
}

/** Why a field holding an agent's value cannot be reverted now (`undefined` when it can). */
function revertRefusal(
  path: string,
  origin: Origin,
  binding: ProvenanceBinding,
  values: unknown,
): RevertFieldOutcome | undefined {
  if (!deepEqual(getIn(values, splitPath(path)), origin.value)) {
    const edited = overlapIndex(binding.edits.editedPaths(values))(path)
    return { status: 'skipped', path, reason: edited ? 'user_edited' : 'changed' }
  }
  if (readOnlyIndex(binding.adapter)(path)) return { status: 'skipped', path, reason: 'readonly' }
  return undefined
}

/**
 * Tells every listener; one that throws is reported to the registry lent at that moment (read
 * then: a listener may detach the tools), and the rest still hear.
 */
function callListeners(listeners: ReadonlySet<() => void>, lentTo: () => Toolmark | undefined) {
  for (const listener of [...listeners]) {
    try {
      listener()
    } catch (cause) {
      const tm = lentTo()
      if (tm) {
        reportError(tm, {
          code: 'listener_threw',
          message: 'A form provenance listener threw',
          cause,
        })
      }
    }
  }
}

/** One form memory's store: the only owner of its origins, snapshot, listeners and watch. */
function createProvenance(): InternalProvenance {
  const origins = new Map<string, Origin>()
  const listeners = new Set<() => void>()
  let binding: ProvenanceBinding | undefined
  let stopWatching: (() => void) | undefined
  let snapshot = EMPTY
  let held: Origin[] = []

  const valuesNow = (): unknown => {
    try {
      return binding?.adapter.getValues()
    } catch {
      return undefined
    }
  }

  /** The origins whose field still holds the agent's value; the snapshot is rebuilt only on a change. */
  function compute(): FormProvenance {
    if (!binding) return snapshot
    const now = heldOrigins(origins, valuesNow())
    if (now.length === held.length && now.every((o, i) => o === held[i])) return snapshot
    held = now
    snapshot = snapshotOf(origins, new Set(now))
    return snapshot
  }

  function notify() {
    // Nobody listens: getSnapshot works the snapshot out when asked.
    if (listeners.size === 0) return
    const before = snapshot
    if (compute() === before) return
    callListeners(listeners, () => binding?.tm)
  }

  let checkQueued = false
  /**
   * The adapter reports every value write (a fill of 200 fields reports 200): look once, after
   * the burst (bench/fill: a per-write look made fills quadratic).
   */
  function valuesChanged() {
    if (checkQueued) return
    checkQueued = true
    queueMicrotask(() => {
      checkQueued = false
      notify()
    })
  }

  /** Stops following the adapter's writes; nothing to do when nothing is followed. */
  function unwatch() {
    stopWatching?.()
    stopWatching = undefined
  }

  /** Follows the person's edits while someone listens and the adapter can tell. */
  function watch() {
    unwatch()
    const subscribe = binding?.adapter.subscribe
    if (listeners.size === 0 || typeof subscribe !== 'function') return
    try {
      const stop = subscribe.call(binding!.adapter, valuesChanged)
      stopWatching = typeof stop === 'function' ? stop : undefined
    } catch {
      // An adapter that cannot be watched still answers getSnapshot on every render.
    }
  }

  return {
    getSnapshot: compute,
    subscribe(listener) {
      listeners.add(listener)
      if (listeners.size === 1) watch()
      return () => {
        if (!listeners.delete(listener)) return
        if (listeners.size === 0) unwatch()
      }
    },
    attach(next) {
      binding = next
      watch()
      notify()
      return () => {
        if (binding !== next) return
        binding = undefined
        unwatch()
      }
    },
    record(planned, by) {
      const at = Date.now()
      const taken = replacedBy(origins, new Set(planned.map((p) => p.write.path)))
      const next = planned.map((p) => {
        const path = p.write.path
        return [path, originOf(p, origins.get(path), by, at, taken.get(path) ?? [])] as const
      })
      for (const list of taken.values()) for (const [key] of list) origins.delete(key)
      for (const [path, origin] of next) origins.set(path, origin)
      notify()
    },
    undone(planned) {
      for (const p of planned) {
        const origin = origins.get(p.write.path)
        if (!origin || origin.writes[origin.writes.length - 1] !== p) continue
        origins.delete(p.write.path)
        for (const [key, back] of origin.replaced) origins.set(key, back)
      }
      notify()
    },
    async revertField(path) {
      const current = binding
      if (typeof path !== 'string')
        return { status: 'skipped', path: String(path), reason: 'not_filled' }
      if (!current) return { status: 'skipped', path, reason: 'unavailable' }
      const origin = origins.get(path)
      if (!origin) return { status: 'skipped', path, reason: 'not_filled' }
      const refusal = revertRefusal(path, origin, current, valuesNow())
      if (refusal) return refusal
      // Settled before the write, so a second revert of the same field finds nothing to do.
      origins.delete(path)
      for (const w of origin.writes) w.reverted = true
      const released = current.edits.release(path)
      try {
        await current.adapter.setValues(new Map([[path, cloneValue(origin.before)]]), {
          source: 'undo',
        })
      } catch (cause) {
        origins.set(path, origin)
        for (const w of origin.writes) w.reverted = false
        current.edits.restore(released)
        reportError(current.tm, {
          code: 'form_write_failed',
          message: `Reverting field "${path}" failed: the form's setValues threw`,
          cause,
        })
        notify()
        return { status: 'skipped', path, reason: 'unavailable' }
      }
      notify()
      return {
        status: 'reverted',
        path,
        change: current.change(path, origin.value, origin.before),
      }
    },
  }
}
