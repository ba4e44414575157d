import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider'

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
}

type Message = LanguageModelV4CallOptions['prompt'][number]

interface ToolOutcome {
  toolName: string
  value: unknown
  failed: boolean
}

/** What the person asked for: a ticket title and a priority, read from their words. */
function readRequest(text: string): { title: string; priority: 'low' | 'normal' | 'high' } {
  const about = /\babout\s+(.+)$/i.exec(text.trim())
  const subject = (about ? about[1] : text).trim().replace(/[.!?]+$/, '')
  const title = subject.charAt(0).toUpperCase() + subject.slice(1)
  const priority = /\b(urgent|asap|down|broken|on fire)\b/i.test(text) ? 'high' : 'normal'
  return { title: title.slice(0, 80), priority }
}

/** The tool results of the last turn, newest last. */
function lastResults(prompt: Message[]): ToolOutcome[] {
  const last = prompt[prompt.length - 1]
  if (last?.role !== 'tool') return []
  return last.content.flatMap((part) =>
    part.type === 'tool-result'
      ? [
          {
            toolName: part.toolName,
            value: 'value' in part.output ? part.output.value : undefined,
            failed: part.output.type === 'error-text' || part.output.type === 'error-json',
          },
        ]
      : [],
  )
}

const statusOf = (value: unknown) =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {}

/** What to say once the tools answered. */
function summarize(results: ToolOutcome[]): string {
  const failed = results.find((r) => r.failed)
  if (failed) return `The ${failed.toolName} call was refused: ${String(failed.value)}`
  const submit = results.find((r) => r.toolName.endsWith('__submit'))
  const fill = results.find((r) => r.toolName.endsWith('__fill'))
  const outcome = statusOf(submit?.value ?? fill?.value)
  const data = statusOf(outcome.data)
  switch (outcome.status) {
    case 'ok':
      return submit
        ? `Created ticket ${String(data.id)}: “${String(data.title)}”.`
        : 'I filled in the form.'
    case 'cancelled':
      return outcome.by === 'operator'
        ? 'You declined, so I did not submit the ticket. The form keeps what I filled in.'
        : 'Stopped before the ticket was submitted.'
    case 'refused':
      return outcome.code === 'confirmation_expired'
        ? 'Nobody approved the ticket in time, so it was not submitted.'
        : `The page refused: ${String(outcome.message)}`
    case 'invalid':
      return `The form did not accept it: ${JSON.stringify(outcome.issues)}`
    default:
      return `The call ended ${String(outcome.status)}.`
  }
}

/** The model's turn: tool calls for a new request, words once the tools answered. */
function plan(options: LanguageModelV4CallOptions): LanguageModelV4Content[] {
  const { prompt } = options
  const results = lastResults(prompt)
  if (results.length > 0) return [{ type: 'text', text: summarize(results) }]
  const offered = new Set((options.tools ?? []).map((tool) => tool.name))
  if (!offered.has('ticket__fill') || !offered.has('ticket__submit')) {
    return [{ type: 'text', text: 'I cannot see the ticket form on this page.' }]
  }
  const last = prompt[prompt.length - 1]
  const text =
    last?.role === 'user'
      ? last.content.map((part) => (part.type === 'text' ? part.text : '')).join(' ')
      : ''
  if (!text.trim()) return [{ type: 'text', text: 'What should the ticket be about?' }]
  const values = readRequest(text)
  return [
    {
      type: 'tool-call',
      toolCallId: `fill_${Date.now()}`,
      toolName: 'ticket__fill',
      input: JSON.stringify({ values }),
    },
    {
      type: 'tool-call',
      toolCallId: `submit_${Date.now()}`,
      toolName: 'ticket__submit',
      input: '{}',
    },
  ]
}

const finishOf = (content: LanguageModelV4Content[]) =>
  content.some((part) => part.type === 'tool-call')
    ? { unified: 'tool-calls' as const, raw: 'tool_calls' }
    : { unified: 'stop' as const, raw: 'stop' }

/**
 * A deterministic stand-in for a model, used when no endpoint is configured: it files the
 * ticket the person describes (a fill and a submit in one step) and reports how it ended.
 */
export function scriptedModel(): LanguageModelV4 {
  return {
    specificationVersion: 'v4',
    provider: 'scripted',
    modelId: 'ticket-filer',
    supportedUrls: {},
    async doGenerate(options) {
      const content = plan(options)
      return { content, finishReason: finishOf(content), usage, warnings: [] }
    },
    async doStream(options) {
      const content = plan(options)
      const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }]
      for (const [i, part] of content.entries()) {
        if (part.type === 'text') {
          const id = `text_${i}`
          parts.push({ type: 'text-start', id })
          for (const word of part.text.split(/(?<= )/))
            parts.push({ type: 'text-delta', id, delta: word })
          parts.push({ type: 'text-end', id })
        } else parts.push(part as LanguageModelV4StreamPart)
      }
      parts.push({ type: 'finish', finishReason: finishOf(content), usage })
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part)
            controller.close()
          },
        }),
      }
    },
  }
}
