import type { FillWrite } from './fillInput'
import { cloneValue, deepEqual, getIn, joinPath, setManyIn, splitPath } from '../values/paths'
import type { FormAdapter, FormMemory } from '../values/types'

/** Bumped on every change to a memory, so a baseline built from it can be reused until then. */
const memoryVersions = new WeakMap<FormMemory, number>()

/**
 * A fresh memory for one form. Pass the same memory to every `createFormTools` call of that
 * form (the React binding keeps one per mounted form) so re-registering forgets nothing.
 */
export function createFormMemory(): FormMemory {
  return { agentWrites: new Map(), sensitive: new Set() }
}

/** A write a fill will make: the path's value before and after. */
export interface PlannedWrite {
  readonly write: FillWrite
  readonly before: unknown
  readonly after: unknown
  /** Memory entries the fill replaced, restored by undo. */
  remembered: ReadonlyArray<readonly [string, unknown]>
  /** A person reverted this write's field: its undo leaves the field alone. */
  reverted?: boolean
}

/** Who wrote which field: tells the user's edits from the agent's own writes. */
export interface EditTracker {
  /** Dirty paths whose value is not what the agent (or the defaults) put there, sorted. */
  editedPaths(current?: unknown): string[]
  /** Records a fill's writes as the agent's own (each write keeps what it replaced). */
  remember(planned: PlannedWrite[]): void
  /** Undoes `remember` for some writes of one fill. */
  forget(planned: PlannedWrite[]): void
  /** Forgets the agent's values at or below `path` (a person reverted it); returns them. */
  release(path: string): ReadonlyArray<readonly [string, unknown]>
  /** Puts back what `release` returned (the revert could not be written). */
  restore(entries: ReadonlyArray<readonly [string, unknown]>): void
}

/** The memory paths a write records: the appended items' paths, or the write's own path. */
function memoryPaths(p: PlannedWrite): string[] {
  if (p.write.op !== 'append') return [p.write.path]
  const base = Array.isArray(p.before) ? p.before.length : 0
  return p.write.items.map((_, i) => joinPath(p.write.path, base + i))
}

/**
 * Tells the user's edits apart from the agent's writes, for one form and its memory: a dirty
 * path counts as the user's when its value differs from what the agent last wrote there, or
 * from the default value for a path the agent never wrote.
 */
export function createEditTracker(memory: FormMemory, adapter: FormAdapter<unknown>): EditTracker {
  let baselineCache: { defaults: unknown; version: number; tree: unknown } | undefined

  /** What each path should hold if the user changed nothing: the defaults plus the agent's writes. */
  function baselineTree(): { tree: unknown; hasDefaults: boolean } {
    const defaults =
      typeof adapter.defaultValues === 'function' ? adapter.defaultValues() : undefined
    const version = memoryVersions.get(memory) ?? 0
    if (
      !baselineCache ||
      baselineCache.defaults !== defaults ||
      baselineCache.version !== version
    ) {
      const writes = [...memory.agentWrites].map(
        ([path, value]) => [splitPath(path), value] as const,
      )
      baselineCache = { defaults, version, tree: setManyIn(defaults, writes) }
    }
    return { tree: baselineCache.tree, hasDefaults: defaults !== undefined }
  }

  const touchMemory = () => memoryVersions.set(memory, (memoryVersions.get(memory) ?? 0) + 1)

  /** Whether the agent wrote `path` or a value containing it. */
  function inMemory(path: string): boolean {
    for (let at = path; ; at = at.slice(0, at.lastIndexOf('.'))) {
      if (memory.agentWrites.has(at)) return true
      if (!at.includes('.')) return false
    }
  }

  function editedPaths(current: unknown = adapter.getValues()): string[] {
    const dirty = adapter.dirtyPaths()
    if (!Array.isArray(dirty) || dirty.length === 0) return []
    const { tree, hasDefaults } = baselineTree()
    const out = new Set<string>()
    for (const path of dirty) {
      if (typeof path !== 'string' || path === '' || out.has(path)) continue
      const known = hasDefaults || inMemory(path)
      const segments = splitPath(path)
      if (!known || !deepEqual(getIn(current, segments), getIn(tree, segments))) out.add(path)
    }
    return [...out].sort()
  }

  /**
   * Removes the memory entries at or below any of `paths`; returns them grouped by path. One
   * pass over the memory (each key's ancestors are looked up), so a 200-field fill stays linear.
   */
  function takeBelow(paths: readonly string[]): Map<string, Array<readonly [string, unknown]>> {
    const taken = new Map<string, Array<readonly [string, unknown]>>()
    const targets = new Set(paths)
    if (targets.size === 0 || memory.agentWrites.size === 0) return taken
    for (const [key, value] of memory.agentWrites) {
      let prefix = key
      for (;;) {
        if (targets.has(prefix)) {
          const list = taken.get(prefix) ?? []
          list.push([key, value])
          taken.set(prefix, list)
          memory.agentWrites.delete(key)
          break
        }
        const dot = prefix.lastIndexOf('.')
        if (dot < 0) break
        prefix = prefix.slice(0, dot)
      }
    }
    return taken
  }

  /**
   * A replaced value is all the agent's; appended items are, while the items already there keep
   * their owner; after a removal each remaining item keeps the baseline it had, at its new index.
   */
  function remember(planned: PlannedWrite[]): void {
    // Removals keep each item's baseline: read it before the memory changes.
    const baseline = planned.some((p) => p.write.op === 'remove') ? baselineTree().tree : undefined
    touchMemory()
    const taken = takeBelow(planned.flatMap(memoryPaths))
    for (const p of planned) {
      const { write } = p
      const paths = memoryPaths(p)
      p.remembered =
        paths.length === 1
          ? (taken.get(paths[0]) ?? [])
          : paths.flatMap((path) => taken.get(path) ?? [])
      if (write.op === 'append') {
        paths.forEach((path, i) => memory.agentWrites.set(path, cloneValue(write.items[i])))
      } else if (write.op === 'remove') {
        const before = Array.isArray(p.before) ? p.before : []
        const removed = new Set(write.indices)
        const kept = before
          .map((_, i) => getIn(baseline, [...write.segments, String(i)]))
          .filter((_, i) => !removed.has(i))
        memory.agentWrites.set(write.path, cloneValue(kept))
      } else {
        memory.agentWrites.set(write.path, cloneValue(p.after))
      }
    }
  }

  function forget(planned: PlannedWrite[]) {
    touchMemory()
    takeBelow(planned.flatMap(memoryPaths))
    for (const p of planned)
      for (const [key, value] of p.remembered) memory.agentWrites.set(key, value)
  }

  function release(path: string): ReadonlyArray<readonly [string, unknown]> {
    touchMemory()
    return takeBelow([path]).get(path) ?? []
  }

  function restore(entries: ReadonlyArray<readonly [string, unknown]>) {
    touchMemory()
    for (const [key, value] of entries) memory.agentWrites.set(key, value)
  }

  return { editedPaths, remember, forget, release, restore }
}
