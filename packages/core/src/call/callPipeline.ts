import { Call, CallList, type Waited } from './call'
import { createConfirmFlow } from './confirmFlow'
import type { Prepared } from './prepareConfirmation'
import type { InternalConfirmationStore } from '../confirmations/confirmationStore'
import { isAbortSignal, isCaller, isObject, isThenable } from '../base/guards'
import { now, randomId } from '../base/ids'
import { nameLabel } from '../tool/names'
import { actsForTour } from '../tool/callers'
import { needsConfirmation } from '../tool/policy'
import { compileSensitive, redactValue } from '../redaction/redact'
import { cancelled, deepFreeze, refuse, toolFailed } from '../base/results'
import type { Access, RegistryInternals, ToolRecord } from '../tool/toolRecord'
import { runWrapped, type RunWrapper } from './runWrappers'
import { createToolSteps } from './toolSteps'
import type { Approval, Caller, CallOptions, CancelledBy, ToolResult } from '../types'
import type { UndoJournal } from '../undo/undoJournal'
import { validateInput, type Checked } from './validateInput'

/** The call pipeline of DESIGN §3.4, plus what stops calls from outside. */
export interface CallPipeline {
  call(name: unknown, input?: unknown, options?: unknown): Promise<ToolResult>
  /** Stop: aborts every agent call in flight. */
  cancelAll(by: CancelledBy): void
  /** After a revision: calls that lost access before running end `cancelled policy`. */
  withdraw(): void
  /** A tool went away: its pending confirmations are withdrawn. */
  dropTool(record: ToolRecord): void
  /** What wraps every run: core's own consumers add to it through the seam (runWrappers.ts). */
  readonly runWrappers: RunWrapper[]
}

const NO_SENSITIVE = compileSensitive(undefined)
const NO_OPTIONS: CallOptions = Object.freeze({})
const WITHDRAWN = deepFreeze(cancelled('policy'))

/**
 * Steps 1–4 run synchronously inside `tm.call`, the rest after one hop, each step asking the
 * call's `Call` to move: validation (4), a turn in the scope's queue (5), `check` in the slot (6),
 * a confirmation built in the slot, the slot free while the person decides, the approved run back
 * in the queue ahead of calls that have not started (7), the run (8), and the one result (9).
 */
