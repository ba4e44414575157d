import { StatusTable } from '../base/statusTable'
import { cancelled, deepFreeze, ok, refuse, type Checked } from '../base/results'
import type { ToolRecord } from '../tool/toolRecord'
import { isObject } from '../base/guards'
import type { Emitter } from '../events/emitter'
import type {
  Approval,
  ApprovedBy,
  Caller,
  CancelledBy,
  ConfirmationEntry,
  ConfirmEvent,
  ToolResult,
  Verification,
} from '../types'

/**
 * Where a confirmation is. `pending`: waiting for a person; `answering`: an edited input (or a
 * question's answer) is being validated; `verifying`: the registry's verifier is asking for the
 * person's passkey; then one of the final statuses. Only `pending` takes an answer: a second or
 * concurrent one is refused. `evicted` is no longer reached (a caller over its share of the list
 * is turned away `busy` instead, nobody is pushed out); it stays for listeners that name it.
 */
export type ConfirmationStatus =
  | 'pending'
  | 'answering'
  | 'verifying'
  | 'approved'
  | 'rejected'
  | 'expired'
  | 'withdrawn'
  | 'evicted'

type Final = 'approved' | 'rejected' | 'expired' | 'withdrawn' | 'evicted'

/**
 * The entry as its final `confirm` event reports it: the listed entry (`pending`), with how it
 * ended. A copy, so the entry the store listed never changes under its readers.
 */
const ended = (entry: ConfirmationEntry, status: Final): ConfirmationEntry =>
  Object.freeze({ ...entry, status })

/**
 * Every move a confirmation may make (from → to). An invalid edit or a refused verification goes
 * back to `pending`; the clock, withdrawal (policy, a signal, the tool gone) and Stop can end it
 * from any state that is not final; a person's Deny only from `pending`. Turned away unfiled
 * (`busy`), it moves from `pending` to `withdrawn` without ever being listed.
 */
export const CONFIRMATION_MOVES = /* @__PURE__ */ new StatusTable<ConfirmationStatus>(
  'A confirmation',
  {
    pending: ['answering', 'verifying', 'approved', 'rejected', 'expired', 'withdrawn'],
    answering: ['pending', 'verifying', 'approved', 'rejected', 'expired', 'withdrawn'],
    verifying: ['pending', 'approved', 'rejected', 'expired', 'withdrawn'],
    approved: [],
    rejected: [],
    expired: [],
    withdrawn: [],
    evicted: [],
  },
  false,
)

/**
 * `deferred`: the call already answered `needs_confirmation`; an approval runs the tool as a call
 * of its own. `inline`: the call waits here (slot free, deadline paused). `ask`: `ctx.confirm`
 * from inside a run, which goes on with the answer.
 */
export type ConfirmationKind = 'deferred' | 'inline' | 'ask'

/** How a confirmation ended, for the call or run waiting on it. */
export interface Ending {
  readonly status: Final
  readonly result: ToolResult
  /** Why it was not approved, for `ctx.confirm`'s answer. */
  readonly reason?: string
  /** A question's accepted answer, as its schema parsed it. */
  readonly value?: unknown
  /** Ended `rejected` by Stop while it waited, not by the person's Deny. */
  readonly stopped?: true
}

/** The verifier's answer, after core checked it against this confirmation. */
export type Verified = { verification: Verification } | { failed: string }

/** What the registry lends every confirmation. */
export interface ConfirmationHost {
  readonly events: Emitter
  clock(): number
  /** Takes an ended confirmation out of the list. */
  remove(confirmation: Confirmation): void
  /** The list's status changed without an end (the timer may move). */
  changed(): void
}

/**
 * What a confirmation needs of the call it holds (a `Call`, call/call.ts, which lives a layer
 * above): to wait on the person's answer, to end with what they decided, and who made it.
 */
export interface HeldCall {
  readonly record: ToolRecord
  readonly caller: Caller
  /** A tour step's starter (see `Call.actingFor`). */
  readonly actingFor?: Caller
  /** Who follows the call (`CallOptions.observe`). */
  readonly observer:
    { readonly presentsQuestions?: boolean; readonly presentsConfirmations?: boolean } | undefined
  /** Tells the call's observer a `confirm` event of this confirmation. */
  confirmed(event: ConfirmEvent): void
  /** Waits on the answer; `done` hears `{ stopped }` when the call is stopped first. */
  wait(
    work: PromiseLike<void>,
    kind: 'confirmation' | 'ask',
    done: (outcome: { value: void } | { error: unknown } | { stopped: CancelledBy }) => void,
  ): void
  /** Ends an inline call with this result; gives back the result the call ended with. */
  settle(result: ToolResult): ToolResult
}

