'use client'
import { useEffect, useRef } from 'react'
import type { ManifestEntry, Toolmark } from '@toolmark/core'
import { webmcp, type WebMCPOptions } from '@toolmark/core/webmcp'
import { useResolvedToolmark } from './ToolmarkContext'
import { useIsomorphicLayoutEffect } from './useIsomorphicLayoutEffect'

/** Options of {@link useWebMCP}. */
export interface UseWebMCPOptions extends WebMCPOptions {
  /** The registry to serve instead of the nearest `<ToolProvider>`'s. */
  toolmark?: Toolmark
}

/**
 * Serves the registry's tools to browser agents through WebMCP (`document.modelContext`) while
 * the component is mounted. Tools follow the `webmcp` policy: consequential ones are listed
 * only while a `<ConfirmDialog>` (or another presenter) is mounted and wait there for a person;
 * destructive ones stay hidden unless the policy allows them.
 *
 * Without WebMCP in the browser it does nothing and emits one `webmcp_unavailable` error
 * event. `filter` may be an inline function: the latest one is used at every revision, and
 * changing it does not register the tools again by itself.
 *
 * @example
 * ```tsx
 * function App() {
 *   useWebMCP()
 *   return (
 *     <>
 *       <Tickets />
 *       <ConfirmDialog />
 *     </>
 *   )
 * }
 * ```
 */
export function useWebMCP(options: UseWebMCPOptions = {}): void {
  const tm = useResolvedToolmark(options.toolmark, 'useWebMCP')
  const { modelContext } = options

  const latestFilter = useRef(options.filter)
  useIsomorphicLayoutEffect(() => {
    latestFilter.current = options.filter
  })

  useEffect(() => {
    const filter = (entry: ManifestEntry) => latestFilter.current?.(entry) ?? true
    return tm.use(webmcp({ modelContext, filter }))
  }, [tm, modelContext])
}
