import { createContext } from 'react'
import type { Scope, Toolmark } from '@toolmark/core'

/**
 * A scope that exists only while something needs it. `<ToolScope>` renders before its children
 * register, but React runs the children's effects first, so the scope is created on demand by
 * whichever effect asks for it first (a child's registration or the scope's own effect) and
 * never during render.
 */
export interface ScopeSlot {
  /** The registry the scope belongs to. */
  readonly toolmark: Toolmark
  /** The scope's full path, known without creating it (`''` for the root). */
  readonly path: string
  /** Creates the scope (and its parents) if needed; call from effects only. */
  acquire(): Scope
  /** Disposes the scope if it exists. */
  release(): void
  /** Applies `when` to the scope if it exists (a new scope reads it when created). */
  setWhen(when: boolean): void
}

/** The nearest `<ToolScope>`'s slot; `null` at the root of a `<ToolProvider>`. */
export const ScopeContext = createContext<ScopeSlot | null>(null)

/** Joins scope path segments, skipping empty ones. */
export function joinScopePath(parent: string, name: string): string {
  return parent && name ? `${parent}.${name}` : parent || name
}

/** Builds a slot for `name` under `parent` (or under the registry's root). Pure: creates nothing. */
export function createScopeSlot(
  toolmark: Toolmark,
  parent: ScopeSlot | null,
  name: string,
  options: { when: () => boolean; transparent: boolean },
): ScopeSlot {
  let scope: Scope | undefined
  const { when, transparent } = options
  return {
    toolmark,
    path: transparent ? (parent?.path ?? '') : joinScopePath(parent?.path ?? '', name),
    acquire() {
      if (!scope) {
        const owner = parent ? parent.acquire() : toolmark
        scope = owner.scope(name, { when: when(), transparent })
      }
      return scope
    },
    release() {
      const current = scope
      scope = undefined
      current?.dispose()
    },
    setWhen(next) {
      scope?.setWhen(next)
    },
  }
}
