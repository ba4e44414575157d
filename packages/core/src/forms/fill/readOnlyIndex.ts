import { overlapIndex } from '../values/paths'
import type { FormAdapter } from '../values/types'

/**
 * Whether a write at a path would reach a field the adapter says nobody may change now (the
 * field itself, a field below it or the object above it). Read afresh for every fill, undo and
 * revert: a control can turn `readonly` or disabled after the tools were registered.
 */
export function readOnlyIndex(adapter: FormAdapter<unknown>): (path: string) => boolean {
  const paths = typeof adapter.readOnlyPaths === 'function' ? adapter.readOnlyPaths() : []
  return overlapIndex(Array.isArray(paths) ? paths.filter((p) => typeof p === 'string') : [])
}
