import { useCallback, useEffect, useMemo, useState } from 'react'
import { formProvenance } from '@toolmark/core/forms'
import type { FormMemory, FormProvenance, RevertFieldOutcome } from '@toolmark/core/forms'

/** What the form hooks return about the agent's writes. */
export interface FormProvenanceResult {
  /**
   * The fields that hold a value an agent wrote, by the tools' dot path, with the call that wrote
   * it (`callId`, `caller`, `at`). The same map until a field gains or loses an agent's value:
   * a person's keystroke re-renders nothing unless it takes a field back from the agent.
   */
  provenance: FormProvenance
  /**
   * Restores one field to what it held before the agent wrote it, if it still holds the agent's
   * value; the rest of the fill stays and its undo leaves this field alone. Never throws:
   * `{ status: 'reverted', change }` or `{ status: 'skipped', reason }`. Stable.
   */
  revertField: (path: string) => Promise<RevertFieldOutcome>
}

/** Connects a form memory's provenance store to React. */
export function useFormProvenance(memory: FormMemory): FormProvenanceResult {
  const store = useMemo(() => formProvenance(memory), [memory])
  // A plain state update, not useSyncExternalStore: a fill changes the form library's state and
  // the provenance together, and a normal-priority update lets React commit both at once (test
  // "renders the form component at most once per fill" in test/rhf.test.tsx).
  const [provenance, setProvenance] = useState(store.getSnapshot)
  useEffect(() => {
    const sync = () => setProvenance(store.getSnapshot())
    const stop = store.subscribe(sync)
    sync()
    return stop
  }, [store])
  const revertField = useCallback((path: string) => store.revertField(path), [store])
  return { provenance, revertField }
}