export interface ConfirmationParts {
  readonly entry: ConfirmationEntry
  readonly kind: ConfirmationKind
  readonly call: HeldCall
  /** The input as asked (not redacted): what runs unless the person edits it. */
  readonly value: unknown
  /** Validates an edited input in bounded time (calls only: a question has nothing to edit). */
  readonly check?: (input: unknown) => Promise<Checked>
  /** Runs what was approved (calls only). Never rejects. */
  readonly run?: (input: unknown, approval: Approval) => Promise<ToolResult>
  /**
   * Checks a question's answer (questions only: they are answered, never approved). Never
   * rejects: a validator that throws gives a `result`.
   */
  readonly question?: (value: unknown) => Promise<Checked>
  /**
   * Asks the registry's verifier for the person's passkey over this input, and checks what it
   * gave. Present when the approval needs step-up verification. Never rejects.
   */
  readonly verify?: (input: unknown, signal: AbortSignal) => Promise<Verified>
  /**
   * Checks the grant asked with an approval (calls only): the refusal that keeps the entry
   * pending, or how to make the grant from the input that will run (its id, or a refusal).
   */
  readonly grant?: (given: unknown) => GrantCheck
}

/** What a confirmation's `grant` part says about a grant asked with an approval. */
export type GrantCheck = { result: ToolResult } | { make: (input: unknown) => string | ToolResult }

const GRANT_NOT_ALLOWED = (): ToolResult =>
  deepFreeze(refuse('grant_not_allowed', 'Only a call of a tool can be approved with a grant'))

const EXPIRED = (): ToolResult =>
  deepFreeze(refuse('confirmation_expired', 'This confirmation is unknown, used or expired'))
const ENDED_EXPIRED = deepFreeze(
  refuse('confirmation_expired', 'The confirmation expired before anyone answered'),
)
const REJECTED = deepFreeze(cancelled('operator'))
const OK_APPROVED = deepFreeze(ok(null))
const ANSWER_REQUIRED = deepFreeze(
  refuse('answer_required', 'This is a question: answer it with answer(id, value), or reject it'),
)
const NOT_A_QUESTION = deepFreeze(
  refuse('not_a_question', 'This confirmation asks for an approval: approve or reject it'),
)
const VERIFIED: ApprovedBy = 'verified'

/** The `reason` of a confirmation turned away because its caller holds its share. */
export const TURNED_AWAY = 'busy'

/**
 * One confirmation, from the moment it is filed to its end: the only owner of its status. A
 * person's answer, the clock and withdrawal all ask it to move; it ends once, through
 * `#end`, which takes it out of the store, tells whoever waits and emits `confirm` once.
 *
 * DESIGN §3.6's guarantees live here: single use (only `pending` takes an answer), expiry checked
 * against the clock when an answer comes and again after an edit or a verification, an invalid
 * edit or a refused verification back to `pending`, nothing run twice.
 */
export class Confirmation {
  #status: ConfirmationStatus = 'pending'
  readonly #host: ConfirmationHost
  readonly #parts: ConfirmationParts
  #ending: Promise<Ending> | undefined
  #resolve!: (ending: Ending) => void
  /** Aborted when the confirmation ends: a passkey prompt still open closes. */
  #stop: AbortController | undefined
  #opened = false
  /** Ends the waiting call's wait on the person (inline and ask). */
  #answered: (() => void) | undefined
  /** Set when it was turned away unfiled (`turnAway`). */
  #refusal: ToolResult | undefined

  constructor(host: ConfirmationHost, parts: ConfirmationParts) {
    this.#host = host
    this.#parts = parts
    this.#ending = new Promise<Ending>((resolve) => (this.#resolve = resolve))
  }