export function createCallPipeline(
  internals: RegistryInternals,
  journal: UndoJournal,
  confirmations: InternalConfirmationStore,
): CallPipeline {
  const { events } = internals
  const calls = new CallList(heard)
  const confirmFlow = createConfirmFlow(internals, confirmations)
  const steps = createToolSteps(internals, {
    ask: confirmFlow.ask,
    question: confirmFlow.question,
    registerUndo: journal.register,
    stoppable: (call) => calls.add(call),
  })
  const wrappers: RunWrapper[] = []

  // --- steps 5–9 -----------------------------------------------------------------------------

  /**
   * After validation: the result it gave, or the call's turn. The common call (no `check`, no
   * confirmation, a free slot) takes the slot and runs at once, with no line and no promise.
   */
  function proceed(call: Call, checked: Checked): ToolResult | Promise<ToolResult> {
    try {
      if ('result' in checked) return call.settle(checked.result)
      const { record } = call
      if (
        record.def.check === undefined &&
        !needsConfirmation(record.cls, call.runAs) &&
        call.runIfFree()
      ) {
        return runStep(call, checked.value)
      }
      // It waits for its turn (or a person): from here Stop and withdrawal reach it in the list.
      calls.add(call)
      const out = turn(call, checked.value, undefined)
      return isThenable(out) ? out.then(undefined, (cause: unknown) => failed(call, cause)) : out
    } catch (cause) {
      return failed(call, cause)
    }
  }

  /**
   * 5. A turn in the scope's queue. `approved` carries the confirmation a person approved: the
   * run then waits ahead of calls that have not started and is never turned away.
   */
  function turn(
    call: Call,
    value: unknown,
    approved: Prepared | undefined,
  ): ToolResult | Promise<ToolResult> {
    if (call.abortedBy) return call.settle(cancelled(call.abortedBy))
    const entered = call.enter(approved !== undefined)
    if (entered === true) return inSlot(call, value, approved)
    if (entered === 'busy') {
      const { scope } = call.record
      return call.settle(
        refuse(
          'busy',
          `${scope.queue.waiting} calls are already waiting in "${scope.path || 'the root scope'}"; retry later`,
        ),
      )
    }
    return entered.then((t) =>
      t === true ? inSlot(call, value, approved) : call.settle(cancelled(t)),
    )
  }

  /** 6. In the slot: staleness of an approved confirmation, then `check`. */
  function inSlot(
    call: Call,
    value: unknown,
    approved: Prepared | undefined,
  ): ToolResult | Promise<ToolResult> {
    if (call.abortedBy) return call.settle(cancelled(call.abortedBy))
    if (approved && confirmFlow.isStale(approved)) return call.settle(confirmFlow.staleResult())
    if (call.record.def.check === undefined) return afterCheck(call, value, approved, undefined)
    const stop = steps.check(call, value)
    return isThenable(stop)
      ? stop.then((s) => afterCheck(call, value, approved, s))
      : afterCheck(call, value, approved, stop)
  }

  /** 7–9. A confirmation when one is needed (and not given yet), else the run and its result. */
  function afterCheck(
    call: Call,
    value: unknown,
    approved: Prepared | undefined,
    stop: ToolResult | undefined,
  ): ToolResult | Promise<ToolResult> {
    if (stop !== undefined) return call.settle(stop)
    if (call.abortedBy) return call.settle(cancelled(call.abortedBy))
    if (!approved && needsConfirmation(call.record.cls, call.runAs)) return confirm(call, value)
    call.startRun()
    return runStep(call, value)
  }

  /** 8–9. The run, in the slot, and its one result (a promise of it never rejects). */
  function runStep(call: Call, value: unknown): ToolResult | Promise<ToolResult> {
    const out =
      wrappers.length === 0
        ? steps.run(call, value)
        : runWrapped(wrappers, call, () => steps.run(call, value))
    if (!isThenable(out)) {
      // A run that ended at once still hears of a Stop it met (its own, say) before it settles.
      calls.catchUp(call)
      return call.settle(out)
    }
    // A run that goes on is listed: a Stop or a withdrawal from now on reaches it.
    calls.add(call)
    return out.then(
      (r) => call.settle(r),
      (cause: unknown) => failed(call, cause),
    )
  }

  /**
   * 7. The confirmation is built now, in the slot, so it shows the state every earlier call of
   * the scope left; the slot is then free while the person decides.
   */
  function confirm(call: Call, value: unknown): ToolResult | Promise<ToolResult> {
    const access = internals.access(call.record, call.caller, call.actingFor)
    if (access === 'no_presenter' || access === 'no_verifier') {
      return call.settle(refusal(call, access)!)
    }
    if (access !== 'ok') return call.settle(WITHDRAWN)
    const prepared = confirmFlow.prepare(call, value)
    if ('result' in prepared) return call.settle(prepared.result)
    // A grant the person gave covers it: nobody is asked, the call runs now, in its slot.
    const grant = confirmFlow.granted(call, value, prepared)
    if (grant) {
      call.approve(grant.approval)
      call.startRun()
      const out = runStep(call, value)
      return isThenable(out) ? out.then(grant.done) : grant.done(out)
    }
    if (internals.confirmMode(call.caller) === 'deferred') {
      const asked = confirmFlow.defer(call, value, prepared, (input, approval) =>
        runApproved(call, input, prepared, approval),
      )
      return call.defer(asked)
    }
    return confirmFlow.inline(call, value, prepared, (input, approval) => {
      call.approve(approval)
      return guarded(call, input, prepared)
    })
  }

  /** The approved run's turn, as a promise that never rejects. */
  function guarded(call: Call, input: unknown, prepared: Prepared): Promise<ToolResult> {
    try {
      return Promise.resolve(turn(call, input, prepared)).then(undefined, (cause: unknown) =>
        failed(call, cause),
      )
    } catch (cause) {
      return Promise.resolve(failed(call, cause))
    }
  }

  /**
   * An approved deferred confirmation: the same call, resumed as `human`, takes its turn ahead of
   * calls that have not started. Its result goes to the confirmation, which tells it in its
   * `approved` event: the call's own `result` was its `needs_confirmation`.
   */
  function runApproved(
    call: Call,
    input: unknown,
    prepared: Prepared,
    approval: Approval,
  ): Promise<ToolResult> {
    // One hop first: a person may approve while the request is announced, before `defer` has
    // given the call's `needs_confirmation` back and let go of its slot.
    return Promise.resolve().then(() => {
      call.resume(approval)
      calls.add(call)
      if (internals.access(call.record, 'human') !== 'ok') return call.settle(WITHDRAWN)
      return guarded(call, input, prepared)
    })
  }

  /** What a call ends with when the pipeline itself fails (it is written not to). */
  function failed(call: Call, cause: unknown): ToolResult {
    internals.errorEvent({
      code: 'internal_error',
      message: 'The call pipeline failed',
      callId: call.callId,
      cause,
    })
    return call.settle(toolFailed())
  }

  // --- steps 1–4 -----------------------------------------------------------------------------

  /** A call refused before it had a tool and a known caller: it never gets a `Call` object. */
  function refusedEarly(
    result: ToolResult,
    callId: string | undefined,
    tool: string,
    caller: Caller,
    started: number | undefined,
  ): Promise<ToolResult> {
    return Promise.resolve(Call.refuseEarly(internals, result, callId, tool, caller, started))
  }

  /**
   * Steps 1–4 synchronously, then one hop, so a run never starts inside `tm.call`'s frame. The
   * clock is read only when someone listens for `durationMs`, and the call id is minted only when
   * someone reads it.
   */
  function call(name: unknown, input: unknown, callOptions: unknown): Promise<ToolResult> {
    const started = events.listening.result ? now() : undefined
    let current: Call | undefined
    let callId: string | undefined
    try {
      const optionsObject = isObject(callOptions)
      const co = (optionsObject ? callOptions : NO_OPTIONS) as CallOptions
      const given: unknown = co.caller
      const caller: unknown = given === undefined ? 'inapp' : given
      const record = typeof name === 'string' ? internals.tools.get(name) : undefined
      const knownCaller = isCaller(caller)
      if (record && knownCaller) {
        const actingFor = caller === 'tour' ? starterOf(co.actingFor) : undefined
        current = new Call(internals, record, caller, undefined, started, actingFor)
        const observer: unknown = co.observe
        if (observer !== undefined && isObject(observer)) current.observe(observer)
      }
      // 1. Every call is seen, refused ones included. Redaction costs a walk: only for listeners.
      if (events.listening.call) {
        callId = current ? current.callId : randomId('call_')
        events.emit('call', {
          callId,
          tool: nameLabel(name),
          caller: (knownCaller ? caller : nameLabel(caller)) as Caller,
          input: redactValue(input, record?.sensitive ?? NO_SENSITIVE),
        })
      }
      if (!optionsObject && callOptions !== undefined && callOptions !== null) {
        const refused = refuse(
          'not_allowed',
          'tm.call() options must be an object like { caller: "inapp" }',
        )
        return current
          ? Promise.resolve(current.settle(refused))
          : refusedEarly(refused, callId, nameLabel(name), caller as Caller, started)
      }
      if (!knownCaller) {
        const label = nameLabel(caller)
        const refused = refuse('not_allowed', `Unknown caller ${JSON.stringify(label)}`)
        return refusedEarly(refused, callId, nameLabel(name), label as Caller, started)
      }
      // 2. Lookup.
      const access = current
        ? internals.access(current.record, caller, current.actingFor)
        : 'hidden'
      if (!current || access === 'hidden') {
        const rev = internals.rev()
        const label = nameLabel(name)
        const refused =
          typeof co.rev === 'number' && co.rev < rev
            ? refuse('stale', `Tool ${JSON.stringify(label)} is gone since revision ${co.rev}`, {
                rev,
              })
            : refuse('unknown_tool', `No tool named ${JSON.stringify(label)}`, { rev })
        return current
          ? Promise.resolve(current.settle(refused))
          : refusedEarly(refused, callId, label, caller, started)
      }
      // 3. Policy, rate limit, an already-aborted signal.
      const refused = access === 'ok' ? rateLimited(current) : refusal(current, access)
      if (refused) return Promise.resolve(current.settle(refused))
      const signal = isAbortSignal(co.signal) ? co.signal : undefined
      if (signal?.aborted) return Promise.resolve(current.settle(cancelled('signal')))
      // From here Stop, withdrawal and the caller's signal reach the call: the signal at once,
      // Stop and withdrawal through the list, which tells the call what it missed when it next
      // moves (after the hop, or when it is listed to wait).
      calls.begin(current)
      if (signal) current.follow(signal)

      // 4. Validation, synchronous when the schema is; an async one races the call's abort and
      // deadline. The rest waits for one hop even then.
      const checking = validateInput(internals, current.record, input, current)
      if (!isThenable(checking)) return hop(current, checking)
      calls.add(current)
      return validating(current, checking)
    } catch (cause) {
      if (current) return Promise.resolve(failed(current, cause))
      let caller: Caller = 'inapp'
      try {
        const given = (callOptions as CallOptions | undefined)?.caller
        if (isCaller(given)) caller = given
      } catch {}
      internals.errorEvent({
        code: 'internal_error',
        message: 'The call pipeline failed',
        callId,
        cause,
      })
      return refusedEarly(toolFailed(), callId, nameLabel(name), caller, started)
    }
  }

  /**
   * The rest of the call, one hop after `tm.call`. The call itself crosses the hop, holding what
   * validation gave, so no closure is made per call for it.
   */
  function hop(call: Call, checked: Checked): Promise<ToolResult> {
    call.hold(checked)
    return Promise.resolve(call).then(afterHop)
  }

  function afterHop(call: Call): ToolResult | Promise<ToolResult> {
    calls.catchUp(call)
    return proceed(call, call.takeChecked())
  }

  /** An async validation, until it settles or the call is stopped (signal, Stop, deadline). */
  function validating(call: Call, checking: Promise<Checked>): Promise<ToolResult> {
    return new Promise<Waited<Checked>>((resolve) =>
      call.wait(checking, 'validation', resolve),
    ).then((w) =>
      'stopped' in w
        ? proceed(call, { result: cancelled(w.stopped) })
        : 'error' in w
          ? failed(call, w.error)
          : proceed(call, w.value),
    )
  }

  /** Step 3 for a visible tool: policy and the rate limit. */
  function refusal(call: Call, access: Access): ToolResult | undefined {
    const { record, caller } = call
    if (access === 'denied') {
      return refuse('not_allowed', `Policy does not allow ${caller} to call "${record.name}"`)
    }
    if (access === 'no_presenter') {
      return refuse(
        'not_allowed',
        `"${record.name}" needs a person's confirmation and no one can see it now`,
      )
    }
    if (access === 'no_verifier') {
      return refuse(
        'not_allowed',
        `"${record.name}" needs a person's verified approval and this page has no verifier`,
      )
    }
    return rateLimited(call)
  }

  /** The rate limit of step 3: what a call its policy allows still meets. */
  function rateLimited({ caller, actingFor }: Call): ToolResult | undefined {
    const limiter = internals.rateLimiter
    if (!limiter.active) return undefined
    // A tour's step counts against its starter's limit too: a tour is no way around it.
    if (actingFor !== undefined && !limiter.take(actingFor, now())) {
      return refuse('rate_limited', `Too many calls from ${actingFor}; wait and retry`)
    }
    if (!limiter.take(caller, now())) {
      return refuse('rate_limited', `Too many calls from ${caller}; wait and retry`)
    }
    return undefined
  }

  /**
   * What a Stop (`stop`, its reason) or a withdrawal (`undefined`) does to one call: Stop aborts
   * every call but a person's own; a withdrawal aborts a call not running nor with a person yet
   * whose caller lost the tool.
   */
  function heard(call: Call, stop: CancelledBy | undefined): void {
    if (stop !== undefined) {
      if (call.caller !== 'human') call.abort(stop)
      return
    }
    if (call.phase === 'running' || call.phase === 'confirming') return
    const access = internals.access(call.record, call.runAs, call.actingFor)
    if (access === 'hidden' || access === 'denied') call.abort('policy')
  }

  return {
    call,
    cancelAll(by) {
      calls.interrupt(by)
    },
    withdraw() {
      calls.interrupt(undefined)
      confirmFlow.withdraw()
    },
    dropTool: confirmFlow.dropTool,
    runWrappers: wrappers,
  }
}

/**
 * Whom a tour's step acts for: the starter its tour named, an agent caller that a policy may name;
 * anything else acts for `inapp`, the page's own assistant (never wider than the tour itself).
 */
function starterOf(given: unknown): Caller {
  return actsForTour(given) ? given : 'inapp'
}
