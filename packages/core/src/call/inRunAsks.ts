import type { Call } from './call'
import type { Confirmation, ConfirmationParts } from '../confirmations/confirmation'
import type { InternalConfirmationStore } from '../confirmations/confirmationStore'
import { isObject } from '../base/guards'
import { redactChanges } from '../redaction/redact'
import type { RegistryInternals } from '../tool/toolRecord'
import type { QuestionAnswer } from '../types'
import { isChange, makeEntry, verifiesInRun, type Prepared } from './prepareConfirmation'
import { questionCodeOf } from '../confirmations/questionSupport'

export interface ConfirmAnswer {
  approved: boolean
  reason?: string
}

/** Why a `verify: true` run's `ctx.confirm` was refused on a registry without a verifier. */
const NO_VERIFIER = 'no_verifier'

/** What a run's own confirmations need of the flow: the registry, the store, and filing. */
export interface FlowParts {
  readonly internals: RegistryInternals
  readonly confirmations: InternalConfirmationStore
  file(parts: Omit<ConfirmationParts, 'verify'>): Confirmation
}

/**
 * Whether the code that started the call shows this ask of its run itself (`CallObserver`), so
 * it needs no mounted dialog: any ask with `presentsConfirmations`, a question with
 * `presentsQuestions`.
 */
export function callerShows(call: Pick<Call, 'observer'>, question: boolean): boolean {
  const { observer } = call
  return (
    observer?.presentsConfirmations === true || (question && observer?.presentsQuestions === true)
  )
}

/** `ctx.confirm` inside a run. */
export async function askInRun(
  flow: FlowParts,
  call: Call,
  request: unknown,
): Promise<ConfirmAnswer> {
  const { internals, confirmations } = flow
  if (call.abortedBy || call.phase !== 'running') {
    return { approved: false, reason: 'cancelled' }
  }
  if (!confirmations.hasPresenter() && !callerShows(call, false)) {
    return { approved: false, reason: 'no_presenter' }
  }
  // Nothing to ask the passkey with: fail closed, as the tool's own calls do.
  if (!internals.verification.verifier && verifiesInRun(internals, call)) {
    return { approved: false, reason: NO_VERIFIER }
  }
  const { record } = call
  const req = isObject(request) ? request : {}
  const prepared: Prepared = {
    summary: typeof req.summary === 'string' ? req.summary : (record.def.title ?? record.name),
  }
  if (Array.isArray(req.changes)) {
    prepared.changes = redactChanges(req.changes.filter(isChange), record.sensitive)
  }
  const entry = makeEntry(internals, confirmations, call, undefined, prepared, 'inline', false)
  const ending = await flow.file({ entry, kind: 'ask', call, value: undefined }).ended
  if (ending.status === 'approved') return { approved: true }
  if (ending.status === 'expired' || ending.status === 'evicted') {
    return { approved: false, reason: 'expired' }
  }
  return ending.reason === undefined
    ? { approved: false }
    : { approved: false, reason: ending.reason }
}

/** `ctx.ask` inside a run: a typed question, answered with `answer(id, value)`. */
export async function questionInRun(
  flow: FlowParts,
  call: Call,
  request: unknown,
): Promise<QuestionAnswer> {
  const { internals, confirmations } = flow
  const { record } = call
  // Undefined until `questions()` lent the question code to this registry.
  const questions = questionCodeOf(internals.features)
  const prepared = questions?.prepare(request, internals.converter)
  if (prepared && 'problem' in prepared) {
    // Development throws here, so the run's `await ctx.ask(…)` rejects with the fix.
    const [detail, ...words] = prepared.problem
    internals.misconfigured('question_invalid', [detail, record.name, ...words], record.name)
    return { answered: false, reason: 'invalid_question' }
  }
  if (call.abortedBy || call.phase !== 'running') return { answered: false, reason: 'cancelled' }
  if (!confirmations.hasPresenter() && !callerShows(call, true)) {
    return { answered: false, reason: 'no_presenter' }
  }
  if (!questions || !prepared) {
    // A presenter is there, and the registry has no `questions()` (development says so).
    internals.misconfigured('question_invalid', ['questions not enabled', record.name], record.name)
    return { answered: false, reason: 'invalid_question' }
  }
  const { spec } = prepared
  return questions.run(prepared, {
    file: (question) =>
      flow.file({
        entry: makeEntry(
          internals,
          confirmations,
          call,
          undefined,
          { summary: spec.prompt, question: spec },
          'inline',
          false,
        ),
        kind: 'ask',
        call,
        value: undefined,
        question,
      }).ended,
    threw: (cause) => internals.toolError('tool_threw', call, cause, 'question validator threw'),
  })
}
