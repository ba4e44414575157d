import { isPlainObject } from '../base/guards'
import { randomId } from '../base/ids'
import { reportError } from '../events/reportError'
import { questionsEnabled } from '../observers/questionsEnabled'
import type { ToolResult, Toolmark } from '../types'
import { pendingToolCalls, runWithPageTools } from './agUiRun'
import { AgUiSessionState, type AgUiSessionSnapshot } from './agUiSessionState'
import type { AgUiAgent, AgUiInterrupt, AgUiResumeEntry } from './agUiTypes'
import { AgentInterrupts } from './agentInterrupts'
import { noInterrupt } from './agUiInterrupts'
import { HeldCalls, type AgUiConfirmations } from './heldCalls'

/** Options of {@link createAgUiSession}. */
export interface AgUiSessionOptions {
  /** The AG-UI agent, such as `new HttpAgent({ url })` from `@ag-ui/client`. */
  agent: AgUiAgent
  /**
   * `inline` (default): a call that needs a person waits in the page (`<ConfirmDialog>`) and the
   * agent gets the final result. `interrupt`: the turn ends with an AG-UI interrupt per such call
   * (`reason: 'tool_approval'`, an approval `responseSchema`, `expiresAt`), for UIs that render
   * interrupts; the person's answer there (`resume`) runs or withdraws the call and the turn goes
   * on. A question the call's run asks with `ctx.ask` ends the turn the same way
   * (`reason: 'tool_question'`, the question's JSON Schema as `responseSchema`), and so does a
   * `ctx.confirm` (`tool_approval`), no dialog needed; once answered the run goes on, and the turn
   * with it when the call's result is in. The interrupts are the one place these are asked: their
   * entries carry `presentedByCaller`, and `<ConfirmDialog>` leaves them out.
   */
  confirmations?: AgUiConfirmations
  /** Runs one turn may start before it stops (default 10): a model that loops cannot spin forever. */
  maxRuns?: number
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
  /**
   * Adds a user message (when given) and runs the agent until it answers, is interrupted or fails.
   * After a Stop, the calls it kept answer first (see `stop`).
   */
  send(text?: string): Promise<AgUiTurnOutcome>
  /** Answers open interrupts (AG-UI `ResumeEntry` shapes); the turn goes on once all are answered. */
  resume(entries: readonly AgUiResumeEntry[]): Promise<AgUiResumeOutcome>
  /**
   * Stop: aborts the run and every call in it; withdraws the turn's pending approvals. A call the
   * person already approved runs on: the next `send` waits for its real result and sends it as its
   * tool message before the user's message, so the model never repeats what was done.
   */
  stop(): void
  subscribe(listener: () => void): () => void
  getSnapshot(): AgUiSessionSnapshot
  /** Stops, forgets the calls a Stop kept, and forgets the registry's events. */
  dispose(): void
}

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
  // In interrupt mode the session asks the runs' questions itself: their code comes with
  // `questions()`, given to the registry at creation like every optional part.
  if (mode === 'interrupt' && !questionsEnabled(tm)) {
    const message =
      'createAgUiSession({ confirmations: "interrupt" }) asks the runs\' questions as interrupts: create the registry with createToolmark({ confirm: { questions: questions() } })'
    if (tm.dev) throw new Error(`[toolmark] ${message}`)
    reportError(tm, { code: 'invalid_options', message })
  }
  const state = new AgUiSessionState(tm)
  const held = new HeldCalls(tm, mode, changed)
  // Each turn has its own controller: Stop aborts it, and a late answer of an old turn is ignored.
  let controller: AbortController | undefined
  let turn: Promise<AgUiTurnOutcome> | undefined
  const agentInterrupts = new AgentInterrupts()

  const openInterrupts = (): AgUiInterrupt[] => [...held.interrupts(), ...agentInterrupts.open]

  /** Something about the held calls changed: the waiting turn looks again, or the interrupts do. */
  function changed(): void {
    held.wakeTurn()
    // A stopped turn (`turn` gone) never goes on, whatever its withdrawals tell.
    if (turn && state.status === 'interrupted') void settleIfAnswered()
  }

  /** Runs the agent until it stops needing the page; the heart of a turn. */
  async function drive(
    signal: AbortSignal,
    firstResume: AgUiResumeEntry[] | undefined,
    text?: string,
  ): Promise<AgUiTurnOutcome> {
    if (held.owing) {
      // What a Stop kept (an approved run) answers its call first, ahead of the new message.
      await held.untilKeptOver(signal)
      if (signal.aborted) return { type: 'cancelled' }
      held.sendKeptTo(agent)
    }
    if (typeof text === 'string' && text !== '') {
      agent.addMessage({ id: randomId('tm_'), role: 'user', content: text })
    }
    let resume = firstResume
    for (let run = 0; ; run++) {
      if (held.items.length > 0) {
        // Answers go back in the order the model made the calls, once all of them are in: results
        // that are ready wait with the calls that wait for a person.
        await held.untilQuiet(signal)
        if (signal.aborted) return { type: 'cancelled' }
        const open = openInterrupts()
        if (open.length > 0) return { type: 'interrupt', interrupts: open }
        held.sendTo(agent)
      }
      if (run === maxRuns) {
        return { type: 'error', message: `The turn stopped after ${maxRuns} runs` }
      }
      const { outcome, names } = await runWithPageTools(tm, agent, mode, resume)
      resume = undefined
      if (signal.aborted) return { type: 'cancelled' }
      if (outcome.type === 'error' || outcome.type === 'cancelled') return outcome
      if (outcome.type === 'interrupt') {
        agentInterrupts.raised(outcome.interrupts)
        return { type: 'interrupt', interrupts: openInterrupts() }
      }
      const pending = pendingToolCalls(tm, agent, outcome.pending)
      if (pending.length === 0) return { type: 'success' }
      held.start(pending, names).forEach((item, i) => void held.run(pending[i], item))
    }
  }

  /** Starts (or goes on with) a turn; one at a time. */
  function startTurn(
    resume: AgUiResumeEntry[] | undefined,
    text?: string,
  ): Promise<AgUiTurnOutcome> {
    const own = new AbortController()
    controller = own
    state.move('running', [])
    const current = drive(own.signal, resume, text).then(
      (outcome): AgUiTurnOutcome | Promise<AgUiTurnOutcome> => {
        if (controller !== own) return outcome
        if (outcome.type === 'interrupt') {
          // Answers may have come while the turn was ending: what is open now is what counts.
          const open = openInterrupts()
          state.move('interrupted', open)
          return settleIfAnswered() ?? { type: 'interrupt', interrupts: open }
        }
        endTurn()
        state.move('idle', [], outcome.type === 'error' ? outcome.message : undefined)
        return outcome
      },
    )
    turn = current
    return current
  }

  function endTurn(): void {
    turn = undefined
    controller = undefined
  }

  /**
   * Once every interrupt has its answer the turn goes on: it waits for the calls the answers let
   * run, sends their tool messages and runs the agent again.
   */
  function settleIfAnswered(): Promise<AgUiTurnOutcome> | undefined {
    if (state.status !== 'interrupted') return undefined
    const open = openInterrupts()
    if (open.length > 0) {
      state.interrupts(open)
      return undefined
    }
    return startTurn(agentInterrupts.takeAnswers())
  }

  function stop(): void {
    const own = controller
    endTurn()
    own?.abort()
    agent.abortRun()
    held.stop()
    agentInterrupts.clear()
    state.move('idle', [])
  }

  return {
    send(text) {
      if (turn) return Promise.resolve({ type: 'busy' })
      return startTurn(undefined, text)
    },

    async resume(entries) {
      const answers: AgUiResumeOutcome['answers'] = []
      // Only a resume that answered something waits for the turn it sent on.
      let answeredAny = false
      for (const entry of Array.isArray(entries) ? entries : []) {
        const id =
          isPlainObject(entry) && typeof entry.interruptId === 'string' ? entry.interruptId : ''
        const item = held.byInterrupt(id)
        const open = state.status === 'interrupted'
        if (open && item?.interrupt) {
          answers.push({ interruptId: id, result: await held.resume(item, entry) })
          answeredAny = true
        } else if (open && agentInterrupts.answer(id, entry)) answeredAny = true
        else answers.push({ interruptId: id, result: noInterrupt(id) })
      }
      // An answer's event may already have sent the turn on; then that is the turn to wait for.
      const next =
        settleIfAnswered() ?? (answeredAny && state.status === 'running' ? turn : undefined)
      return { answers, turn: next ? await next : { type: 'busy' } }
    },

    stop,
    subscribe: state.subscribe,
    getSnapshot: state.getSnapshot,
    dispose() {
      stop()
      held.dispose()
    },
  }
}