  /**
   * Once filed: the waiting call frees its slot and pauses its deadline before `requested` tells
   * anyone (a listener may answer at once), and a stop while the person decides (signal, Stop,
   * withdrawal) ends the entry unanswered — after the announcement, so `requested` comes first.
   */
  open(): void {
    const { call, kind } = this.#parts
    if (this.#opened || this.#status !== 'pending') return
    this.#opened = true
    const announce = () => {
      const event: ConfirmEvent = { status: 'pending', entry: this.entry }
      this.#host.events.emit('confirm', event)
      call.confirmed(event)
    }
    if (kind === 'deferred') return announce()
    const answered = new Promise<void>((resolve) => (this.#answered = resolve))
    let announced = false
    let stoppedFirst: CancelledBy | undefined
    // An inline call gives its slot back and pauses its deadline; a run asking pauses its deadline.
    call.wait(answered, kind === 'inline' ? 'confirmation' : 'ask', (waited) => {
      if (!('stopped' in waited)) return
      if (announced) this.withdraw(waited.stopped, 'cancelled')
      else stoppedFirst = waited.stopped
    })
    announced = true
    announce()
    if (stoppedFirst) this.withdraw(stoppedFirst, 'cancelled')
  }

  get id(): string {
    return this.#parts.entry.id
  }
  get entry(): ConfirmationEntry {
    return this.#parts.entry
  }
  get call(): HeldCall {
    return this.#parts.call
  }
  get kind(): ConfirmationKind {
    return this.#parts.kind
  }
  get status(): ConfirmationStatus {
    return this.#status
  }
  /** Whether an approval asks the verifier. */
  get verifies(): boolean {
    return this.#parts.verify !== undefined
  }
  /** Resolves once, when the confirmation ends. */
  get ended(): Promise<Ending> {
    return this.#ending!
  }

  #move(to: ConfirmationStatus): void {
    // A move the table does not allow is a bug in core, never something a caller can cause.
    CONFIRMATION_MOVES.check(this.#status, to)
    this.#status = to
  }

  /** Whether nothing ended the confirmation while an answer was awaited. */
  #still(status: ConfirmationStatus): boolean {
    return this.#status === status
  }

  #overdue(): boolean {
    return this.entry.expiresAt <= this.#host.clock()
  }

  /**
   * A person's (or a script's) approval. Edited input is validated first (invalid → the entry
   * stays pending); an approval that needs step-up verification asks the verifier over the exact
   * input that will run (refused → pending, `verification_failed`); the clock is read after each
   * wait. Resolves with the tool's result; `taken` is called once the approval is given and its
   * run started (not when the run ends), so a batch can go on to its next entry.
   */
  async approve(options: unknown, by: 'dialog' | 'api', taken?: () => void): Promise<ToolResult> {
    if (this.#status !== 'pending') return EXPIRED()
    if (this.#overdue()) return this.#expireNow()
    if (this.#parts.question) return ANSWER_REQUIRED
    const { check, verify } = this.#parts
    // A grant the ceilings forbid, or malformed, is refused before anything else: the person can
    // still approve this one call.
    let makeGrant: ((input: unknown) => string | ToolResult) | undefined
    if (isObject(options) && options.grant !== undefined) {
      const asked = this.#parts.grant?.(options.grant) ?? { result: GRANT_NOT_ALLOWED() }
      if ('result' in asked) return asked.result
      makeGrant = asked.make
    }
    let input = this.#parts.value
    if (isObject(options) && 'input' in options && check) {
      this.#move('answering')
      this.#host.changed()
      const checked = await check(options.input)
      if (!this.#still('answering')) return EXPIRED()
      if ('result' in checked) {
        this.#move('pending')
        this.#host.changed()
        return checked.result
      }
      if (this.#overdue()) return this.#expireNow()
      input = checked.value
    }
    let approval: Approval = deepFreeze({ by })
    if (makeGrant) {
      // Made before the run, so a call that arrives while this one runs is covered already.
      const made = makeGrant(input)
      if (typeof made !== 'string') {
        if (this.#still('answering')) {
          this.#move('pending')
          this.#host.changed()
        }
        return made
      }
      approval = deepFreeze({ by, grant: made })
    }
    if (verify) {
      const from = this.#status
      this.#move('verifying')
      if (from === 'pending') this.#host.changed()
      const stop = (this.#stop = new AbortController())
      // Ended meanwhile (expired, withdrawn): the answer is given at once, whether or not the
      // verifier heeds its signal.
      const ended = new Promise<undefined>((resolve) =>
        stop.signal.addEventListener('abort', () => resolve(undefined), { once: true }),
      )
      const verified = await Promise.race([verify(input, stop.signal), ended])
      if (!this.#still('verifying') || verified === undefined) return EXPIRED()
      this.#stop = undefined
      if ('failed' in verified) {
        this.#move('pending')
        this.#host.changed()
        return deepFreeze(refuse('verification_failed', verified.failed))
      }
      if (this.#overdue()) return this.#expireNow()
      approval = deepFreeze({
        by: VERIFIED,
        assertion: verified.verification,
        confirmId: this.id,
        expiresAt: this.entry.expiresAt,
      })
    }
    const ran = this.#end('approved', input, approval)
    taken?.()
    return ran
  }

  /**
   * A person's answer to a question. It is checked against the question's schema (invalid → the
   * entry stays pending with the issues); the clock is read before and after the check, and an
   * end meanwhile (expiry, Stop) wins over an answer still being checked. Resolves `ok(null)`.
   */
  async answer(value: unknown, by: Exclude<ApprovedBy, 'verified'>): Promise<ToolResult> {
    const { question } = this.#parts
    if (this.#status !== 'pending') return EXPIRED()
    if (this.#overdue()) return this.#expireNow()
    if (!question) return NOT_A_QUESTION
    this.#move('answering')
    this.#host.changed()
    const checked = await Promise.race([question(value), this.#ending!.then(() => undefined)])
    if (checked === undefined || !this.#still('answering')) return EXPIRED()
    if ('result' in checked) {
      this.#move('pending')
      this.#host.changed()
      return checked.result
    }
    if (this.#overdue()) return this.#expireNow()
    return this.#end('approved', checked.value, deepFreeze({ by }))
  }

  /** A person's denial: the call ends `cancelled operator`. */
  reject(reason: unknown): Promise<ToolResult> {
    if (this.#status !== 'pending') return Promise.resolve(EXPIRED())
    if (this.#overdue()) return Promise.resolve(this.#expireNow())
    const why = typeof reason === 'string' ? reason : undefined
    return this.#end('rejected', REJECTED, undefined, why)
  }

  /** The clock says it is over (the store's timer, or an answer that came too late). */
  expire(): void {
    if (CONFIRMATION_MOVES.moves[this.#status].includes('expired'))
      void this.#end('expired', ENDED_EXPIRED)
  }

  /**
   * Never filed: its caller already holds its share of a full list, so it ends at once with
   * `refusal` (`busy`) — no entry, no `confirm` event, nobody else's entry touched. A call waiting
   * on it (inline or deferred) ends with the refusal; a run asking hears `reason: 'busy'`.
   */
  turnAway(refusal: ToolResult): void {
    if (this.#opened || this.#status !== 'pending') return
    this.#move('withdrawn')
    const { call, kind } = this.#parts
    const result = kind === 'ask' ? refusal : call.settle(refusal)
    this.#refusal = result
    this.#resolve({ status: 'withdrawn', result, reason: TURNED_AWAY })
  }

  /** The `busy` refusal of a confirmation turned away unfiled; `undefined` for every other. */
  get refusal(): ToolResult | undefined {
    return this.#refusal
  }

  /**
   * Access went away (policy, `when`, the presenter, the tool), or the waiting call was stopped:
   * ends `cancelled` with that reason. Returns whether it was still open.
   */
  withdraw(by: CancelledBy, reason = 'withdrawn'): boolean {
    if (!CONFIRMATION_MOVES.moves[this.#status].includes('withdrawn')) return false
    // Stop is a person's no, whatever the entry was doing: it ends `rejected`.
    if (by === 'operator') void this.#end('rejected', REJECTED, undefined, reason, true)
    else void this.#end('withdrawn', deepFreeze(cancelled(by)), undefined, reason)
    return true
  }

  #expireNow(): ToolResult {
    void this.#end('expired', ENDED_EXPIRED)
    return EXPIRED()
  }

  /**
   * The one way out: the final status, out of the store, the prompt closed, whoever waits told,
   * and `confirm` emitted once with the outcome. For `approved`, `outcome` is the input to run.
   */
  async #end(
    status: Final,
    outcome: unknown,
    approval?: Approval,
    reason?: string,
    stopped?: true,
  ): Promise<ToolResult> {
    this.#move(status)
    this.#stop?.abort()
    this.#stop = undefined
    this.#host.remove(this)
    const { call, kind, run, question } = this.#parts
    // The waiting call's deadline counts again.
    this.#answered?.()
    let result: ToolResult
    if (status === 'approved') {
      result = run ? await run(outcome, approval!) : OK_APPROVED
    } else {
      result = outcome as ToolResult
      // The waiting call ends with it (a run asking `ctx.confirm` goes on with the answer).
      if (kind === 'inline') result = call.settle(result)
    }
    const ending: Ending =
      question && status === 'approved'
        ? { status, result, value: outcome }
        : reason === undefined
          ? { status, result }
          : stopped
            ? { status, result, reason, stopped }
            : { status, result, reason }
    this.#resolve(ending)
    const event: ConfirmEvent = { status, entry: ended(this.entry, status), result }
    if (approval) event.by = approval.by
    if (approval?.grant !== undefined) event.grant = approval.grant
    if (question && status === 'approved') event.answer = outcome
    this.#host.events.emit('confirm', event)
    call.confirmed(event)
    return result
  }
}

/**
 * A call a person's earlier grant let through asked nobody, so no `Confirmation` was filed; its
 * `confirm` event, `approved` by `grant` with the entry it would have had, is emitted here with
 * every other one once the run's result is in.
 */
export function announceGranted(
  events: Emitter,
  call: HeldCall,
  entry: ConfirmationEntry,
  result: ToolResult,
  grant: string,
): void {
  const event: ConfirmEvent = {
    status: 'approved',
    entry: ended(entry, 'approved'),
    result,
    by: 'grant',
    grant,
  }
  events.emit('confirm', event)
  call.confirmed(event)
}
