import type { Call } from '../call/call'
import type { Confirmation, ConfirmationParts, GrantCheck, Verified } from './confirmation'
import type { InternalConfirmationStore } from './confirmationStore'
import { isObject, isThenable, unref } from '../base/guards'
import { randomId } from '../base/ids'
import { inputJsonSchema, titlesOf } from '../schema/jsonSchema'
import { redactChanges, redactValue } from '../redaction/redact'
import { cancelled, deepFreeze, invalid, refuse, toolFailed } from '../call/results'
import type { Validated } from '../schema/standardSchema'
import type { RegistryInternals, ToolRecord } from '../registry/toolRecord'
import type {
  Approval,
  ConfirmationEntry,
  ConfirmMode,
  FieldChange,
  QuestionAnswer,
  QuestionSpec,
  ToolResult,
  VerificationRequest,
} from '../types'
import { questionSupport } from './questionSupport'
import { validateInput, type Checked } from '../call/validateInput'

/** What a confirmation shows, worked out in the call's slot when the call asks. */
export interface Prepared {
  summary: string
  /** Shown instead of the call's input (already redacted). */
  shown?: { input: unknown }
  changes?: FieldChange[]
  labels?: Record<string, string>
  agentFilled?: string[]
  isStale?: () => boolean
  /** A question's prompt and form (`ctx.ask`). */
  question?: QuestionSpec
}

export interface ConfirmAnswer {
  approved: boolean
  reason?: string
}

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
      'This registry makes no grants: call enableGrants(tm) from @toolmark/core where you create it',
    ),
  )

/** Why a run's question or `ctx.confirm` ended when the last presenter went away. */
const NO_PRESENTER = 'no_presenter'

/** The page's origin, where there is a page. */
const pageOrigin = (): string | undefined => {
  const origin = (globalThis as { location?: { origin?: unknown } }).location?.origin
  return typeof origin === 'string' && origin !== 'null' ? origin : undefined
}

const hostOf = (origin: string | undefined): string | undefined => {
  try {
    return origin === undefined ? undefined : new URL(origin).hostname
  } catch {
    return undefined
  }
}

const isChange = (c: unknown): c is FieldChange => isObject(c) && typeof c.path === 'string'

/** The titles the tool's input JSON Schema gives its properties (when it has a schema to read). */
function schemaTitles(record: ToolRecord): Readonly<Record<string, string>> {
  const { input, inputSchema } = record.def
  return titlesOf(inputJsonSchema(input, inputSchema, undefined).schema)
}

