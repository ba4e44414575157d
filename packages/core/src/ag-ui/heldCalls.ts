import { isPlainObject } from '../base/guards'
import { invalid, refuse } from '../base/results'
import { callForChat, chatToolResult } from '../ai-sdk/callForChat'
import type { Phase } from '../call/call'
import type {
  CallObserver,
  CallOptions,
  ConfirmationEntry,
  ConfirmEvent,
  ToolResult,
  Toolmark,
} from '../types'
import { AG_UI_APPROVAL_REASON, answerInterrupt, interruptFor } from './agUiInterrupts'
import { addToolMessage, parseArguments } from './agUiRun'
import type { AgUiAgent, AgUiInterrupt, AgUiResumeEntry, AgUiToolCall } from './agUiTypes'

/** How a call that needs a person reaches them (`AgUiSessionOptions.confirmations`). */
export type AgUiConfirmations = 'inline' | 'interrupt'

/**
 * One tool call the last run left for the page, from its start until its tool message goes back:
 * its result once the call is over, and the interrupt that holds it while it waits for a person.
 */
export interface Held {
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
  /** Told when the approved run asks a question (see `AgUiSession.resume`). */
  onAsk?: (question: AgUiInterrupt) => void
  /** Kept through a Stop (see `HeldCalls.stop`): its tool message goes back before the next run. */
  kept?: true
}

/**
 * The page's share of a turn: the calls the last run left for it, in the order the model made
 * them, until their tool messages go back; the same calls by the registry's call id and by the id
 * of their open interrupt. It is the only writer of their state, and wakes the turn waiting on
 * them (`untilQuiet`) at each change. It hears each call's own `confirm` events through the call's
 * observer (`CallOptions.observe`), never the registry's every event.
 */
export class HeldCalls {
  #items: Held[] = []
  /** Calls a Stop kept because they went ahead; they answer first in the next turn. */
  #kept: Held[] = []
  readonly #byCallId = new Map<string, Held>()
  readonly #byInterrupt = new Map<string, Held>()
  #wake: (() => void) | undefined
  readonly #tm: Toolmark
  /** Told after each change that may close an interrupt or end a call. */
  readonly #changed: () => void

  readonly #mode: AgUiConfirmations

  constructor(tm: Toolmark, mode: AgUiConfirmations, changed: () => void) {
    this.#tm = tm
    this.#mode = mode
    this.#changed = changed
  }

  get items(): readonly Held[] {
    return this.#items
  }

