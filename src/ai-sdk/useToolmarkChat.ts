'use client'
import { useEffect, useMemo, useState } from 'react'
import type { Toolmark } from '@toolmark/core'
import { useChat } from '@ai-sdk/react'
import type { UseChatHelpers } from '@ai-sdk/react'
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithToolCalls } from 'ai'
import type { ChatInit, UIMessage } from 'ai'
import { useResolvedToolmark } from '../ToolmarkContext'
import { createChatSession } from './chatSession'

/** Options of {@link useToolmarkChat}: `useChat`'s own, plus the registry. */
export type UseToolmarkChatOptions<M extends UIMessage = UIMessage> = ChatInit<M> & {
  /** The registry to use instead of the nearest `<ToolProvider>`'s. */
  toolmark?: Toolmark
  /** `useChat`'s throttle for message updates, in ms. */
  throttle?: number
  /** `useChat`'s automatic resume of an ongoing stream. */
  resume?: boolean
}

/**
 * `useChat` from `@ai-sdk/react` with the page's tools: every request carries the tools the
 * in-app caller may use (in `body.toolmark`; build them on the server with `toolsFromManifest`
 * from `@toolmark/core/ai-sdk`), and every tool call the model makes for one of them runs in this
 * tab through `tm.call` as caller `inapp`. A call that needs a person waits for their answer in
 * `<ConfirmDialog>`, so the tool output the model gets is the final result; the chat then goes on
 * by itself (`sendAutomaticallyWhen` defaults to `lastAssistantMessageIsCompleteWithToolCalls`).
 * `stop()` also ends the calls this chat started (`cancelled signal`) and withdraws their pending
 * confirmations; a call the person already approved runs on and its real result is the output the
 * model reads. It does not go on by itself until the next `sendMessage`. Tool calls for other
 * tools go to your `onToolCall`. Takes and returns what `useChat` does.
 *
 * @example
 * ```tsx
 * function Assistant() {
 *   const { messages, sendMessage, status, stop } = useToolmarkChat({
 *     transport: new DefaultChatTransport({ api: '/api/chat' }),
 *   })
 *   return <Chat messages={messages} onSend={(text) => sendMessage({ text })} onStop={stop} />
 * }
 * // Somewhere in the app: <ConfirmDialog />, so a person can approve what the model asks for.
 * ```
 */
export function useToolmarkChat<M extends UIMessage = UIMessage>(
  options: UseToolmarkChatOptions<M> = {},
): UseChatHelpers<M> {
  const { toolmark, transport, onToolCall, sendAutomaticallyWhen, ...rest } = options
  const tm = useResolvedToolmark(toolmark, 'useToolmarkChat')
  const [session] = useState(createChatSession)
  const [fallback] = useState(() => new DefaultChatTransport<M>())
  // Unmounting ends the calls this chat started, like `useChat` stops its request; a remount
  // (StrictMode's, say) goes on as before.
  useEffect(() => {
    session.resume()
    return () => session.stop()
  }, [session])

  const chat = useChat<M>({
    ...rest,
    transport: session.transport(transport ?? fallback, tm),
    onToolCall: ({ toolCall }) => {
      const name = session.nameOf(toolCall.toolName, tm)
      if (name === undefined) return onToolCall?.({ toolCall })
      // Not awaited: the stream goes on while the call (and perhaps a person) works.
      void session
        .run(tm, name, toolCall.input)
        .then((output) =>
          chat.addToolOutput({
            tool: toolCall.toolName,
            toolCallId: toolCall.toolCallId,
            output,
          } as Parameters<UseChatHelpers<M>['addToolOutput']>[0]),
        )
        .catch(() => {
          // The chat was reset or unmounted: nobody is waiting for this output.
        })
    },
    sendAutomaticallyWhen: (state) =>
      !session.stopped &&
      (sendAutomaticallyWhen ?? lastAssistantMessageIsCompleteWithToolCalls)(state),
  })

  return useMemo(
    () => ({
      ...chat,
      sendMessage: (...args: Parameters<typeof chat.sendMessage>) => {
        session.resume()
        return chat.sendMessage(...args)
      },
      regenerate: (...args: Parameters<typeof chat.regenerate>) => {
        session.resume()
        return chat.regenerate(...args)
      },
      stop: () => {
        session.stop()
        return chat.stop()
      },
    }),
    [chat, session],
  )
}
