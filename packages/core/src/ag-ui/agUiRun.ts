import { isPlainObject } from '../base/guards'
import { randomId } from '../base/ids'
import { reportError } from '../events/reportError'
import type { Toolmark } from '../types'
import { AG_UI_METADATA_KEY, agUiTools } from './agUiTools'
import type {
  AgUiAgent,
  AgUiInterrupt,
  AgUiMessage,
  AgUiResumeEntry,
  AgUiToolCall,
} from './agUiTypes'

/** How one run of the agent ended, with the tool calls it left for the page. */
export type AgUiRunOutcome =
  | { type: 'success'; pending: string[] }
  | { type: 'interrupt'; interrupts: AgUiInterrupt[] }
  | { type: 'cancelled' }
  | { type: 'error'; message: string }

/**
 * One run of the agent with the page's tools (and the answers to the agent's own interrupts):
 * how it finished, or why it failed. Never throws: a run that throws, reports `RUN_ERROR` or ends
 * without `RUN_FINISHED` is an `error` outcome.
 */
export async function runAgentOnce(
  agent: AgUiAgent,
  tools: ReturnType<typeof agUiTools>,
  resume: AgUiResumeEntry[] | undefined,
): Promise<AgUiRunOutcome> {
  let finished: Exclude<AgUiRunOutcome, { type: 'error' }> | undefined
  let failure: string | undefined
  try {
    await agent.runAgent(
      { tools: [...tools], ...(resume && resume.length > 0 ? { resume } : {}) },
      {
        onRunFinishedEvent(params) {
          if (params.outcome === 'interrupt') {
            finished = { type: 'interrupt', interrupts: [...params.interrupts] }
          } else if (params.outcome === 'cancelled') finished = { type: 'cancelled' }
          else finished = { type: 'success', pending: [...params.pendingToolCallIds] }
        },
        onRunErrorEvent(params) {
          failure ??= params.event.message
        },
        onRunFailed(params) {
          failure ??= params.error.message
        },
      },
    )
  } catch (error) {
    failure ??= error instanceof Error ? error.message : String(error)
  }
  if (failure !== undefined) return { type: 'error', message: failure }
  return finished ?? { type: 'error', message: 'The run ended without RUN_FINISHED' }
}

/**
 * One run with the page's tools as they are now (without approvals when a call that needs a
 * person could reach no one: inline, with no dialog mounted), and the registry's name of each
 * listed tool. A failed run is reported (`ag_ui_run_failed`).
 */
export async function runWithPageTools(
  tm: Toolmark,
  agent: AgUiAgent,
  mode: 'inline' | 'interrupt',
  resume: AgUiResumeEntry[] | undefined,
): Promise<{ outcome: AgUiRunOutcome; names: Map<string, string> }> {
  const presenter = tm.confirmations.hasPresenter()
  const tools = agUiTools(tm, { withoutApprovals: mode === 'inline' && !presenter })
  const names = new Map(tools.map((tool) => [tool.name, registryName(tool)]))
  const outcome = await runAgentOnce(agent, tools, resume)
  if (outcome.type === 'error') {
    reportError(tm, { code: 'ag_ui_run_failed', message: outcome.message })
  }
  return { outcome, names }
}

/**
 * The tool calls a run left pending that still need the page, in the order it listed them: each
 * once, none that a tool message answers already. An id no message holds is reported
 * (`ag_ui_unknown_tool_call`) and skipped.
 */
export function pendingToolCalls(
  tm: Toolmark,
  agent: AgUiAgent,
  pendingIds: readonly string[],
): AgUiToolCall[] {
  const calls = new Map<string, AgUiToolCall>()
  const answered = new Set<string>()
  for (const message of agent.messages) {
    for (const call of message.toolCalls ?? []) calls.set(call.id, call)
    if (isToolMessage(message)) answered.add(message.toolCallId)
  }
  const pending: AgUiToolCall[] = []
  for (const id of new Set(pendingIds)) {
    const call = calls.get(id)
    if (!call) {
      reportError(tm, {
        code: 'ag_ui_unknown_tool_call',
        message: `The run left tool call "${id}" pending, but no message holds it`,
      })
    } else if (!answered.has(id)) pending.push(call)
  }
  return pending
}

const isToolMessage = (message: AgUiMessage): message is AgUiMessage & { toolCallId: string } =>
  message.role === 'tool' && !!message.toolCallId

/** Adds a page tool call's answer to the thread, as the `tool` message the next run carries. */
export function addToolMessage(agent: AgUiAgent, toolCallId: string, content: unknown): void {
  agent.addMessage({
    id: randomId('tm_'),
    role: 'tool',
    toolCallId,
    content: JSON.stringify(content),
  })
}

/** Parses a tool call's arguments: empty text is `{}`; `ok: false` when they are not JSON. */
export function parseArguments(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: true, value: {} }
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch {
    return { ok: false }
  }
}

/** The registry's full name of a listed tool (its AG-UI name may be shortened). */
export function registryName(tool: { name: string; metadata?: Record<string, unknown> }): string {
  const meta = tool.metadata?.[AG_UI_METADATA_KEY]
  return isPlainObject(meta) && typeof meta.name === 'string' ? meta.name : tool.name
}
