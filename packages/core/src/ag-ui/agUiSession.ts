import { isPlainObject } from '../base/guards'
import { randomId } from '../base/ids'
import { invalid, refuse } from '../call/results'
import { callForChat, chatToolResult } from '../ai-sdk/callForChat'
import { reportError } from '../events/reportError'
import { createSubscribable } from '../events/subscribable'
import type { ToolResult, Toolmark } from '../types'
import { AG_UI_METADATA_KEY, agUiTools } from './agUiTools'
import type {
  AgUiAgent,
  AgUiInterrupt,
  AgUiMessage,
  AgUiResumeEntry,
  AgUiToolCall,
} from './agUiTypes'

/** How a call that needs a person reaches them. */
export type AgUiConfirmations = 'inline' | 'interrupt'

/** Options of {@link createAgUiSession}. */
export interface AgUiSessionOptions {
  /** The AG-UI agent, such as `new HttpAgent({ url })` from `@ag-ui/client`. */
  agent: AgUiAgent
  /**
   * `inline` (default): a call that needs a person waits in the page (`<ConfirmDialog>`) and the
   * agent gets the final result. `interrupt`: the turn ends with an AG-UI interrupt per such call
   * (`reason: 'tool_approval'`, an approval `responseSchema`, `expiresAt`), for UIs that render
   * interrupts; the person's answer (`resume`, or the dialog) runs or withdraws the call and the
   * turn goes on.
   */
  confirmations?: AgUiConfirmations
  /** Runs one turn may start before it stops (default 10): a model that loops cannot spin forever. */
  maxRuns?: number
}

/** Where the session is. */
export type AgUiSessionStatus = 'idle' | 'running' | 'interrupted'

/** A session's state, for a UI. The same object until something changes. */
export interface AgUiSessionSnapshot {
  status: AgUiSessionStatus
  /** The open interrupts: the page's approvals and the agent's own. */
  interrupts: readonly AgUiInterrupt[]
  /** Why the last turn failed, until the next one starts. */
  error?: string
}

/** How a turn ended. */
export type AgUiTurnOutcome =
  | { type: 'success' }
  | { type: 'interrupt'; interrupts: AgUiInterrupt[] }
  | { type: 'cancelled' }
  | { type: 'error'; message: string }
  /** A turn was already under way or waiting on interrupts: nothing was sent. */
  | { type: 'busy' }

/** What {@link AgUiSession.resume} did with each entry, and how the turn went on. */
export interface AgUiResumeOutcome {
  /** One per entry of the page's own interrupts (and refusals of unknown ones), in order. */
  answers: { interruptId: string; result: ToolResult }[]
  /** The turn that went on once every interrupt was answered; `busy` while some are still open. */
  turn: AgUiTurnOutcome
}

/** A conversation with an AG-UI agent whose frontend tools are the page's tools. */
export interface AgUiSession {
  /** Adds a user message (when given) and runs the agent until it answers, is interrupted or fails. */
  send(text?: string): Promise<AgUiTurnOutcome>
  /** Answers open interrupts (AG-UI `ResumeEntry` shapes); the turn goes on once all are answered. */
  resume(entries: readonly AgUiResumeEntry[]): Promise<AgUiResumeOutcome>
  /** Stop: aborts the run and every call in it; withdraws the turn's pending approvals. */
  stop(): void
  subscribe(listener: () => void): () => void
  getSnapshot(): AgUiSessionSnapshot
  /** Stops and forgets the registry's events. */
  dispose(): void
}

/** The `responseSchema` of an approval interrupt. */
export const AG_UI_APPROVAL_SCHEMA: Readonly<Record<string, unknown>> = Object.freeze({
  type: 'object',
  properties: Object.freeze({
    approved: Object.freeze({ type: 'boolean', description: 'Whether the person approves.' }),
    reason: Object.freeze({ type: 'string', description: 'Why not, when they deny.' }),
  }),
  required: Object.freeze(['approved']),
  additionalProperties: false,
})

/** The `reason` of an approval interrupt. */
export const AG_UI_APPROVAL_REASON = 'tool_approval'

/** One of the page's approvals: the tool call it holds back and, once answered, its result. */
interface Approval {
  interrupt: AgUiInterrupt
  toolCallId: string
  name: string
  result?: ToolResult
}

const IDLE: AgUiSessionSnapshot = Object.freeze({ status: 'idle', interrupts: Object.freeze([]) })

