import { EventType } from '@ag-ui/core'
import type { BaseEvent, Message, RunAgentInput } from '@ag-ui/core'
import { EventEncoder } from '@ag-ui/encoder'
import { jsonSchema, streamText, tool } from 'ai'
import type { ModelMessage, ToolSet } from 'ai'
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider'
import { MockLanguageModelV4, convertArrayToReadableStream } from 'ai/test'

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
}

/** One model answer: tool calls (raw `input` text allowed), or text. */
export type ModelStep = { toolName: string; input: unknown }[] | string

/** A model scripted per request: tool calls, or a text answer. */
export function scriptedModel(steps: ModelStep[]) {
  let turn = 0
  return new MockLanguageModelV4({
    doStream: async () => {
      const step = steps[turn++] ?? 'Done.'
      const chunks: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }]
      if (typeof step === 'string') {
        chunks.push(
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: step },
          { type: 'text-end', id: 't' },
          { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
        )
      } else {
        step.forEach((call, i) =>
          chunks.push({
            type: 'tool-call',
            toolCallId: `call_${turn}_${i}`,
            toolName: call.toolName,
            input: JSON.stringify(call.input),
          }),
        )
        chunks.push({
          type: 'finish',
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
        })
      }
      return { stream: convertArrayToReadableStream(chunks) }
    },
  })
}

/** AG-UI messages as the AI SDK's model messages. */
function toModelMessages(messages: Message[]): ModelMessage[] {
  const names = new Map<string, string>()
  const out: ModelMessage[] = []
  for (const message of messages) {
    if (message.role === 'user') {
      out.push({ role: 'user', content: String(message.content) })
    } else if (message.role === 'assistant') {
      const parts: Exclude<ModelMessage & { role: 'assistant' }, undefined>['content'] = []
      if (typeof message.content === 'string' && message.content) {
        parts.push({ type: 'text', text: message.content })
      }
      for (const call of message.toolCalls ?? []) {
        names.set(call.id, call.function.name)
        let input: unknown
        try {
          input = JSON.parse(call.function.arguments)
        } catch {
          // The page answers such a call `invalid`; the model sees its own text back.
          input = { arguments: call.function.arguments }
        }
        parts.push({ type: 'tool-call', toolCallId: call.id, toolName: call.function.name, input })
      }
      out.push({ role: 'assistant', content: parts })
    } else if (message.role === 'tool') {
      out.push({
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: message.toolCallId,
            toolName: names.get(message.toolCallId) ?? 'unknown',
            output: { type: 'json', value: JSON.parse(String(message.content)) },
          },
        ],
      })
    }
  }
  return out
}

/** Options of {@link agUiServer}. */
export interface AgUiServerOptions {
  /** Events sent instead of the model's, for one request (by index): a hostile or odd agent. */
  script?: (input: RunAgentInput, request: number) => BaseEvent[] | undefined
}

/**
 * A local AG-UI server: reads `RunAgentInput`, offers the run's frontend tools to the model
 * (without `execute`, so their calls go back to the page), and streams the model's answer as
 * AG-UI events encoded by `@ag-ui/encoder`. Used as an `HttpAgent`'s `fetch`.
 */
export function agUiServer(model: MockLanguageModelV4, options: AgUiServerOptions = {}) {
  const inputs: RunAgentInput[] = []
  const encoder = new EventEncoder()

  async function* events(input: RunAgentInput, request: number): AsyncGenerator<BaseEvent> {
    const { threadId, runId } = input
    const scripted = options.script?.(input, request)
    if (scripted) {
      yield* scripted
      return
    }
    yield { type: EventType.RUN_STARTED, threadId, runId } as BaseEvent
    const tools: ToolSet = {}
    for (const t of input.tools) {
      tools[t.name] = tool({ description: t.description, inputSchema: jsonSchema(t.parameters) })
    }
    const result = streamText({ model, tools, messages: toModelMessages(input.messages) })
    const pending: string[] = []
    for await (const part of result.fullStream) {
      if (part.type === 'text-start') {
        yield { type: EventType.TEXT_MESSAGE_START, messageId: `m_${runId}`, role: 'assistant' }
      } else if (part.type === 'text-delta') {
        yield { type: EventType.TEXT_MESSAGE_CONTENT, messageId: `m_${runId}`, delta: part.text }
      } else if (part.type === 'text-end') {
        yield { type: EventType.TEXT_MESSAGE_END, messageId: `m_${runId}` }
      } else if (part.type === 'tool-call') {
        pending.push(part.toolCallId)
        yield {
          type: EventType.TOOL_CALL_START,
          toolCallId: part.toolCallId,
          toolCallName: part.toolName,
          parentMessageId: `a_${runId}`,
        } as BaseEvent
        const args = JSON.stringify(part.input)
        yield { type: EventType.TOOL_CALL_ARGS, toolCallId: part.toolCallId, delta: args }
        yield { type: EventType.TOOL_CALL_END, toolCallId: part.toolCallId }
      } else if (part.type === 'error') {
        yield { type: EventType.RUN_ERROR, message: String(part.error) } as BaseEvent
        return
      }
    }
    yield {
      type: EventType.RUN_FINISHED,
      threadId,
      runId,
      outcome: { type: 'success', pendingToolCallIds: pending },
    } as BaseEvent
  }

  const fetch = async (_url: string, init: RequestInit): Promise<Response> => {
    const input = JSON.parse(String(init.body)) as RunAgentInput
    const request = inputs.length
    inputs.push(input)
    const signal = init.signal
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        const bytes = new TextEncoder()
        try {
          for await (const event of events(input, request)) {
            if (signal?.aborted) break
            controller.enqueue(bytes.encode(encoder.encodeSSE(event)))
          }
          controller.close()
        } catch (error) {
          controller.error(error)
        }
      },
    })
    return new Response(body, { headers: { 'Content-Type': encoder.getContentType() } })
  }

  return { fetch, inputs }
}
