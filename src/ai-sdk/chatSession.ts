import type { Toolmark } from '@toolmark/core'
import { TOOLMARK_BODY_FIELD, callForChat, chatToolList } from '@toolmark/core/ai-sdk'
import type { ChatToolResult } from '@toolmark/core/ai-sdk'
import type { ChatTransport, UIMessage } from 'ai'

/** What one `useToolmarkChat` owns: the names it offered, the calls it started, a stop flag. */
export interface ChatSession {
  /** Whether the person stopped the chat since its last send (no automatic continuation). */
  readonly stopped: boolean
  /** `transport`, with the page's current tools in every request body. */
  transport<M extends UIMessage>(inner: ChatTransport<M>, tm: Toolmark): ChatTransport<M>
  /** The tool name behind a model tool name this chat offered, or `undefined` if not ours. */
  nameOf(llmName: string, tm: Toolmark): string | undefined
  /**
   * Runs a call this chat started; it ends `cancelled signal` when the chat stops before it ran,
   * with the run's own result once the person approved it.
   */
  run(tm: Toolmark, name: string, input: unknown): Promise<ChatToolResult>
  /** Stop: ends every call in flight and holds automatic sends until the next `resume`. */
  stop(): void
  /** A new send: automatic continuation is allowed again. */
  resume(): void
}

/** One chat's Toolmark state, framework-free; `useToolmarkChat` connects it to `useChat`. */
export function createChatSession(): ChatSession {
  let offered = new Map<string, string>()
  let controller: AbortController | undefined
  let stopped = false

  const offer = (tm: Toolmark) => {
    const list = chatToolList(tm)
    offered = new Map(list.tools.map((tool) => [tool.llmName, tool.name]))
    return list
  }

  return {
    get stopped() {
      return stopped
    },
    transport(inner, tm) {
      return {
        get resumeStreamIsReplay() {
          return inner.resumeStreamIsReplay
        },
        sendMessages: (options) =>
          inner.sendMessages({
            ...options,
            body: { ...options.body, [TOOLMARK_BODY_FIELD]: offer(tm) },
          }),
        reconnectToStream: (options) => inner.reconnectToStream(options),
        close: () => inner.close?.(),
      }
    },
    nameOf(llmName, tm) {
      // A tool offered with the last request stays ours even if it unmounted since: its call
      // then answers `unknown_tool`. A resumed stream may call tools offered before a reload.
      return offered.get(llmName) ?? chatToolList(tm).tools.find((t) => t.llmName === llmName)?.name
    },
    run(tm, name, input) {
      controller ??= new AbortController()
      return callForChat(tm, name, input, { signal: controller.signal })
    },
    stop() {
      stopped = true
      controller?.abort()
      controller = undefined
    },
    resume() {
      stopped = false
    },
  }
}
