import { useMemo } from 'react'
import { lastAssistantMessageIsCompleteWithToolCalls } from 'ai'
import {
  AssistantRuntimeProvider,
  AuiIf,
  ComposerPrimitive,
  ThreadPrimitive,
} from '@assistant-ui/react'
import type { ThreadMessage } from '@assistant-ui/react'
import { AssistantChatTransport, useChatRuntime } from '@assistant-ui/react-ai-sdk'
import { TOOLMARK_BODY_FIELD, chatToolList } from '@toolmark/core/ai-sdk'
import { ConfirmDialog, useToolmark } from '@toolmark/react'
import {
  useToolmarkAssistantTools,
  useToolmarkSendAutomaticallyWhen,
} from '@toolmark/react/assistant-ui'

type Part = ThreadMessage['content'][number]
type ToolCallPart = Extract<Part, { type: 'tool-call' }>

/**
 * A tool call as a person reads it: which tool, and where it stands. An error result is a call
 * the route refused (arguments the page's schema does not accept, a tool the page does not have)
 * or one the person stopped: either way the page ran nothing.
 */
function ToolLine({ part }: { part: ToolCallPart }) {
  const state =
    part.result === undefined
      ? 'running'
      : part.isError
        ? 'not run'
        : (((part.result as { status?: unknown }).status as string | undefined) ?? 'done')
  return (
    <p className="tool-line" data-state={state}>
      <code>{part.toolName.replace(/__/g, '.')}</code> {state}
    </p>
  )
}

/** The page's tools in the runtime's model context, while mounted. */
function PageTools() {
  useToolmarkAssistantTools()
  return null
}

/** Where the chat's requests go; `fetch` lets a test answer them in process. */
export interface AssistantChatProps {
  /** The chat route. Default `/api/chat`, the same route `useToolmarkChat` uses. */
  api?: string
  /** The `fetch` the transport uses. Default: the global one. */
  fetch?: typeof globalThis.fetch
}

/**
 * assistant-ui on the AI SDK runtime: `useChatRuntime` with assistant-ui's transport, the page's
 * tools as frontend tools (`useToolmarkAssistantTools`), and `sendAutomaticallyWhen` so the
 * conversation goes on once every tool call of a step has its result (and not after a Stop). Every request also carries
 * the page's tool list (`body.toolmark`), so the route checks the model's arguments against the
 * page's schemas with `toolsFromManifest` before any reach the page.
 */
export function AssistantChat({ api = '/api/chat', fetch }: AssistantChatProps) {
  const tm = useToolmark()
  const transport = useMemo(
    () =>
      new AssistantChatTransport({
        api,
        fetch,
        // Read at each request, so the route sees the tools as they are when the person sends.
        body: () => ({ [TOOLMARK_BODY_FIELD]: chatToolList(tm) }),
      }),
    [api, fetch, tm],
  )
  // Goes on once every tool call of a step has its result, but not after the person pressed Stop.
  const sendAutomaticallyWhen = useToolmarkSendAutomaticallyWhen(
    lastAssistantMessageIsCompleteWithToolCalls,
  )
  const runtime = useChatRuntime({ transport, sendAutomaticallyWhen })
  return (
    <AssistantRuntimeProvider runtime={runtime}>
      <PageTools />
      <section className="card chat" aria-label="Assistant">
        <h2>Assistant</h2>
        <ThreadPrimitive.Root>
          <ol className="messages" aria-label="Conversation">
            <ThreadPrimitive.Messages>
              {({ message }) => (
                <li className={`message message--${message.role}`}>
                  {message.content.map((part, i) =>
                    part.type === 'text' ? (
                      <p key={i}>{part.text}</p>
                    ) : part.type === 'tool-call' ? (
                      <ToolLine key={i} part={part} />
                    ) : null,
                  )}
                </li>
              )}
            </ThreadPrimitive.Messages>
          </ol>
          <ComposerPrimitive.Root className="composer">
            <ComposerPrimitive.Input aria-label="Message" placeholder="File a ticket about…" />
            <AuiIf condition={(state) => state.thread.isRunning}>
              <ComposerPrimitive.Cancel>Stop</ComposerPrimitive.Cancel>
            </AuiIf>
            <AuiIf condition={(state) => !state.thread.isRunning}>
              <ComposerPrimitive.Send>Send</ComposerPrimitive.Send>
            </AuiIf>
          </ComposerPrimitive.Root>
        </ThreadPrimitive.Root>
        {/* Here, so the dialog's Stop reaches this chat: the modal dialog blocks the one above. */}
        <ConfirmDialog onStop={() => runtime.thread.cancelRun()} />
      </section>
    </AssistantRuntimeProvider>
  )
}