/**
 * Connects a registry to an AG-UI agent: each run carries the page's tools as frontend tools
 * ({@link agUiTools}); each tool call the run leaves for the page runs through `tm.call` as caller
 * `inapp`, once, and its result goes back as a `tool` message before the next run. A call that
 * needs a person waits inline or becomes an interrupt (see {@link AgUiSessionOptions}). An
 * interrupt the agent raises itself is shown as is and answered through `resume`, which the next
 * run carries. Never throws for what the agent sends: a failed run ends the turn `error`.
 */
export function createAgUiSession(tm: Toolmark, options: AgUiSessionOptions): AgUiSession {
  const { agent } = options
  const mode: AgUiConfirmations = options.confirmations === 'interrupt' ? 'interrupt' : 'inline'
  const maxRuns = options.maxRuns ?? 10
  const changes = createSubscribable({
    label: 'AG-UI session',
    report: (event) => reportError(tm, event),
  })
  let snapshot: AgUiSessionSnapshot = IDLE
  // Each turn has its own controller: Stop aborts it, and a late answer of an old turn is ignored.
  let controller: AbortController | undefined
  let turn: Promise<AgUiTurnOutcome> | undefined
  const approvals = new Map<string, Approval>()
  let agentInterrupts: AgUiInterrupt[] = []
  let agentAnswers: AgUiResumeEntry[] = []
  let stopConfirmEvents: (() => void) | undefined
  // The last run's answers, in call order, while some of them wait for a person.
  let held: { toolCallId: string; content?: unknown; approval?: Approval }[] = []

  function set(next: Partial<AgUiSessionSnapshot>): void {
    const merged: AgUiSessionSnapshot = { ...snapshot, ...next }
    if (
      merged.status === snapshot.status &&
      merged.interrupts === snapshot.interrupts &&
      merged.error === snapshot.error
    ) {
      return
    }
    if (merged.error === undefined) delete merged.error
    snapshot = Object.freeze(merged)
    changes.notify()
  }

  function openInterrupts(): AgUiInterrupt[] {
    const own = [...approvals.values()].filter((a) => !a.result).map((a) => a.interrupt)
    return [...own, ...agentInterrupts]
  }

  const answered = (message: AgUiMessage) => message.role === 'tool' && message.toolCallId
  function answeredIds(): Set<string> {
    const ids = new Set<string>()
    for (const message of agent.messages) if (answered(message)) ids.add(message.toolCallId!)
    return ids
  }

  function toolCallsById(): Map<string, AgUiToolCall> {
    const calls = new Map<string, AgUiToolCall>()
    for (const message of agent.messages) {
      for (const call of message.toolCalls ?? []) calls.set(call.id, call)
    }
    return calls
  }

  /** Adds the held answers of the last run as tool messages, in the order of its calls. */
  function sendHeld(): void {
    for (const item of held) {
      const content =
        item.approval === undefined
          ? item.content
          : chatToolResult(item.approval.result!, untrusted(item.approval.name))
      addToolMessage(item.toolCallId, content)
    }
    held = []
  }

  function addToolMessage(toolCallId: string, content: unknown): void {
    agent.addMessage({
      id: randomId('tm_'),
      role: 'tool',
      toolCallId,
      content: JSON.stringify(content),
    })
  }

  /** Parses the call's arguments; `undefined` when they are not JSON. */
  function parseArguments(text: string): { ok: true; value: unknown } | { ok: false } {
    if (text.trim() === '') return { ok: true, value: {} }
    try {
      return { ok: true, value: JSON.parse(text) as unknown }
    } catch {
      return { ok: false }
    }
  }

  function untrusted(name: string): boolean {
    return tm.describe(name, { caller: 'inapp' })?.hints.untrustedContent === true
  }

  /** Runs one tool call of the agent; resolves with what goes into its tool message, or an approval. */
  async function runToolCall(
    call: AgUiToolCall,
    names: Map<string, string>,
    signal: AbortSignal,
  ): Promise<{ content: unknown } | { approval: Approval }> {
    const name = names.get(call.function.name) ?? call.function.name
    const args = parseArguments(call.function.arguments)
    if (!args.ok) {
      const bad = invalid([{ path: '', message: 'The arguments are not valid JSON' }])
      return { content: chatToolResult(bad, false) }
    }
    if (mode === 'inline') return { content: await callForChat(tm, name, args.value, { signal }) }
    const first = await tm.call(name, args.value, { caller: 'inapp', signal })
    if (first.status !== 'needs_confirmation') {
      return { content: chatToolResult(first, untrusted(name)) }
    }
    const entry = tm.confirmations.get(first.confirmId)
    const interrupt: AgUiInterrupt = {
      id: first.confirmId,
      reason: AG_UI_APPROVAL_REASON,
      message: first.summary,
      toolCallId: call.id,
      responseSchema: AG_UI_APPROVAL_SCHEMA as Record<string, unknown>,
      metadata: { [AG_UI_METADATA_KEY]: { tool: name } },
    }
    if (entry) interrupt.expiresAt = new Date(entry.expiresAt).toISOString()
    return { approval: { interrupt: Object.freeze(interrupt), toolCallId: call.id, name } }
  }

  /** One run of the agent: its outcome, with the tool calls it left for the page. */
  async function runOnce(
    tools: ReturnType<typeof agUiTools>,
    resume: AgUiResumeEntry[] | undefined,
  ): Promise<
    | { type: 'success'; pending: string[] }
    | { type: 'interrupt'; interrupts: AgUiInterrupt[] }
    | { type: 'cancelled' }
    | { type: 'error'; message: string }
  > {
    let finished:
      | { type: 'success'; pending: string[] }
      | { type: 'interrupt'; interrupts: AgUiInterrupt[] }
      | { type: 'cancelled' }
      | undefined
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

  /** Runs the agent until it stops needing the page; the heart of a turn. */
  async function drive(
    signal: AbortSignal,
    firstResume: AgUiResumeEntry[] | undefined,
  ): Promise<AgUiTurnOutcome> {
    let resume = firstResume
    for (let run = 0; run < maxRuns; run++) {
      const presenter = tm.confirmations.hasPresenter()
      const tools = agUiTools(tm, { withoutApprovals: mode === 'inline' && !presenter })
      const names = new Map(tools.map((t) => [t.name, nameOf(t)]))
      const outcome = await runOnce(tools, resume)
      resume = undefined
      if (signal.aborted) return { type: 'cancelled' }
      if (outcome.type === 'error') {
        reportError(tm, { code: 'ag_ui_run_failed', message: outcome.message })
        return outcome
      }
      if (outcome.type === 'cancelled') return outcome
      if (outcome.type === 'interrupt') {
        agentInterrupts = outcome.interrupts
        return { type: 'interrupt', interrupts: openInterrupts() }
      }
      const calls = toolCallsById()
      const done = answeredIds()
      const pending: AgUiToolCall[] = []
      for (const id of new Set(outcome.pending)) {
        const call = calls.get(id)
        if (!call) {
          reportError(tm, {
            code: 'ag_ui_unknown_tool_call',
            message: `The run left tool call "${id}" pending, but no message holds it`,
          })
        } else if (!done.has(id)) pending.push(call)
      }
      if (pending.length === 0) return { type: 'success' }
      const results = await Promise.all(pending.map((call) => runToolCall(call, names, signal)))
      // Answers go back in the order the model made the calls, so results that are ready wait
      // with the approvals of the same run.
      held = results.map((outcome, i) =>
        'content' in outcome
          ? { toolCallId: pending[i].id, content: outcome.content }
          : { toolCallId: pending[i].id, approval: outcome.approval },
      )
      for (const item of held)
        if (item.approval) approvals.set(item.approval.interrupt.id, item.approval)
      if (approvals.size === 0) sendHeld()
      if (signal.aborted) return { type: 'cancelled' }
      if (approvals.size > 0) return { type: 'interrupt', interrupts: openInterrupts() }
    }
    return { type: 'error', message: `The turn stopped after ${maxRuns} runs` }
  }

  function nameOf(tool: { name: string; metadata?: Record<string, unknown> }): string {
    const meta = tool.metadata?.[AG_UI_METADATA_KEY]
    return isPlainObject(meta) && typeof meta.name === 'string' ? meta.name : tool.name
  }

  /** Starts (or goes on with) a turn; one at a time. */
  function startTurn(resume: AgUiResumeEntry[] | undefined): Promise<AgUiTurnOutcome> {
    const own = new AbortController()
    controller = own
    set({ status: 'running', interrupts: [], error: undefined })
    const current = drive(own.signal, resume).then((outcome) => {
      if (controller !== own) return outcome
      if (outcome.type === 'interrupt') {
        set({ status: 'interrupted', interrupts: Object.freeze(outcome.interrupts) })
        listenForAnswers()
      } else {
        turn = undefined
        controller = undefined
        set({
          status: 'idle',
          interrupts: [],
          error: outcome.type === 'error' ? outcome.message : undefined,
        })
      }
      return outcome
    })
    turn = current
    return current
  }

  /** While approvals are open, the dialog may answer them too. */
  function listenForAnswers(): void {
    if (stopConfirmEvents || approvals.size === 0) return
    stopConfirmEvents = tm.events.on('confirm', (event) => {
      const approval = approvals.get(event.entry.id)
      if (!approval || approval.result || event.type === 'requested' || !event.result) return
      approval.result = event.result
      settleIfAnswered()
    })
  }

  /** Once every interrupt has its answer, the tool messages go back and the turn goes on. */
  function settleIfAnswered(): Promise<AgUiTurnOutcome> | undefined {
    if (snapshot.status !== 'interrupted') return undefined
    const open = openInterrupts()
    if (open.length > 0) {
      set({ interrupts: Object.freeze(open) })
      return undefined
    }
    stopConfirmEvents?.()
    stopConfirmEvents = undefined
    sendHeld()
    approvals.clear()
    const resume = agentAnswers
    agentAnswers = []
    return startTurn(resume)
  }

  /** Applies one answer to one of the page's approvals. */
  async function answer(approval: Approval, entry: AgUiResumeEntry): Promise<ToolResult> {
    const id = approval.interrupt.id
    if (entry.status === 'cancelled') return tm.confirmations.reject(id, 'cancelled')
    const payload = entry.payload
    if (!isPlainObject(payload) || typeof payload.approved !== 'boolean') {
      return invalid([{ path: 'approved', message: 'Expected true or false' }])
    }
    if (payload.approved) return tm.confirmations.approve(id)
    return tm.confirmations.reject(
      id,
      typeof payload.reason === 'string' ? payload.reason : undefined,
    )
  }

  return {
    send(text) {
      if (turn) return Promise.resolve({ type: 'busy' })
      if (typeof text === 'string' && text !== '') {
        agent.addMessage({ id: randomId('tm_'), role: 'user', content: text })
      }
      return startTurn(undefined)
    },

    async resume(entries) {
      const answers: AgUiResumeOutcome['answers'] = []
      for (const entry of Array.isArray(entries) ? entries : []) {
        const id =
          isPlainObject(entry) && typeof entry.interruptId === 'string' ? entry.interruptId : ''
        const approval = approvals.get(id)
        if (approval && snapshot.status === 'interrupted') {
          const result = await answer(approval, entry)
          // The store's answer ends the approval (its `confirm` event usually said so already);
          // `invalid` leaves it open to answer again.
          if (!approval.result && result.status !== 'invalid' && !tm.confirmations.get(id)) {
            approval.result = result
          }
          answers.push({ interruptId: id, result })
          continue
        }
        if (agentInterrupts.some((i) => i.id === id) && snapshot.status === 'interrupted') {
          agentAnswers = [...agentAnswers.filter((a) => a.interruptId !== id), entry]
          agentInterrupts = agentInterrupts.filter((i) => i.id !== id)
          continue
        }
        answers.push({
          interruptId: id,
          result: refuse(
            'confirmation_expired',
            `No open interrupt "${id}": it expired, was answered or never existed`,
          ),
        })
      }
      // The dialog's event may already have sent the turn on; then that is the turn to wait for.
      const next = settleIfAnswered() ?? (snapshot.status === 'running' ? turn : undefined)
      return { answers, turn: next ? await next : { type: 'busy' } }
    },

    stop,
    subscribe: changes.subscribe,
    getSnapshot: () => snapshot,
    dispose: stop,
  }

  function stop(): void {
    const own = controller
    controller = undefined
    turn = undefined
    stopConfirmEvents?.()
    stopConfirmEvents = undefined
    own?.abort()
    agent.abortRun()
    // Withdrawn approvals end `cancelled operator` in the store; the agent hears nothing more.
    for (const approval of approvals.values()) {
      if (!approval.result) void tm.confirmations.reject(approval.interrupt.id, 'cancelled')
    }
    approvals.clear()
    agentInterrupts = []
    agentAnswers = []
    set({ status: 'idle', interrupts: [], error: undefined })
  }
}
