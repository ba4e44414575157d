'use client'
import type { Toolmark } from '@toolmark/core'
import { useResolvedToolmark } from './ToolmarkContext'

/**
 * The registry of the nearest `<ToolProvider>`, or `toolmark` when given. Throws outside a
 * provider, with the fix in the message.
 *
 * @example
 * ```tsx
 * function StopButton() {
 *   const tm = useToolmark()
 *   return <button onClick={() => tm.cancelAll()}>Stop the agent</button>
 * }
 * ```
 */
export function useToolmark(toolmark?: Toolmark): Toolmark {
  return useResolvedToolmark(toolmark, 'useToolmark')
}
