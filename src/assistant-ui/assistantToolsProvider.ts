import type { Toolmark } from '@toolmark/core'
import { callForChat, chatToolList, describeChatTool } from '@toolmark/core/ai-sdk'
import type { ChatToolList } from '@toolmark/core/ai-sdk'
import type { ModelContext, ModelContextProvider, Tool } from '@assistant-ui/react'

/**
 * An assistant-ui model context provider serving the registry's tools for the in-app caller:
 * one frontend tool per page tool (named by its `llmName`), executed through `callForChat`.
 * The context is the same object while the tools are the same; subscribers hear every revision.
 */
export function assistantToolsProvider(tm: Toolmark): ModelContextProvider {
  let built: { list: ChatToolList; context: ModelContext } | undefined

  const build = (list: ChatToolList): ModelContext => {
    const tools: Record<string, Tool> = {}
    for (const entry of list.tools) {
      tools[entry.llmName] = {
        type: 'frontend',
        description: describeChatTool(entry),
        parameters: entry.inputSchema ?? { type: 'object' },
        execute: (args, { abortSignal }) =>
          callForChat(tm, entry.name, args, { signal: abortSignal }),
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
