import { isPlainObject } from '../base/guards'
import { randomId } from '../base/ids'
import { invalid, refuse } from '../base/results'
import { callForChat, chatToolResult } from '../ai-sdk/callForChat'
import { reportError } from '../events/reportError'
import { lendFeature } from '../confirmations/feature'
import { questions } from '../confirmations/questions'
import { createSubscribable } from '../events/subscribable'
import type { Phase } from '../call/call'
import { CALL_HOOKS, type CallHooks, type HookedCallOptions } from '../call/callHooks'
import type { ConfirmationEntry, ConfirmEvent, ToolResult, Toolmark } from '../types'
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
   * turn goes on. A question the call's run asks with `ctx.ask` ends the turn the same way
   * (`reason: 'tool_question'`, the question's JSON Schema as `responseSchema`), no dialog needed;
   * once answered the run goes on, and the turn with it when the call's result is in.
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

/** The `reason` of a question interrupt: a tool's `ctx.ask`, its `responseSchema` the question's. */
export const AG_UI_QUESTION_REASON = 'tool_question'

/**
 * One tool call the last run left for the page, from its start until its tool message goes back:
 * its result once the call is over, and the interrupt that holds it while it waits for a person.
 */
interface Held {
  toolCallId: string
  name: string
  /** Stop aborts it; the call's own signal. */
  controller: AbortController
  /** The registry's id of the call, which its confirmation and question entries carry. */
  callId?: string
  /** Where the call is in the registry (`interrupt` mode); a run that asks holds its slot. */
  phase: Phase
  /** Whether its tool message is known (`content`). */
  done: boolean
  content?: unknown
  /** The open approval or question of this call. */
  interrupt?: AgUiInterrupt
  /** Its deferred approval: the approved run answers the call, in that entry's last event. */
  approvalId?: string
  /** Told when the approved run asks a question (see `resume`). */
  onAsk?: (question: AgUiInterrupt) => void
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
  // In interrupt mode the session asks the runs' questions itself, so it brings their code.
  if (mode === 'interrupt') lendFeature(tm, questions())
  const changes = createSubscribable({
    label: 'AG-UI session',
    report: (event) => reportError(tm, event),
  })
  let snapshot: AgUiSessionSnapshot = IDLE
  // Each turn has its own controller: Stop aborts it, and a late answer of an old turn is ignored.
  let controller: AbortController | undefined
  let turn: Promise<AgUiTurnOutcome> | undefined
  // The last run's calls, in the order the model made them, until their tool messages go back;
  // the same calls by the registry's call id, and by the id of their open interrupt.
  let held: Held[] = []
  const byCallId = new Map<string, Held>()
  const byInterrupt = new Map<string, Held>()
  let agentInterrupts: AgUiInterrupt[] = []
  let agentAnswers: AgUiResumeEntry[] = []
  let stopConfirmEvents: (() => void) | undefined
  // The turn waiting for the held calls (`untilQuiet`) is woken by each change of them.
  let wake: (() => void) | undefined

  function set(next: Partial<AgUiSessionSnapshot>): void {
    const merged: AgUiSessionSnapshot = { ...snapshot, ...next }
    if (
      merged.status === snapshot.status &&
      sameList(merged.interrupts, snapshot.interrupts) &&
      merged.error === snapshot.error
    ) {
      return
    }
    if (merged.error === undefined) delete merged.error
    snapshot = Object.freeze(merged)
    changes.notify()
  }

  function openInterrupts(): AgUiInterrupt[] {
    const own: AgUiInterrupt[] = []
    for (const item of held) if (item.interrupt) own.push(item.interrupt)
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
    for (const item of held) addToolMessage(item.toolCallId, item.content)
    forget()
  }

  function forget(): void {
    held = []
    byCallId.clear()
    byInterrupt.clear()
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

  /** Something about the held calls changed: the waiting turn looks again, or the interrupts do. */
  function changed(): void {
    const waiting = wake
    wake = undefined
    waiting?.()
    if (snapshot.status === 'interrupted') void settleIfAnswered()
  }

  /** A held call is over: what its tool message says. */
  function finish(item: Held, result: ToolResult): void {
    if (item.done) return
    item.done = true
    item.content = chatToolResult(result, untrusted(item.name))
    // A question still open when its call ended (stopped, say) holds nothing any more.
    if (item.interrupt) byInterrupt.delete(item.interrupt.id)
    item.interrupt = undefined
  }

  /** The interrupt for an entry of a held call: its approval, or the question its run asks. */
  function interruptFor(entry: ConfirmationEntry, item: Held): AgUiInterrupt {
    const interrupt: AgUiInterrupt = entry.question
      ? {
          id: entry.id,
          reason: AG_UI_QUESTION_REASON,
          message: entry.question.prompt,
          toolCallId: item.toolCallId,
          responseSchema: entry.question.schema as Record<string, unknown>,
        }
      : {
          id: entry.id,
          reason: AG_UI_APPROVAL_REASON,
          message: entry.summary,
          toolCallId: item.toolCallId,
          responseSchema: AG_UI_APPROVAL_SCHEMA as Record<string, unknown>,
        }
    interrupt.metadata = { [AG_UI_METADATA_KEY]: { tool: item.name } }
    interrupt.expiresAt = new Date(entry.expiresAt).toISOString()
    return Object.freeze(interrupt)
  }

  function hold(entry: ConfirmationEntry, item: Held): void {
    item.interrupt = interruptFor(entry, item)
    // A deferred approval's answer is the call's result; anything else lets the call go on.
    if (entry.mode === 'deferred' && !entry.question) item.approvalId = entry.id
    byInterrupt.set(entry.id, item)
  }

  /**
   * Follows the entries of the held calls, known by the call id each got when it started (never
   * by tool name: two calls of one tool may ask at once, and other callers' entries are not ours).
   * Whoever answers (`resume`, the dialog, the store) and however an entry ends, its interrupt
   * closes here.
   */
  function onConfirm(event: ConfirmEvent): void {
    const { entry } = event
    const item = byCallId.get(entry.callId)
    if (!item || item.done) return
    if (event.type === 'requested') {
      if (item.interrupt) {
        // A run asks only once its approval is given: the question takes the approval's place.
        if (!entry.question || item.interrupt.reason !== AG_UI_APPROVAL_REASON) return
        byInterrupt.delete(item.interrupt.id)
      }
      hold(entry, item)
      item.onAsk?.(item.interrupt!)
      return changed()
    }
    if (entry.id === item.approvalId && event.result) {
      finish(item, event.result)
      return changed()
    }
    if (item.interrupt?.id !== entry.id) return
    byInterrupt.delete(entry.id)
    item.interrupt = undefined
    changed()
  }

  /** Runs one tool call of the agent; the held item learns its result, or what holds it. */
  async function runToolCall(call: AgUiToolCall, item: Held): Promise<void> {
    const args = parseArguments(call.function.arguments)
    if (!args.ok) {
      const bad = invalid([{ path: '', message: 'The arguments are not valid JSON' }])
      item.done = true
      item.content = chatToolResult(bad, false)
      return changed()
    }
    const { signal } = item.controller
    if (mode === 'inline') {
      const content = await callForChat(tm, item.name, args.value, { signal })
      if (!item.done) {
        item.done = true
        item.content = content
      }
      return changed()
    }
    const hooks: CallHooks = {
      started(callId) {
        item.callId = callId
        byCallId.set(callId, item)
      },
      showsQuestions: true,
      moved(phase) {
        item.phase = phase
        // Only noted here, inside the registry's move; the waiting turn looks again later.
        const waiting = wake
        wake = undefined
        waiting?.()
      },
    }
    const callOptions: HookedCallOptions = { caller: 'inapp', signal, [CALL_HOOKS]: hooks }
    const first = await tm.call(item.name, args.value, callOptions)
    if (first.status !== 'needs_confirmation') finish(item, first)
    else if (!item.done && !item.interrupt) {
      // Its `requested` event is how the approval is normally held; this is the fallback.
      const entry = tm.confirmations.get(first.confirmId)
      if (entry) hold(entry, item)
      else finish(item, refuse('confirmation_expired', 'The approval ended before it was shown'))
    }
    changed()
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

  /**
   * Whether the held calls are as far as they go without a person: each is over, waits for a
   * person, or waits in line behind a run that asks one (that run keeps its scope's slot, so a
   * call of the same scope cannot start before the answer).
   */
  function quiet(): boolean {
    if (held.every((item) => item.done)) return true
    const asking = held.some((item) => item.interrupt && item.phase === 'running')
    return (
      held.some((item) => item.interrupt) &&
      held.every((item) => item.done || item.interrupt || (asking && item.phase === 'queued'))
    )
  }

  /** Until the held calls are quiet (or the turn is stopped). */
  async function untilQuiet(signal: AbortSignal): Promise<void> {
    while (!signal.aborted && !quiet()) {
      await new Promise<void>((resolve) => (wake = resolve))
    }
  }

  /** Runs the agent until it stops needing the page; the heart of a turn. */
  async function drive(
    signal: AbortSignal,
    firstResume: AgUiResumeEntry[] | undefined,
  ): Promise<AgUiTurnOutcome> {
    let resume = firstResume
    for (let run = 0; ; run++) {
      if (held.length > 0) {
        // Answers go back in the order the model made the calls, once all of them are in: results
        // that are ready wait with the calls that wait for a person.
        await untilQuiet(signal)
        if (signal.aborted) return { type: 'cancelled' }
        const open = openInterrupts()
        if (open.length > 0) return { type: 'interrupt', interrupts: open }
        sendHeld()
      }
      if (run === maxRuns) {
        return { type: 'error', message: `The turn stopped after ${maxRuns} runs` }
      }
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
      held = pending.map((call) => ({
        toolCallId: call.id,
        name: names.get(call.function.name) ?? call.function.name,
        controller: new AbortController(),
        phase: 'checking' as const,
        done: false,
      }))
      held.forEach((item, i) => void runToolCall(pending[i], item))
    }
  }

  function nameOf(tool: { name: string; metadata?: Record<string, unknown> }): string {
    const meta = tool.metadata?.[AG_UI_METADATA_KEY]
    return isPlainObject(meta) && typeof meta.name === 'string' ? meta.name : tool.name
  }

  /** Starts (or goes on with) a turn; one at a time. */
  function startTurn(resume: AgUiResumeEntry[] | undefined): Promise<AgUiTurnOutcome> {
    const own = new AbortController()
    controller = own
    stopConfirmEvents ??= tm.events.on('confirm', onConfirm)
    set({ status: 'running', interrupts: [], error: undefined })
    const current = drive(own.signal, resume).then(
      (outcome): AgUiTurnOutcome | Promise<AgUiTurnOutcome> => {
        if (controller !== own) return outcome
        if (outcome.type === 'interrupt') {
          // Answers may have come while the turn was ending: what is open now is what counts.
          const open = openInterrupts()
          set({ status: 'interrupted', interrupts: Object.freeze(open) })
          return settleIfAnswered() ?? { type: 'interrupt', interrupts: open }
        }
        turn = undefined
        controller = undefined
        stopConfirmEvents?.()
        stopConfirmEvents = undefined
        set({
          status: 'idle',
          interrupts: [],
          error: outcome.type === 'error' ? outcome.message : undefined,
        })
        return outcome
      },
    )
    turn = current
    return current
  }

  /**
   * Once every interrupt has its answer the turn goes on: it waits for the calls the answers let
   * run, sends their tool messages and runs the agent again.
   */
  function settleIfAnswered(): Promise<AgUiTurnOutcome> | undefined {
    if (snapshot.status !== 'interrupted') return undefined
    const open = openInterrupts()
    if (open.length > 0) {
      set({ interrupts: Object.freeze(open) })
      return undefined
    }
    const resume = agentAnswers
    agentAnswers = []
    return startTurn(resume)
  }

  /** Resolves when the held call's approved run asks a question. */
  function asked(item: Held): Promise<ToolResult> {
    return new Promise((resolve) => {
      item.onAsk = (question) =>
        resolve(
          Object.freeze({
            status: 'needs_confirmation',
            confirmId: question.id,
            summary: question.message ?? '',
          }),
        )
    })
  }

  /** Applies one answer to one of the page's interrupts. */
  function answer(interrupt: AgUiInterrupt, entry: AgUiResumeEntry): Promise<ToolResult> {
    const { id } = interrupt
    if (interrupt.reason === AG_UI_QUESTION_REASON) {
      // The store checks the payload against the question's schema: `invalid` keeps it open.
      return entry.status === 'cancelled'
        ? tm.confirmations.reject(id)
        : tm.confirmations.answer(id, entry.payload)
    }
    if (entry.status === 'cancelled') return tm.confirmations.reject(id, 'cancelled')
    const payload = entry.payload
    if (!isPlainObject(payload) || typeof payload.approved !== 'boolean') {
      return Promise.resolve(invalid([{ path: 'approved', message: 'Expected true or false' }]))
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
      // Only a resume that answered something waits for the turn it sent on.
      let answeredAny = false
      for (const entry of Array.isArray(entries) ? entries : []) {
        const id =
          isPlainObject(entry) && typeof entry.interruptId === 'string' ? entry.interruptId : ''
        const item = byInterrupt.get(id)
        if (item?.interrupt && snapshot.status === 'interrupted') {
          const { interrupt } = item
          // An approved run may ask a question before it ends (even inside `approve`): the
          // approval is given, and the question is what is left to answer (`needs_confirmation`
          // names it).
          const asking = interrupt.reason === AG_UI_APPROVAL_REASON ? asked(item) : undefined
          const answering = answer(interrupt, entry)
          const result = await (asking ? Promise.race([answering, asking]) : answering)
          item.onAsk = undefined
          answeredAny = true
          // The store's answer ends the entry, and its `confirm` event closed the interrupt
          // already; this covers an approval whose event said nothing of its result.
          const over = result.status !== 'invalid' && result.status !== 'needs_confirmation'
          if (id === item.approvalId && over && !item.done && !tm.confirmations.get(id)) {
            finish(item, result)
            changed()
          }
          answers.push({ interruptId: id, result })
          continue
        }
        if (agentInterrupts.some((i) => i.id === id) && snapshot.status === 'interrupted') {
          agentAnswers = [...agentAnswers.filter((a) => a.interruptId !== id), entry]
          agentInterrupts = agentInterrupts.filter((i) => i.id !== id)
          answeredAny = true
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
      // An answer's event may already have sent the turn on; then that is the turn to wait for.
      const next =
        settleIfAnswered() ?? (answeredAny && snapshot.status === 'running' ? turn : undefined)
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
    for (const item of held) {
      // Aborting the call withdraws its question or inline approval; a deferred approval outlives
      // its call and is withdrawn here (`cancelled operator` in the store).
      item.controller.abort()
      // An approved run is a call of its own, which the abort does not reach: its question is
      // declined here.
      if (item.interrupt && item.approvalId) {
        void tm.confirmations.reject(item.interrupt.id, 'cancelled')
      }
    }
    forget()
    agentInterrupts = []
    agentAnswers = []
    const waiting = wake
    wake = undefined
    waiting?.()
    set({ status: 'idle', interrupts: [], error: undefined })
  }
}

function sameList(a: readonly AgUiInterrupt[], b: readonly AgUiInterrupt[]): boolean {
  return a === b || (a.length === b.length && a.every((item, i) => item === b[i]))
}
