'use client'
import { useContext, useEffect, useMemo, useRef, type ReactNode } from 'react'
import type { Toolmark } from '@toolmark/core'
import { useResolvedToolmark } from './ToolmarkContext'
import { ScopeContext, createScopeSlot } from './ScopeContext'
import { useIsomorphicLayoutEffect } from './useIsomorphicLayoutEffect'

/** Props of {@link ToolScope}. */
export interface ToolScopeProps {
  /** The scope's name: a segment of `[A-Za-z0-9_-]`, prefixed to the names of tools inside. */
  name: string
  /** `false` hides the scope's tools from manifests and calls. Default `true`. */
  when?: boolean
  /** Groups the tools (they go away together) without adding `name` to their names. Default `false`. */
  transparent?: boolean
  /** The registry to use instead of the nearest `<ToolProvider>`'s. */
  toolmark?: Toolmark
  children?: ReactNode
}

/**
 * Groups the tools declared below it into a scope of the registry, nested in the parent
 * `<ToolScope>` if there is one. Tools inside are named `scope.path.tool`; `when={false}` hides
 * them from agents without unmounting anything; unmounting the scope removes its tools, their
 * pending confirmations and undo entries.
 *
 * @example
 * ```tsx
 * <ToolScope name="tickets" when={user.canEdit}>
 *   <TicketEditor />   // useTool({ name: 'close', ... }) registers "tickets.close"
 * </ToolScope>
 * ```
 */
export function ToolScope({
  name,
  when = true,
  transparent = false,
  toolmark,
  children,
}: ToolScopeProps) {
  const tm = useResolvedToolmark(toolmark, '<ToolScope>')
  const inherited = useContext(ScopeContext)
  const parent = inherited?.toolmark === tm ? inherited : null
  // Read when the scope is created (in a child's or our own effect, after layout effects), so
  // a scope that starts hidden never shows its tools; later changes go through setWhen.
  const whenRef = useRef(when)
  useIsomorphicLayoutEffect(() => {
    whenRef.current = when
  })
  const slot = useMemo(
    () => createScopeSlot(tm, parent, name, { when: () => whenRef.current, transparent }),
    [tm, parent, name, transparent],
  )

  useEffect(() => {
    slot.acquire()
    return () => slot.release()
  }, [slot])

  useEffect(() => {
    slot.setWhen(when)
  }, [slot, when])

  return <ScopeContext.Provider value={slot}>{children}</ScopeContext.Provider>
}
