import type { ToolResult } from '@toolmark/core'
import type { OpenAIChatPageTool } from '@toolmark/core/agent'
import { ApiError } from '../api.ts'

/** One chat-completions message, as the wire carries it. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool'
  content: string | null
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[]
  tool_call_id?: string
}

/** How many model rounds one request may take before the assistant gives up. */
const MAX_ROUNDS = 8

export interface ModelTurn {
  /** The conversation so far, ending with the user's message (the server adds the system prompt). */
  history: ChatMessage[]
  /** `pageTools(client, { format: 'openai' })`. */
  tools: OpenAIChatPageTool[]
  /**
   * Runs one tool call the model asked for (the panel shows it and waits for approvals);
   * resolves with what the model reads back, as JSON.
   */
  runTool(tool: OpenAIChatPageTool, args: string): Promise<unknown>
  signal?: AbortSignal
}

/**
 * Lets the configured model work on one request: sends the conversation and the two page tools
 * (through the example's server, which holds the key and the system prompt), runs the tool calls
 * it makes, returns their results as `tool` messages and repeats until the model answers in
 * words. The calls of one reply go out together, in the order the model made them (the page
 * runs them in that order, so a fill and the submit after it are one round). Resolves with the
 * final text and the grown conversation.
 */
export async function runModelTurn({
  history,
  tools,
  runTool,
  signal,
}: ModelTurn): Promise<{ text: string; history: ChatMessage[] }> {
  const messages = [...history]
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const reply = await chat(messages, tools, signal)
    messages.push(reply)
    if (!reply.tool_calls?.length) return { text: reply.content ?? '', history: messages }
    const results = await Promise.all(
      reply.tool_calls.map((call) => {
        const tool = tools.find((t) => t.function.name === call.function.name)
        return tool
          ? runTool(tool, call.function.arguments)
          : ({
              status: 'invalid',
              issues: [{ path: '', message: `Unknown tool ${call.function.name}; use page_call` }],
            } satisfies ToolResult)
      }),
    )
    reply.tool_calls.forEach((call, i) => {
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(results[i]) })
    })
  }
  return {
    text: 'I stopped after too many steps. Please try a simpler request.',
    history: messages,
  }
}

async function chat(
  messages: ChatMessage[],
  tools: OpenAIChatPageTool[],
  signal?: AbortSignal,
): Promise<ChatMessage> {
  // JSON.stringify drops each tool's `execute` and reads the live `description` getter, so the
  // model always sees the page's current tools.
  const response = await fetch('/api/assistant/chat', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ messages, tools }),
    signal,
  })
  const body = await response.json().catch(() => ({}))
  if (!response.ok) throw new ApiError(response.status, body)
  return (body as { message: ChatMessage }).message
}

/** Which model the server is configured with, or `null` (the scripted planner only). */
export async function fetchModel(signal?: AbortSignal): Promise<string | null> {
  const response = await fetch('/api/assistant', { signal })
  if (!response.ok) return null
  const body = (await response.json()) as { model?: string | null }
  return body.model ?? null
}
