'use client'
import { useState, type ReactNode } from 'react'
import { createToolmark } from '@toolmark/core'
import type { Toolmark, ToolmarkOptions } from '@toolmark/core'
import { ToolmarkContext } from './ToolmarkContext'
import { ScopeContext } from './ScopeContext'

/** Props of {@link ToolProvider}. */
export interface ToolProviderProps {
  /** The registry to provide. When absent, the provider creates one from `options`. */
  toolmark?: Toolmark
  /**
   * Options for the registry the provider creates when `toolmark` is absent. Read once, on the
   * first render: later changes are ignored (create the registry yourself to control it).
   */
  options?: ToolmarkOptions
  children?: ReactNode
}

/**
 * Makes a registry available to `useTool`, `<ToolScope>`, `useConfirmations`,
 * `<ConfirmDialog>` and `useAgentActivity` below it.
 *
 * Pass a registry you created (`createToolmark()`, usually at module scope so agents keep one
 * registry across renders) or let the provider create one from `options`. A created registry is
 * made once per mounted provider, also under StrictMode.
 *
 * @example
 * ```tsx
 * const tm = createToolmark()
 *
 * export function App() {
 *   return (
 *     <ToolProvider toolmark={tm}>
 *       <Tickets />
 *       <ConfirmDialog />
 *     </ToolProvider>
 *   )
 * }
 * ```
 */
export function ToolProvider({ toolmark, options, children }: ToolProviderProps) {
  // A lazily filled box rather than a plain initializer, so a provider that starts with an
  // explicit registry and later loses it still gets exactly one registry of its own.
  const [own] = useState<{ toolmark?: Toolmark }>(() => ({
    toolmark: toolmark ? undefined : createToolmark(options),
  }))
  const value = toolmark ?? (own.toolmark ??= createToolmark(options))
  return (
    <ToolmarkContext.Provider value={value}>
      <ScopeContext.Provider value={null}>{children}</ScopeContext.Provider>
    </ToolmarkContext.Provider>
  )
}
