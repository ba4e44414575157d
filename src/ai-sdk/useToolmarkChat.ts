'use client'
import { useEffect, useMemo, useRef, useState } from 'react'
import type { Toolmark } from '@toolmark/core'
import { useChat } from '@ai-sdk/react'
import type { UseChatHelpers } from '@ai-sdk/react'
import {
  DefaultChatTransport,
  generateId,
  isToolUIPart,
  lastAssistantMessageIsCompleteWithToolCalls,
} from 'ai'
import type { ChatInit, ChatRequestOptions, CreateUIMessage, UIMessage } from 'ai'
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
  /**
   * What a message sent while the turn is busy (a response streaming, a tool call running or
   * waiting for a person) does. `'queue'` (the default): it waits in `queued` and goes out, in
   * order, once the turn ends. `'supersede'`: it ends the turn like `stop()` (the waiting call's
   * confirmation is withdrawn and the model reads `cancelled signal` for it) and goes out once
   * every tool call of the turn has its output.
   */
  whileWaiting?: 'queue' | 'supersede'
}

/** A message the person sent that waits for the turn to end. */
export interface QueuedMessage {
  readonly id: string
  /** The message's text parts, joined. */
  readonly text: string
}

/** What {@link useToolmarkChat} returns: `useChat`'s helpers, plus the queue. */
export type UseToolmarkChatHelpers<M extends UIMessage = UIMessage> = UseChatHelpers<M> & {
  /** The messages waiting for the turn to end, in the order they will be sent. */
  queued: readonly QueuedMessage[]
  /** Takes a queued message back: it is not sent. */
  removeQueued(id: string): void
}

type SendArgs<M extends UIMessage> = Parameters<UseChatHelpers<M>['sendMessage']>

/** A message held back until every tool call of the turn has its output. */
interface Held<M extends UIMessage> {
  message: CreateUIMessage<M> & { id: string }
  options?: ChatRequestOptions
  settle(): void
}

/** Whether the last assistant message has a tool call without its output (or an approval open). */
function waitsForTools(messages: readonly UIMessage[]): boolean {
  const last = messages.at(-1)
  return (
    last?.role === 'assistant' &&
    last.parts.some(
      (part) =>
        isToolUIPart(part) &&
        (part.state === 'approval-requested' ||
          part.state === 'approval-responded' ||
          (!part.providerExecuted &&
            (part.state === 'input-streaming' || part.state === 'input-available'))),
    )
  )
}

const textOf = (message: { parts: readonly { type: string; text?: string }[] }) =>
  message.parts
    .filter((part) => part.type === 'text')
    .map((part) => part.text ?? '')
    .join('\n')

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
 * tools go to your `onToolCall`. Takes and returns what `useChat` does, plus the queue.
 *
 * A message sent while the turn is busy (a confirmation open, a call running, a response
 * streaming) is never sent into the middle of it: by default it waits in `queued` (the UI shows
 * it; `removeQueued(id)` takes it back) and goes out, in order, once the turn ends, also when it
 * ended with a stop. With `whileWaiting: 'supersede'` it ends the turn instead, like `stop()`, and
 * goes out once every tool call has its output. Either way each tool call gets its result before
 * the next user message.
 *
 * @example
 * ```tsx
 * function Assistant() {
 *   const { messages, sendMessage, status, stop, queued, removeQueued } = useToolmarkChat({
 *     transport: new DefaultChatTransport({ api: '/api/chat' }),
 *   })
 *   return (
 *     <Chat
 *       messages={messages}
 *       queued={queued}
 *       onSend={(text) => sendMessage({ text })}
 *       onUnqueue={removeQueued}
 *       onStop={stop}
 *     />
 *   )
 * }
 * // Somewhere in the app: <ConfirmDialog />, so a person can approve what the model asks for.
 * ```
 */
