import { useMemo, useSyncExternalStore } from 'react'
import type { Caller, Manifest, Toolmark } from '@toolmark/core'

/**
 * The full manifest (input schemas included) one caller sees, kept current across revisions.
 * The snapshot is the same object until the registry's revision changes.
 */
export function useManifest(tm: Toolmark, caller: Caller): Manifest {
  const store = useMemo(() => {
    let cached: { rev: number; manifest: Manifest } | undefined
    return {
      subscribe: (listener: () => void) => tm.subscribe(() => listener()),
      getSnapshot: () => {
        if (!cached || cached.rev !== tm.rev) {
          cached = { rev: tm.rev, manifest: tm.manifest({ caller, detail: 'full' }) }
        }
        return cached.manifest
      },
    }
  }, [tm, caller])
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot)
}
