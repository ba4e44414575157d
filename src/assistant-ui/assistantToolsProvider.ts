import type { Toolmark } from '@toolmark/core'
import { callForChat, chatToolList, describeChatTool } from '@toolmark/core/ai-sdk'
import type { ChatToolList } from '@toolmark/core/ai-sdk'
import type { ModelContext, ModelContextProvider, Tool } from '@assistant-ui/react'
import { createStepOrder } from './stepOrder'
import type { StepOf } from './stepOrder'
import { markStopped } from './stoppedToolCalls'

/**
 * An assistant-ui model context provider serving the registry's tools for the in-app caller:
 * one frontend tool per page tool (named by its `llmName`), executed through `callForChat`. A call
 * whose run is stopped while it is in flight is remembered, so the chat does not go on by itself.
 * With `stepOf`, the calls of one model step reach the registry in the model's order.
 * The context is the same object while the tools are the same; subscribers hear every revision.
 */
export function assistantToolsProvider(tm: Toolmark, stepOf?: StepOf): ModelContextProvider {
  let built: { list: ChatToolList; context: ModelContext } | undefined
  const order = stepOf
    ? createStepOrder(stepOf, (name) => chatToolList(tm).tools.some((t) => t.llmName === name))
    : undefined

  const build = (list: ChatToolList): ModelContext => {
    const tools: Record<string, Tool> = {}
    for (const entry of list.tools) {
      tools[entry.llmName] = {
        type: 'frontend',
        description: describeChatTool(entry),
        parameters: entry.inputSchema ?? { type: 'object' },
        execute: async (args, { abortSignal, toolCallId }) => {
          // A stop while the call is in flight holds the automatic continuation
          // (useToolmarkSendAutomaticallyWhen): the person asked the assistant to stop.
          const onAbort = () => markStopped(tm, toolCallId)
          if (abortSignal.aborted) onAbort()
          else abortSignal.addEventListener('abort', onAbort, { once: true })
          try {
            const wait = order?.ready(toolCallId, abortSignal)
            if (wait) await wait
            order?.start(toolCallId)
            return await callForChat(tm, entry.name, args, { signal: abortSignal })
          } finally {
            abortSignal.removeEventListener('abort', onAbort)
          }
        },
      }
    }
    return { tools }
  }

  return {
    getModelContext() {
      const list = chatToolList(tm)
      if (built?.list !== list) built = { list, context: build(list) }
      return built.context
    },
    subscribe: (callback) => tm.subscribe(() => callback()),
  }
}