export function useToolmarkChat<M extends UIMessage = UIMessage>(
  options: UseToolmarkChatOptions<M> = {},
): UseToolmarkChatHelpers<M> {
  const {
    toolmark,
    transport,
    onToolCall,
    sendAutomaticallyWhen,
    whileWaiting = 'queue',
    ...rest
  } = options
  const tm = useResolvedToolmark(toolmark, 'useToolmarkChat')
  const [session] = useState(createChatSession)
  const [fallback] = useState(() => new DefaultChatTransport<M>())
  // Calls this chat runs whose output is not in the thread yet (read live, not from a render).
  const running = useRef(0)
  // Messages held back after a stop until the turn's tool calls all have their outputs.
  const held = useRef<Held<M>[]>([])
  const [heldView, setHeldView] = useState<readonly QueuedMessage[]>([])
  const [tick, setTick] = useState(0)
  const publishHeld = () =>
    setHeldView(held.current.map(({ message }) => ({ id: message.id, text: textOf(message) })))
  // Unmounting ends the calls this chat started, like `useChat` stops its request; a remount
  // (StrictMode's, say) goes on as before.
  useEffect(() => {
    session.resume()
    return () => session.stop()
  }, [session])

  const chat = useChat<M>({
    ...rest,
    // The SDK's queue knows when its own requests run; `held` covers what it cannot see.
    experimental_queue: true,
    transport: session.transport(transport ?? fallback, tm),
    onToolCall: ({ toolCall }) => {
      const name = session.nameOf(toolCall.toolName, tm)
      if (name === undefined) return onToolCall?.({ toolCall })
      running.current++
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
        .finally(() => {
          running.current--
          setTick((n) => n + 1)
        })
    },
    sendAutomaticallyWhen: (state) =>
      !session.stopped &&
      (sendAutomaticallyWhen ?? lastAssistantMessageIsCompleteWithToolCalls)(state),
  })

  const { status, messages, experimental_queuedMessages: sdkQueued } = chat
  const busy = status === 'submitted' || status === 'streaming' || waitsForTools(messages)
  const latest = useRef({ busy, messages })
  useEffect(() => {
    latest.current = { busy, messages }
  })

  // The turn is over once no response runs and every tool call has its output: what waited goes
  // out then. After a stop the SDK's queue waits for the next message; the person's queued words
  // are not dropped by a stop, so they are sent here.
  useEffect(() => {
    if (status === 'submitted' || status === 'streaming') return
    if (running.current > 0 || waitsForTools(messages)) return
    if (held.current.length > 0) {
      const waiting = held.current.splice(0)
      publishHeld()
      session.resume()
      // Each send is synchronous up to its request: the first goes out, the SDK queues the rest.
      for (const { message, options: request, settle } of waiting) {
        void chat.sendMessage(message as SendArgs<M>[0], request).then(settle, settle)
      }
      return
    }
    if (session.stopped && sdkQueued.length > 0) {
      session.resume()
      void chat.experimental_sendQueuedMessageNow(sdkQueued[0].id)
    }
    // `publishHeld` and `chat` change with every render; the inputs that matter are listed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [status, messages, sdkQueued, tick, session])

  return useMemo(() => {
    /** A message in the form the SDK queues synchronously, with its id, or `undefined`. */
    const normalize = (message: SendArgs<M>[0]): Held<M>['message'] | undefined => {
      if (message === undefined || message.messageId !== undefined) return undefined
      if ('text' in message || 'files' in message) {
        const files = message.files ?? []
        if (!Array.isArray(files)) return undefined
        return {
          id: generateId(),
          role: 'user',
          metadata: message.metadata,
          parts: [
            ...files,
            ...('text' in message && message.text != null
              ? [{ type: 'text' as const, text: message.text }]
              : []),
          ],
        } as unknown as Held<M>['message']
      }
      return { ...message, id: message.id ?? generateId() } as Held<M>['message']
    }

    const sendMessage = async (...args: SendArgs<M>): Promise<void> => {
      const [message, request] = args
      const normalized = normalize(message)
      if (normalized === undefined) {
        session.resume()
        return chat.sendMessage(...args)
      }
      if (whileWaiting === 'supersede' && (latest.current.busy || running.current > 0)) {
        session.stop()
        await chat.stop()
      }
      // A stopped turn may still wait for a call's output (one the person approved runs on). The
      // SDK would send a message at once after a stop; it waits here until the outputs are in.
      if (
        held.current.length > 0 ||
        (session.stopped && (running.current > 0 || waitsForTools(latest.current.messages)))
      ) {
        return new Promise<void>((settle) => {
          held.current.push({ message: normalized, options: request, settle })
          publishHeld()
          setTick((n) => n + 1)
        })
      }
      session.resume()
      return chat.sendMessage(normalized as SendArgs<M>[0], request)
    }

    return {
      ...chat,
      sendMessage,
      regenerate: (...args: Parameters<typeof chat.regenerate>) => {
        session.resume()
        return chat.regenerate(...args)
      },
      stop: () => {
        session.stop()
        return chat.stop()
      },
      queued: [
        ...heldView,
        ...chat.experimental_queuedMessages.map((message) => ({
          id: message.id,
          text: textOf(message),
        })),
      ],
      removeQueued: (id: string) => {
        const index = held.current.findIndex(({ message }) => message.id === id)
        if (index === -1) return chat.experimental_removeQueuedMessage(id)
        const [removed] = held.current.splice(index, 1)
        publishHeld()
        removed.settle()
      },
    }
  }, [chat, session, heldView, whileWaiting])
}
