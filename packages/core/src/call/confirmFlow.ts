import type { Call } from './call'
import { announceGranted } from '../confirmations/confirmation'
import type { Confirmation, ConfirmationParts, GrantCheck } from '../confirmations/confirmation'
import type { InternalConfirmationStore } from '../confirmations/confirmationStore'
import { isThenable } from '../base/guards'
import { cancelled, deepFreeze, refuse, toolFailed } from '../base/results'
import type { RegistryInternals, ToolRecord } from '../tool/toolRecord'
import type { Approval, FieldChange, QuestionAnswer, ToolResult } from '../types'
import { frozenInput, validateInput, type Checked } from './validateInput'
import {
  isStale,
  makeEntry,
  prepareConfirmation,
  staleResult,
  type Prepared,
} from './prepareConfirmation'
import {
  askInRun,
  callerShows,
  questionInRun,
  type ConfirmAnswer,
  type FlowParts,
} from './inRunAsks'
import { verifierFor } from './verifyApproval'
import { NO_PRESENTER } from '../confirmations/questionSupport'

/** Runs what the person approved (in the scope's queue, ahead of calls not started). */
export type OnApproved = (input: unknown, approval: Approval) => Promise<ToolResult>

/** Step 7 of the pipeline and `ctx.confirm`: every way a call waits for a person. */
export interface ConfirmFlow {
  /** Summary, changes and staleness check for a call that needs a confirmation. */
  prepare(call: Call, value: unknown): Prepared | { result: ToolResult }
  /**
   * Deferred: files the entry and answers `needs_confirmation` (the pipeline settles the call
   * with it). An approval later runs `onApproved`.
   */
  defer(call: Call, value: unknown, prepared: Prepared, onApproved: OnApproved): ToolResult
  /**
   * Inline: the call waits for the person (its slot free, its deadline paused). A denial, an
   * expiry or an abort settles it here; an approval resolves with `onApproved`'s result.
   */
  inline(
    call: Call,
    value: unknown,
    prepared: Prepared,
    onApproved: OnApproved,
  ): Promise<ToolResult>
  /**
   * A grant a person gave covers this call: how it is approved (`by: 'grant'`), and `done`, which
   * announces `confirm` `approved` with the entry it would have had once the run's result is in.
   * `undefined` when no live grant covers it.
   */
  granted(
    call: Call,
    value: unknown,
    prepared: Prepared,
  ): { approval: Approval; done(result: ToolResult): ToolResult } | undefined
  /** `ctx.confirm` inside a run. */
  ask(call: Call, request: unknown): Promise<ConfirmAnswer>
  /** `ctx.ask` inside a run: a typed question, answered with `answer(id, value)`. */
  question(call: Call, request: unknown): Promise<QuestionAnswer>
  /** Whether what a confirmation showed changed since (a check that throws says yes). */
  isStale(prepared: Prepared): boolean
  /** The result of an approval whose confirmation went stale. */
  staleResult(): ToolResult
  /** Withdraws the pending confirmations of a tool that went away. */
  dropTool(record: ToolRecord): void
  /** Withdraws the pending confirmations whose caller lost access (policy, `when`, presenter). */
  withdraw(): void
}

const WITHDRAWN_BY = 'policy' as const
/** A grant asked of a registry nothing lent the grant code to. */
const GRANTS_NOT_ENABLED = () =>
  deepFreeze(
    refuse(
      'grant_not_allowed',
      'This registry makes no grants: give createToolmark({ confirm: { grants: grants() } }) from @toolmark/core',
    ),
  )

/**
 * Validates an input the person edited, bounded: a validator that never settles gives up after
 * the tool's deadline (or when the call is stopped) with `cancelled`, so the entry is never left
 * "being answered"; it stays pending and can still be approved as it was, or denied.
 *
 * What runs is a frozen copy of what was approved (`frozenInput`): the edited input is copied
 * as `approve` is called, so the validator reads what the approver gave then, and the value it
 * gives back is copied again (a schema's output may hold the objects it was given, or the app's).
 */
function checkEdited(
  internals: RegistryInternals,
  record: ToolRecord,
  edited: unknown,
  call: Call,
): Promise<Checked> {
  // Results built by validation are fresh and plain: freezing is enough.
  const frozen = (checked: Checked): Checked =>
    'result' in checked ? { result: deepFreeze(checked.result) } : frozenInput(checked.value)
  const input = frozenInput(edited)
  if ('result' in input) return Promise.resolve(input)
  const checking = validateInput(internals, record, input.value, call)
  if (!isThenable(checking)) return Promise.resolve(frozen(checking))
  return new Promise<Checked>((resolve) => {
    // The call's own wait bounds it (`edit`: the tool's deadline, the call's being paused).
    call.wait(checking, 'edit', (w) => {
      resolve(
        'stopped' in w
          ? frozen({ result: cancelled(w.stopped) })
          : 'error' in w
            ? { result: deepFreeze(toolFailed()) }
            : frozen(w.value),
      )
    })
  })
}

/**
 * A grant asked with an approval of this call: none on a registry without grants, then the
 * ceilings (`grant_not_allowed`), then its shape (`invalid`, naming the option); the grant is
 * made from the input that will run.
 */
