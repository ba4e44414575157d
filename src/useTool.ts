'use client'
import { useContext, useState, useSyncExternalStore } from 'react'
import type { ToolDefinition, ToolResult, ToolStatus, Toolmark } from '@toolmark/core'
import { createToolBinding } from '@toolmark/core/observers'
import { useResolvedToolmark } from './ToolmarkContext'
import { ScopeContext } from './ScopeContext'
import { useIsomorphicLayoutEffect } from './useIsomorphicLayoutEffect'

/** Options of {@link useTool}. */
export interface UseToolOptions {
  /** The registry to use instead of the nearest `<ToolProvider>`'s. */
  toolmark?: Toolmark
}

/** Where a tool's calls stand: `'idle'` before any call, `'running'` while one runs, else the last result's status. */
export type UseToolStatus = 'idle' | 'running' | ToolStatus

/** What {@link useTool} returns: the same object until the name or the call status changes. */
export interface UseToolResult<TInput = unknown, TOutput = unknown> {
  /** The full name agents see (scope path + local name). */
  readonly name: string
  /** `'running'` while any caller's call runs; the last result's status after. */
  readonly status: UseToolStatus
  /** The last result, whoever called. */
  readonly lastResult: ToolResult<TOutput> | undefined
  /**
   * Calls the tool as caller `human`: the same validation and `run` an agent gets, without a
   * confirmation (a person is acting). Never throws. The same function for the component's life.
   */
  readonly call: (input?: TInput) => Promise<ToolResult<TOutput>>
}

/**
 * Declares a tool while the component is mounted. `run`, `summary`, `confirmation` and schema
 * validation always see the latest props and state; the tool is registered again only when its
 * name, description, title, hints, sensitive paths, deadline or schemas change. A schema written
 * inline is a new object on every render, so a new schema object counts as a change only when
 * its JSON Schema differs: ordinary re-renders never touch the registry's revision (nor withdraw
 * the tool's pending confirmations). Inert during server rendering.
 *
 * @example
 * ```tsx
 * function Counter() {
 *   const [count, setCount] = useState(0)
 *   const increment = useTool({
 *     name: 'counter.increment',
 *     description: 'Adds `by` to the counter and returns the new value.',
 *     input: z.object({ by: z.number().int().default(1) }),
 *     run: ({ by }) => {
 *       setCount((c) => c + by)
 *       return ok({ count: count + by })
 *     },
 *   })
 *   return <button onClick={() => increment.call({ by: 1 })}>Count: {count}</button>
 * }
 * ```
 */
export function useTool<TInput = unknown, TOutput = unknown>(
  def: ToolDefinition<TInput, TOutput>,
  options: UseToolOptions = {},
): UseToolResult<TInput, TOutput> {
  const toolmark = useResolvedToolmark(options.toolmark, 'useTool')
  const inherited = useContext(ScopeContext)
  const scope = inherited?.toolmark === toolmark ? inherited : null

  const [binding] = useState(() => createToolBinding({ toolmark, definition: def, scope }))

  // A layout effect, so an agent call right after a commit already runs this render's `run`;
  // the binding registers again only when what agents see changed.
  useIsomorphicLayoutEffect(() => {
    binding.setOptions({ toolmark, definition: def, scope })
  })

  // Registered while subscribed: mounted means registered and watched, in one effect.
  return useSyncExternalStore(binding.subscribe, binding.getSnapshot, binding.getServerSnapshot)
}
