import { useMemo, useSyncExternalStore } from 'react'
import type { Caller, Manifest, Toolmark } from '@toolmark/core'

/**
 * The full manifest (input schemas included) one caller sees, read again on every change
 * notification. The registry keeps one manifest object until something changes (every
 * registration, not only every revision), so the snapshot is stable between changes and a list
 * read in the middle of a batch of registrations is replaced once the batch is announced.
 */
export function useManifest(tm: Toolmark, caller: Caller): Manifest {
  const store = useMemo(
    () => ({
      subscribe: (listener: () => void) => tm.subscribe(() => listener()),
      getSnapshot: () => tm.manifest({ caller, detail: 'full' }),
    }),
    [tm, caller],
  )
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot)
}
