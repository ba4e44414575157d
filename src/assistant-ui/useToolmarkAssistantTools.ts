'use client'
import { useEffect } from 'react'
import type { Toolmark } from '@toolmark/core'
import { useAui } from '@assistant-ui/react'
import { useResolvedToolmark } from '../ToolmarkContext'
import { assistantToolsProvider } from './assistantToolsProvider'
import type { StepCall, StepOf } from './stepOrder'

/** Options of {@link useToolmarkAssistantTools}. */
export interface UseToolmarkAssistantToolsOptions {
  /** The registry to use instead of the nearest `<ToolProvider>`'s. */
  toolmark?: Toolmark
}

/**
 * Makes every tool the in-app caller may use available to the assistant-ui runtime of the
 * enclosing `<AssistantRuntimeProvider>`, while mounted: one frontend tool per page tool (named by
 * its `llmName`, with its input JSON Schema and a description that says what its hints mean),
 * kept in sync with the registry (a tool that unmounts goes away), executed through `tm.call` as
 * caller `inapp`. A call that needs a person waits for their answer in `<ConfirmDialog>` and
 * returns the final result; cancelling the run ends it `cancelled signal`. Tools that need a
 * person are offered only while a dialog is mounted. The calls of one model step reach the
 * registry in the order the model made them, whatever order the runtime starts them in.
 *
 * @example
 * ```tsx
 * function Assistant() {
 *   const runtime = useLocalRuntime(myModelAdapter)
 *   return (
 *     <AssistantRuntimeProvider runtime={runtime}>
 *       <PageTools />
 *       <Thread />
 *     </AssistantRuntimeProvider>
 *   )
 * }
 * function PageTools() {
 *   useToolmarkAssistantTools()
 *   return null
 * }
 * // Somewhere in the app: <ConfirmDialog />
 * ```
 */
export function useToolmarkAssistantTools(options: UseToolmarkAssistantToolsOptions = {}): void {
  const tm = useResolvedToolmark(options.toolmark, 'useToolmarkAssistantTools')
  const aui = useAui()
  useEffect(() => {
    // The calls of each model step, in the model's order, from the thread's messages.
    const stepOf: StepOf = (toolCallId) => {
      const { messages } = aui.thread().getState()
      for (let i = messages.length - 1; i >= 0; i--) {
        const calls: StepCall[] = []
        let found = false
        for (const part of messages[i].content) {
          if (part.type !== 'tool-call') continue
          calls.push({
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            pending: part.result === undefined,
          })
          if (part.toolCallId === toolCallId) found = true
        }
        if (found) return calls
      }
      return undefined
    }
    return aui.modelContext.register(assistantToolsProvider(tm, stepOf))
  }, [aui, tm])
}