function grantFor(
  internals: RegistryInternals,
  confirmations: InternalConfirmationStore,
  call: Call,
  given: unknown,
): GrantCheck {
  const { record, caller, actingFor } = call
  const list = confirmations.grantList
  if (!list) return { result: GRANTS_NOT_ENABLED() }
  const ceiling = list.ceiling(internals, record, caller, actingFor)
  if (ceiling !== undefined) return { result: deepFreeze(refuse('grant_not_allowed', ceiling)) }
  return list.read(record, caller, actingFor, given)
}

export function createConfirmFlow(
  internals: RegistryInternals,
  confirmations: InternalConfirmationStore,
): ConfirmFlow {
  const { events } = internals

  /** Files a confirmation in the store, which holds its call for the person and announces it. */
  function file(parts: Omit<ConfirmationParts, 'verify'>): Confirmation {
    const { entry } = parts
    // A question is answered, not approved: there is nothing to verify.
    const verify = entry.verify ? verifierFor(internals, entry) : undefined
    return confirmations.add(verify ? { ...parts, verify } : parts)
  }

  /** What a call's confirmation does with an edited input, an approval and a grant. */
  function callParts(call: Call, value: unknown, onApproved: OnApproved) {
    return {
      call,
      value,
      check: (edited: unknown) => checkEdited(internals, call.record, edited, call),
      run: async (input: unknown, approval: Approval) => {
        const result = await onApproved(input, approval)
        // The grant was made before the run, so calls arriving meanwhile are covered; an approval
        // whose request went stale, or that was withdrawn or stopped, grants nothing after all.
        const ran = !(
          result.status === 'cancelled' ||
          (result.status === 'refused' && result.code === 'stale')
        )
        if (approval.grant !== undefined && !ran) confirmations.grantList?.revoke(approval.grant)
        return result
      },
      grant: (given: unknown) => grantFor(internals, confirmations, call, given),
    }
  }

  function granted(call: Call, value: unknown, prepared: Prepared) {
    const list = confirmations.grantList
    if (!list) return undefined
    const { record, caller, actingFor } = call
    // The ceilings are read again: a policy changed since the grant was given wins.
    if (list.ceiling(internals, record, caller, actingFor) !== undefined) return undefined
    const grant = list.use(record, caller, actingFor, value)
    if (grant === undefined) return undefined
    const approval: Approval = deepFreeze({ by: 'grant', grant })
    const entry = makeEntry(
      internals,
      confirmations,
      call,
      value,
      prepared,
      internals.confirmMode(caller),
    )
    return {
      approval,
      done(result: ToolResult): ToolResult {
        announceGranted(events, call, entry, result, grant)
        return result
      },
    }
  }

  /** What a filed confirmation shows and runs: the frozen copy `prepare` took (`Prepared.input`). */
  const filed = (value: unknown, prepared: Prepared): unknown =>
    prepared.input ? prepared.input.value : value

  function defer(call: Call, given: unknown, prepared: Prepared, onApproved: OnApproved) {
    const value = filed(given, prepared)
    const entry = makeEntry(internals, confirmations, call, value, prepared, 'deferred')
    const confirmation = file({ entry, kind: 'deferred', ...callParts(call, value, onApproved) })
    // Its caller already has its share of a full list waiting: nothing was filed, the call ended `busy`.
    if (confirmation.refusal) return confirmation.refusal
    const result: ToolResult = {
      status: 'needs_confirmation',
      confirmId: entry.id,
      summary: entry.summary,
    }
    if (entry.changes) result.changes = entry.changes as FieldChange[]
    return result
  }

  function inline(
    call: Call,
    given: unknown,
    prepared: Prepared,
    onApproved: OnApproved,
  ): Promise<ToolResult> {
    const value = filed(given, prepared)
    const entry = makeEntry(internals, confirmations, call, value, prepared, 'inline')
    const confirmation = file({ entry, kind: 'inline', ...callParts(call, value, onApproved) })
    return confirmation.ended.then((ending) => ending.result)
  }

  const flow: FlowParts = { internals, confirmations, file }

  return {
    prepare: (call, value) => prepareConfirmation(internals, call, value),
    defer,
    inline,
    granted,
    ask: (call, request) => askInRun(flow, call, request),
    question: (call, request) => questionInRun(flow, call, request),
    isStale,
    staleResult: () => staleResult(internals),
    dropTool(record) {
      for (const c of confirmations.open()) {
        if (c.call.record === record) c.withdraw(WITHDRAWN_BY)
      }
      // A grant dies with its tool: a tool registered again under the name is a new tool.
      confirmations.grantList?.retain((r) => r !== record)
    },
    withdraw() {
      const seen = confirmations.hasPresenter()
      for (const c of confirmations.open()) {
        if (c.kind === 'ask') {
          // Asked inside a run (`ctx.confirm`, `ctx.ask`): with the last dialog gone nobody can
          // answer, so the run hears `no_presenter` now instead of holding its scope until the
          // expiry. An adapter that shows the run's asks itself keeps them.
          if (!seen && !callerShows(c.call, c.entry.question !== undefined))
            c.withdraw(WITHDRAWN_BY, NO_PRESENTER)
        } else if (internals.access(c.call.record, c.call.caller, c.call.actingFor) !== 'ok') {
          c.withdraw(WITHDRAWN_BY)
        }
      }
      const list = confirmations.grantList
      list?.retain(
        (record, caller, actingFor) =>
          !record.disposed && list.ceiling(internals, record, caller, actingFor) === undefined,
      )
    },
  }
}
