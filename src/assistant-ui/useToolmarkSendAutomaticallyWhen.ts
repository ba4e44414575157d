'use client'
import { useCallback, useEffect, useRef } from 'react'
import type { Toolmark } from '@toolmark/core'
import { useResolvedToolmark } from '../ToolmarkContext'
import { wasStopped } from './stoppedToolCalls'

/** The part of an AI SDK `UIMessage` this hook reads. */
export interface AutoSendMessage {
  role: string
  parts: readonly unknown[]
}

/** The AI SDK's `sendAutomaticallyWhen` option, e.g. `lastAssistantMessageIsCompleteWithToolCalls`. */
export type SendAutomaticallyWhen<TMessage extends AutoSendMessage> = (options: {
  messages: TMessage[]
}) => boolean | PromiseLike<boolean>

/** Options of {@link useToolmarkSendAutomaticallyWhen}. */
export interface UseToolmarkSendAutomaticallyWhenOptions {
  /** The registry to use instead of the nearest `<ToolProvider>`'s. */
  toolmark?: Toolmark
}

const toolCallIdOf = (part: unknown): string | undefined => {
  const id = (part as { toolCallId?: unknown } | null)?.toolCallId
  return typeof id === 'string' ? id : undefined
}

/**
 * `when`, except after a stop: the `sendAutomaticallyWhen` to give assistant-ui's
 * `useChatRuntime` (or the AI SDK's `Chat`) when the page's tools run through
 * `useToolmarkAssistantTools`. Stopping a run while a page tool call is in flight ends the call,
 * and the runtime records it as an error; `when` alone would then send the conversation on by
 * itself, as if the person had not asked the assistant to stop. This answers `false` while the
 * last assistant message holds such a call, so the next step waits for the person's next message.
 * The result is the same function for the same registry.
 *
 * @example
 * ```tsx
 * const sendAutomaticallyWhen = useToolmarkSendAutomaticallyWhen(
 *   lastAssistantMessageIsCompleteWithToolCalls,
 * )
 * const runtime = useChatRuntime({ transport, sendAutomaticallyWhen })
 * ```
 */
export function useToolmarkSendAutomaticallyWhen<TMessage extends AutoSendMessage>(
  when: SendAutomaticallyWhen<TMessage>,
  options: UseToolmarkSendAutomaticallyWhenOptions = {},
): SendAutomaticallyWhen<TMessage> {
  const tm = useResolvedToolmark(options.toolmark, 'useToolmarkSendAutomaticallyWhen')
  const latest = useRef(when)
  useEffect(() => {
    latest.current = when
  })
  return useCallback<SendAutomaticallyWhen<TMessage>>(
    ({ messages }) => {
      const last = messages[messages.length - 1]
      if (last?.role === 'assistant') {
        for (const part of last.parts) {
          const id = toolCallIdOf(part)
          if (id !== undefined && wasStopped(tm, id)) return false
        }
      }
      return latest.current({ messages })
    },
    [tm],
  )
}