  /** Holds the run's pending calls, in order; the previous ones are answered already. */
  start(calls: readonly AgUiToolCall[], names: ReadonlyMap<string, string>): Held[] {
    this.#items = calls.map((call) => ({
      toolCallId: call.id,
      name: names.get(call.function.name) ?? call.function.name,
      controller: new AbortController(),
      phase: 'checking' as const,
      done: false,
    }))
    return this.#items
  }

  /** Runs one tool call of the agent: the held item learns its result, or what holds it. */
  async run(call: AgUiToolCall, item: Held): Promise<void> {
    const tm = this.#tm
    const args = parseArguments(call.function.arguments)
    if (!args.ok) {
      const bad = invalid([{ path: '', message: 'The arguments are not valid JSON' }])
      return this.#answer(item, chatToolResult(bad, false))
    }
    const { signal } = item.controller
    if (this.#mode === 'inline') {
      return this.#answer(item, await callForChat(tm, item.name, args.value, { signal }))
    }
    const observe: CallObserver = {
      // The call's id: its entries are known by it.
      started: (callId) => {
        item.callId = callId
        this.#byCallId.set(callId, item)
      },
      // Its approval and what its run asks are interrupts, answered in the app's own UI: the
      // entries say so, and `<ConfirmDialog>` leaves them out.
      presentsConfirmations: true,
      // Only noted here, inside the registry's move; the waiting turn looks again later.
      moved: (phase) => {
        item.phase = phase
        this.#wakeTurn()
      },
      // The call's own approvals and questions, as they are asked and end.
      confirm: this.#onConfirm,
    }
    const callOptions: CallOptions = { caller: 'inapp', signal, observe }
    const first = await tm.call(item.name, args.value, callOptions)
    if (first.status !== 'needs_confirmation') this.#finish(item, first)
    else if (!item.done && !item.interrupt) {
      // Its `requested` event is how the approval is normally held; this is the fallback.
      const entry = tm.confirmations.get(first.confirmId)
      if (entry) this.#hold(entry, item)
      else
        this.#finish(item, refuse('confirmation_expired', 'The approval ended before it was shown'))
    }
    this.#changed()
  }

  /** Answers the held call's open interrupt; an approved run may ask a question before it ends. */
  async resume(item: Held, entry: AgUiResumeEntry): Promise<ToolResult> {
    const interrupt = item.interrupt!
    const { id } = interrupt
    // Even inside `approve`: then the approval is given, and the question is what is left to
    // answer (`needs_confirmation` names it).
    const asking = interrupt.reason === AG_UI_APPROVAL_REASON ? asked(item) : undefined
    const answering = answerInterrupt(this.#tm, interrupt, entry)
    const result = await (asking ? Promise.race([answering, asking]) : answering)
    item.onAsk = undefined
    // The store's answer ends the entry, and its `confirm` event closed the interrupt already;
    // this covers an approval whose event said nothing of its result.
    const over = result.status !== 'invalid' && result.status !== 'needs_confirmation'
    if (id === item.approvalId && over && !item.done && !this.#tm.confirmations.get(id)) {
      this.#finish(item, result)
      this.#changed()
    }
    return result
  }

  /** The held call whose open interrupt this is. */
  byInterrupt(id: string): Held | undefined {
    return this.#byInterrupt.get(id)
  }

  /** The open interrupts of the page's calls, in the order of the calls. */
  interrupts(): AgUiInterrupt[] {
    const own: AgUiInterrupt[] = []
    for (const item of this.#items) if (item.interrupt) own.push(item.interrupt)
    return own
  }

  /** The call's tool message is this content (a call whose arguments were not JSON, say). */
  #answer(item: Held, content: unknown): void {
    if (!item.done) {
      item.done = true
      item.content = content
    }
    this.#changed()
  }

  /** The call is over with this result; its tool message says it. */
  #finish(item: Held, result: ToolResult): void {
    if (item.done) return
    item.done = true
    item.content = chatToolResult(result, this.#untrusted(item.name))
    // A question still open when its call ended (stopped, say) holds nothing any more.
    if (item.interrupt) this.#byInterrupt.delete(item.interrupt.id)
    item.interrupt = undefined
  }

  /** The call waits for a person on this entry: its interrupt is open. */
  #hold(entry: ConfirmationEntry, item: Held): void {
    item.interrupt = interruptFor(entry, item.toolCallId, item.name)
    // A deferred approval's answer is the call's result; anything else lets the call go on.
    if (entry.mode === 'deferred' && !entry.question) item.approvalId = entry.id
    this.#byInterrupt.set(entry.id, item)
  }

  /**
   * Follows the entries of the held calls, known by the call id each got when it started (never
   * by tool name: two calls of one tool may ask at once, and other callers' entries are not ours).
   * Each entry is shown only here (`presentedByCaller`), so each one becomes the call's interrupt,
   * waits in the store behind the one open, or is declined at once when nobody is there to
   * answer. Whoever answers (`resume`, the store) and however an entry ends, its interrupt closes
   * here, and the call's next open entry takes its place.
   */
  readonly #onConfirm = (event: ConfirmEvent): void => {
    const { entry } = event
    const item = this.#byCallId.get(entry.callId)
    if (event.status === 'pending' && (!item || item.done || item.kept)) {
      // Stopped or forgotten: nobody is there to answer, so a run that asks now is declined.
      void this.#tm.confirmations.reject(entry.id, 'cancelled')
      return
    }
    if (!item || item.done) return
    if (event.status === 'pending') {
      const open = item.interrupt
      // The open interrupt's entry is still pending: this one waits behind it, in the store.
      if (open && this.#tm.confirmations.get(open.id)) return
      // A run asks only once its approval is given: what it asks takes the approval's place.
      if (open) this.#byInterrupt.delete(open.id)
      this.#hold(entry, item)
      item.onAsk?.(item.interrupt!)
      return this.#changed()
    }
    if (entry.id === item.approvalId && event.result) {
      this.#finish(item, event.result)
      return this.#changed()
    }
    if (item.interrupt?.id !== entry.id) return
    this.#byInterrupt.delete(entry.id)
    item.interrupt = undefined
    // What the run asked meanwhile (two asks at once) is the call's interrupt now.
    const next = this.#tm.confirmations.list().find((e) => e.callId === item.callId)
    if (next) this.#hold(next, item)
    this.#changed()
  }

  /**
   * Whether the held calls are as far as they go without a person: each is over, waits for a
   * person, or waits in line behind a run that asks one (that run keeps its scope's slot, so a
   * call of the same scope cannot start before the answer).
   */
  quiet(): boolean {
    const items = this.#items
    if (items.every((item) => item.done)) return true
    const asking = items.some((item) => item.interrupt && item.phase === 'running')
    return (
      items.some((item) => item.interrupt) &&
      items.every((item) => item.done || item.interrupt || (asking && item.phase === 'queued'))
    )
  }

  /** Until the held calls are quiet (or the turn is stopped). */
  async untilQuiet(signal: AbortSignal): Promise<void> {
    while (!signal.aborted && !this.quiet()) {
      await new Promise<void>((resolve) => (this.#wake = resolve))
    }
  }

  /** Something about the held calls changed: the turn waiting for them looks again. */
  wakeTurn(): void {
    this.#wakeTurn()
  }

  /** Adds every held call's answer as a tool message, in the order of the calls, and forgets them. */
  sendTo(agent: AgUiAgent): void {
    for (const item of this.#items) addToolMessage(agent, item.toolCallId, item.content)
    this.#forget()
  }

  /**
   * Stops every held call: aborting a call withdraws its question or inline approval; a deferred
   * approval outlives its call and is withdrawn too (`cancelled operator` in the store), and an
   * approved run, a call of its own the abort does not reach, has its question declined.
   *
   * A call whose approval was already given is kept, like every call not waiting on a person: an
   * approved run goes on after the Stop, and the model must read its real result, or it may do
   * it again (a payment, say). Each kept call that ends with something other than `cancelled`
   * answers before the next run (`sendKeptTo`); a call whose approval was still open ends as it
   * always did, withdrawn, with no tool message.
   */
  stop(): void {
    for (const item of this.#items) {
      // Read before the withdrawal below takes a pending entry out of the store too.
      const unanswered =
        item.approvalId !== undefined && this.#tm.confirmations.get(item.approvalId) !== undefined
      item.controller.abort()
      if (item.interrupt && item.approvalId) {
        void this.#tm.confirmations.reject(item.interrupt.id, 'cancelled')
      }
      if (!unanswered) {
        item.kept = true
        this.#kept.push(item)
      }
    }
    this.#forget()
    this.#wakeTurn()
  }

  /** Whether calls kept through a Stop still owe the agent their tool messages. */
  get owing(): boolean {
    return this.#kept.length > 0
  }

  /** Until every call kept through a Stop is over (or this turn is stopped too). */
  async untilKeptOver(signal: AbortSignal): Promise<void> {
    while (!signal.aborted && !this.#kept.every((item) => item.done)) {
      await new Promise<void>((resolve) => (this.#wake = resolve))
    }
  }

  /**
   * Adds the tool message of each call kept through a Stop that went ahead (its result is not
   * `cancelled`), in the order of the calls, and forgets them all.
   */
  sendKeptTo(agent: AgUiAgent): void {
    for (const item of this.#kept) {
      if (item.done && !wasCancelled(item.content)) {
        addToolMessage(agent, item.toolCallId, item.content)
      }
    }
    this.#dropKept()
  }

  /** Forgets the calls kept through a Stop too: what their observers hear is dropped. */
  dispose(): void {
    this.stop()
    this.#dropKept()
  }

  #dropKept(): void {
    for (const item of this.#kept) if (item.callId) this.#byCallId.delete(item.callId)
    this.#kept = []
  }

  #forget(): void {
    this.#items = []
    this.#byInterrupt.clear()
    // A kept call is still known by its id until its approved run ends.
    for (const [callId, item] of this.#byCallId) {
      if (!item.kept || item.done) this.#byCallId.delete(callId)
    }
  }

  #wakeTurn(): void {
    const waiting = this.#wake
    this.#wake = undefined
    waiting?.()
  }

  #untrusted(name: string): boolean {
    return this.#tm.describe(name, { caller: 'inapp' })?.hints.untrustedContent === true
  }
}

/** Whether a tool message's content says the call was cancelled (it did nothing). */
const wasCancelled = (content: unknown): boolean =>
  isPlainObject(content) && content.status === 'cancelled'

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
