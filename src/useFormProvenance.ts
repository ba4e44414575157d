import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { formProvenance } from '@toolmark/core/forms'
import type { FormMemory, FormProvenance, RevertFieldOutcome } from '@toolmark/core/forms'

/** What the form hooks return about the agent's writes. */
export interface FormProvenanceResult {
  /**
   * The fields that hold a value an agent wrote, by the tools' dot path, with the call that wrote
   * it (`callId`, `caller`, `at`). The same map until a field gains or loses an agent's value.
   * Tracked: a component that never reads it is never re-rendered for it, and one that does
   * re-renders only when it changes (a keystroke that keeps every agent value re-renders nothing).
   */
  readonly provenance: FormProvenance
  /**
   * Restores one field to what it held before the agent wrote it, if it still holds the agent's
   * value; the rest of the fill stays and its undo leaves this field alone. Never throws:
   * `{ status: 'reverted', change }` or `{ status: 'skipped', reason }`. Stable.
   */
  revertField: (path: string) => Promise<RevertFieldOutcome>
}

/** A form hook's provenance, connected to React: see {@link withProvenance}. */
export interface FormProvenanceState {
  /** Changes whenever a component that read `provenance` must render again. */
  readonly version: FormProvenance
  readonly read: () => FormProvenance
  readonly revertField: (path: string) => Promise<RevertFieldOutcome>
}

/** Connects a form memory's provenance store to React, re-rendering only once it is read. */
export function useFormProvenance(memory: FormMemory): FormProvenanceState {
  const store = useMemo(() => formProvenance(memory), [memory])
  const tracked = useRef(false)
  // A plain state update, not useSyncExternalStore: a fill changes the form library's state and
  // the provenance together, and a normal-priority update lets React commit both at once (test
  // "renders the form component at most once per fill" in test/rhf.test.tsx). Untracked, nothing
  // is watched or set at all (bench/fill: commits and time per fill).
  const [version, setVersion] = useState(store.getSnapshot)
  const subscription = useRef<{ store: typeof store; stop: () => void } | undefined>(undefined)
  // Subscribes once a render read `provenance` (and again for a new form memory); until then the
  // store is not watched at all.
  useEffect(() => {
    if (!tracked.current || subscription.current?.store === store) return
    subscription.current?.stop()
    const sync = () => setVersion(store.getSnapshot())
    subscription.current = { store, stop: store.subscribe(sync) }
    sync()
  })
  useEffect(
    () => () => {
      subscription.current?.stop()
      subscription.current = undefined
    },
    [],
  )
  const read = useCallback(() => {
    tracked.current = true
    return store.getSnapshot()
  }, [store])
  const revertField = useCallback((path: string) => store.revertField(path), [store])
  return { version, read, revertField }
}

/** Adds `provenance` (a tracked getter) and `revertField` to a hook's result object. */
export function withProvenance<T extends object>(
  result: T,
  state: FormProvenanceState,
): T & FormProvenanceResult {
  Object.defineProperty(result, 'provenance', { enumerable: true, get: state.read })
  return Object.assign(result, { revertField: state.revertField }) as T & FormProvenanceResult
}