export function createConfirmFlow(
  internals: RegistryInternals,
  confirmations: InternalConfirmationStore,
): ConfirmFlow {
  const { events, limits } = internals

  const staleResult = () =>
    deepFreeze(
      refuse('stale', 'What this confirmation showed changed after it was requested', {
        rev: internals.rev(),
      }),
    )

  function isStale(prepared: Prepared): boolean {
    try {
      return prepared.isStale?.() === true
    } catch {
      // A check that cannot answer is treated as "changed": nothing runs on a guess.
      return true
    }
  }

  function prepare(call: Call, value: unknown): Prepared | { result: ToolResult } {
    const { record } = call
    const { def } = record
    try {
      const extra = def.confirmation?.(value)
      const summary = def.summary?.(value) ?? extra?.summary ?? def.title ?? record.name
      if (typeof summary !== 'string') throw new TypeError('summary must return a string')
      const prepared: Prepared = { summary }
      if (Array.isArray(extra?.changes)) {
        prepared.changes = redactChanges(extra.changes.filter(isChange), record.sensitive)
      }
      if (typeof extra?.isStale === 'function') prepared.isStale = extra.isStale
      if (extra && 'input' in extra) {
        prepared.shown = { input: redactValue(extra.input, record.sensitive) }
      }
      // People read labels, not paths: the schema's property titles, then the tool's own labels.
      const labels: Record<string, string> = { ...schemaTitles(record) }
      if (extra?.labels && typeof extra.labels === 'object') {
        for (const [path, label] of Object.entries(extra.labels)) {
          if (typeof label === 'string') labels[path] = label
        }
      }
      if (Object.keys(labels).length > 0) prepared.labels = labels
      if (Array.isArray(extra?.agentFilled)) {
        const paths = extra.agentFilled.filter((p): p is string => typeof p === 'string')
        if (paths.length > 0) prepared.agentFilled = paths
      }
      return prepared
    } catch (cause) {
      internals.toolError('tool_threw', call, cause, 'summary threw')
      return { result: toolFailed() }
    }
  }

  function makeEntry(
    call: Call,
    value: unknown,
    prepared: Prepared,
    mode: ConfirmMode,
    ofCall = true,
  ): ConfirmationEntry {
    const { record } = call
    const createdAt = Date.now()
    const entry: ConfirmationEntry = {
      id: randomId('cf_'),
      callId: call.callId,
      tool: record.name,
      caller: call.caller,
      mode,
      summary: prepared.summary,
      input: prepared.shown ? prepared.shown.input : redactValue(value, record.sensitive),
      hints: { ...record.hints },
      createdAt,
      expiresAt: createdAt + limits.confirmationExpiryMs,
    }
    if (typeof record.def.title === 'string') entry.title = record.def.title
    if (prepared.changes) entry.changes = prepared.changes
    if (prepared.labels) entry.labels = prepared.labels
    if (prepared.agentFilled) entry.agentFilled = [...prepared.agentFilled]
    if (prepared.question) entry.question = prepared.question
    else if (internals.verifies(record, call.caller)) entry.verify = true
    // Grantable: the registry makes grants (enableGrants) and no ceiling forbids this one.
    if (
      ofCall &&
      confirmations.grantList &&
      internals.grantCeiling(record, call.caller) === undefined
    )
      entry.grantable = true
    if (!ofCall) entry.inRun = true
    return deepFreeze(entry)
  }

  /**
   * Validates an input the person edited, bounded: a validator that never settles gives up after
   * the tool's deadline (or when the call is stopped) with `cancelled`, so the entry is never left
   * "being answered"; it stays pending and can still be approved as it was, or denied.
   */
  function checkEdited(record: ToolRecord, input: unknown, call: Call): Promise<Checked> {
    // Results built by validation are fresh and plain: freezing is enough.
    const frozen = (checked: Checked): Checked =>
      'result' in checked ? { result: deepFreeze(checked.result) } : checked
    const checking = validateInput(internals, record, input, call)
    if (!isThenable(checking)) return Promise.resolve(frozen(checking))
    return new Promise<Checked>((resolve) => {
      const timer = unref(
        setTimeout(
          () => resolve({ result: deepFreeze(cancelled('policy')) }),
          record.def.timeoutMs ?? limits.callTimeoutMs,
        ),
      )
      call.wait(checking, 'check', (w) => {
        clearTimeout(timer)
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
   * Step-up verification of one approval: the registry's verifier is asked over the exact input
   * that will run, and what it gives is checked here, whoever approved (a dialog, a script, an
   * agent). Declined, thrown or not matching → `failed`; the entry stays pending.
   */
  function verifyFor(entry: ConfirmationEntry) {
    return async (input: unknown, signal: AbortSignal): Promise<Verified> => {
      const { verifier } = internals.verification
      if (!verifier) return { failed: 'This page has no verifier to ask the person with' }
      try {
        const challenge = await verifier.challenge({
          confirmId: entry.id,
          tool: entry.tool,
          input,
          expiresAt: entry.expiresAt,
        })
        const request: VerificationRequest = {
          confirmId: entry.id,
          tool: entry.tool,
          caller: entry.caller,
          summary: entry.summary,
          challenge,
          expiresAt: entry.expiresAt,
          signal,
        }
        if (entry.title !== undefined) request.title = entry.title
        const given = await verifier.ask(request)
        if (given === undefined || given === null) return { failed: 'The person did not verify' }
        const origin = internals.verification.origin ?? pageOrigin()
        const checked = await verifier.check(given, {
          challenge,
          origin,
          rpId: internals.verification.rpId ?? hostOf(origin),
        })
        return typeof checked === 'string'
          ? { failed: checked }
          : { verification: deepFreeze(checked) }
      } catch (cause) {
        internals.errorEvent({
          code: 'verifier_threw',
          message: 'The verifier failed',
          tool: entry.tool,
          callId: entry.callId,
          cause,
        })
        return { failed: 'The verification failed' }
      }
    }
  }

  /** Files a confirmation in the store, which holds its call for the person and announces it. */
  function file(parts: Omit<ConfirmationParts, 'verify'>): Confirmation {
    const { entry } = parts
    // A question is answered, not approved: there is nothing to verify.
    const verify = entry.verify ? verifyFor(entry) : undefined
    return confirmations.add(verify ? { ...parts, verify } : parts, () =>
      events.emit('confirm', { type: 'requested', entry: parts.entry }),
    )
  }

  /**
   * A grant asked with an approval of this call: the ceilings first (`grant_not_allowed`), then
   * its shape (`invalid`, naming the option); the grant is made from the input that will run.
   */
  function grantFor(call: Call, given: unknown): GrantCheck {
    const { record, caller } = call
    const ceiling = internals.grantCeiling(record, caller)
    if (ceiling !== undefined) return { result: deepFreeze(refuse('grant_not_allowed', ceiling)) }
    const list = confirmations.grantList
    return list ? list.read(record, caller, given) : { result: GRANTS_NOT_ENABLED() }
  }

  /** What a call's confirmation does with an edited input, an approval and a grant. */
  function callParts(call: Call, value: unknown, onApproved: OnApproved) {
    return {
      call,
      value,
      check: (edited: unknown) => checkEdited(call.record, edited, call),
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
      grant: (given: unknown) => grantFor(call, given),
    }
  }

  function granted(call: Call, value: unknown, prepared: Prepared) {
    const list = confirmations.grantList
    if (!list) return undefined
    const { record, caller } = call
    // The ceilings are read again: a policy changed since the grant was given wins.
    if (internals.grantCeiling(record, caller) !== undefined) return undefined
    const grant = list.use(record, caller, value)
    if (grant === undefined) return undefined
    const approval: Approval = deepFreeze({ by: 'grant', grant })
    const entry = makeEntry(call, value, prepared, internals.confirmMode(caller))
    return {
      approval,
      done(result: ToolResult): ToolResult {
        events.emit('confirm', { type: 'approved', entry, result, by: 'grant', grant })
        return result
      },
    }
  }

  function defer(call: Call, value: unknown, prepared: Prepared, onApproved: OnApproved) {
    const entry = makeEntry(call, value, prepared, 'deferred')
    file({ entry, kind: 'deferred', ...callParts(call, value, onApproved) })
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
    value: unknown,
    prepared: Prepared,
    onApproved: OnApproved,
  ): Promise<ToolResult> {
    const entry = makeEntry(call, value, prepared, 'inline')
    const confirmation = file({ entry, kind: 'inline', ...callParts(call, value, onApproved) })
    return confirmation.ended.then((ending) => ending.result)
  }

  async function ask(call: Call, request: unknown): Promise<ConfirmAnswer> {
    if (call.abortedBy || call.phase !== 'running') {
      return { approved: false, reason: 'cancelled' }
    }
    if (!confirmations.hasPresenter()) return { approved: false, reason: 'no_presenter' }
    const { record } = call
    const req = isObject(request) ? request : {}
    const prepared: Prepared = {
      summary: typeof req.summary === 'string' ? req.summary : (record.def.title ?? record.name),
    }
    if (Array.isArray(req.changes)) {
      prepared.changes = redactChanges(req.changes.filter(isChange), record.sensitive)
    }
    const entry = makeEntry(call, undefined, prepared, 'inline', false)
    const ending = await file({ entry, kind: 'ask', call, value: undefined }).ended
    if (ending.status === 'approved') return { approved: true }
    if (ending.status === 'expired' || ending.status === 'evicted') {
      return { approved: false, reason: 'expired' }
    }
    return ending.reason === undefined
      ? { approved: false }
      : { approved: false, reason: ending.reason }
  }

  /**
   * Checks a question's answer with its schema. A validator that throws is the tool's own bug: an
   * `error` event, and a generic error for the one answering (the entry stays pending).
   */
  function checkAnswer(
    call: Call,
    validate: (value: unknown) => Validated<unknown> | Promise<Validated<unknown>>,
  ) {
    const conclude = (v: Validated<unknown>): Checked =>
      'issues' in v ? { result: deepFreeze(invalid(v.issues)) } : { value: v.value }
    const failed = (cause: unknown): Checked => {
      internals.toolError('tool_threw', call, cause, 'question validator threw')
      return { result: toolFailed() }
    }
    return async (value: unknown): Promise<Checked> => {
      try {
        return conclude(await validate(value))
      } catch (cause) {
        return failed(cause)
      }
    }
  }

  async function question(call: Call, request: unknown): Promise<QuestionAnswer> {
    const { record } = call
    // Undefined until enableQuestions(tm) lent the question code to this registry.
    const prepared = questionSupport.get(confirmations)?.(request, internals.converter)
    if (prepared && 'problem' in prepared) {
      // Development throws here, so the run's `await ctx.ask(…)` rejects with the fix.
      const [detail, ...words] = prepared.problem
      internals.misconfigured('question_invalid', [detail, record.name, ...words], record.name)
      return { answered: false, reason: 'invalid_question' }
    }
    if (call.abortedBy || call.phase !== 'running') return { answered: false, reason: 'cancelled' }
    if (!confirmations.hasPresenter() && call.hooks?.showsQuestions !== true) {
      return { answered: false, reason: 'no_presenter' }
    }
    if (!prepared) {
      // A presenter is there, and nobody called enableQuestions (development says so).
      internals.misconfigured(
        'question_invalid',
        ['questions not enabled', record.name],
        record.name,
      )
      return { answered: false, reason: 'invalid_question' }
    }
    const { spec } = prepared
    const entry = makeEntry(
      call,
      undefined,
      { summary: spec.prompt, question: spec },
      'inline',
      false,
    )
    const ending = await file({
      entry,
      kind: 'ask',
      call,
      value: undefined,
      question: checkAnswer(call, prepared.validate),
    }).ended
    switch (ending.status) {
      case 'approved':
        return { answered: true, value: ending.value }
      case 'rejected':
        return { answered: false, reason: 'declined' }
      case 'withdrawn':
        return ending.reason === NO_PRESENTER
          ? { answered: false, reason: 'no_presenter' }
          : { answered: false, reason: 'cancelled' }
      default:
        return { answered: false, reason: 'expired' }
    }
  }

  return {
    prepare,
    defer,
    inline,
    granted,
    ask,
    question,
    isStale,
    staleResult,
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
          // expiry. An adapter that shows the run's questions itself keeps them.
          if (!seen && c.call.hooks?.showsQuestions !== true) c.withdraw(WITHDRAWN_BY, NO_PRESENTER)
        } else if (internals.access(c.call.record, c.call.caller) !== 'ok') {
          c.withdraw(WITHDRAWN_BY)
        }
      }
      confirmations.grantList?.retain(
        (record, caller) =>
          !record.disposed && internals.grantCeiling(record, caller) === undefined,
      )
    },
  }
}
