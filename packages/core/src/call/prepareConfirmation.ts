import type { Call } from './call'
import type { InternalConfirmationStore } from '../confirmations/confirmationStore'
import { isObject } from '../base/guards'
import { randomId } from '../base/ids'
import { inputJsonSchema, titlesOf } from '../schema/jsonSchema'
import { redactChanges, redactValue } from '../redaction/redact'
import { deepFreeze, refuse, toolFailed } from '../base/results'
import type { RegistryInternals, ToolRecord } from '../tool/toolRecord'
import { frozenInput } from './validateInput'
import type {
  ConfirmationEntry,
  ConfirmMode,
  FieldChange,
  QuestionSpec,
  ToolResult,
} from '../types'

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
  /**
   * A call's own confirmation: its input copied and frozen as the confirmation is filed
   * (`frozenInput`). The summary is read from it, the entry shows it and, unless the person
   * edits it, it is what runs: nothing the caller does to its object afterwards reaches it.
   */
  input?: { readonly value: unknown }
}

export const isChange = (c: unknown): c is FieldChange => isObject(c) && typeof c.path === 'string'

/** The titles the tool's input JSON Schema gives its properties (when it has a schema to read). */
function schemaTitles(record: ToolRecord): Readonly<Record<string, string>> {
  const { input, inputSchema } = record.def
  return titlesOf(inputJsonSchema(input, inputSchema, undefined).schema)
}

/**
 * Summary, changes, labels and staleness check for a call that needs a confirmation, all read
 * from the frozen copy of its input that will run (an input that cannot be copied: `invalid`).
 */
export function prepareConfirmation(
  internals: RegistryInternals,
  call: Call,
  given: unknown,
): Prepared | { result: ToolResult } {
  const { record } = call
  const { def } = record
  const input = frozenInput(given)
  if ('result' in input) return input
  const { value } = input
  try {
    const extra = def.confirmation?.(value)
    const summary = def.summary?.(value) ?? extra?.summary ?? def.title ?? record.name
    if (typeof summary !== 'string') throw new TypeError('summary must return a string')
    const prepared: Prepared = { summary, input }
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

/** The result of an approval whose confirmation went stale. */
export const staleResult = (internals: RegistryInternals): ToolResult =>
  deepFreeze(
    refuse('stale', 'What this confirmation showed changed after it was requested', {
      rev: internals.rev(),
    }),
  )

/** Whether what a confirmation showed changed since (a check that throws says yes). */
export function isStale(prepared: Prepared): boolean {
  try {
    return prepared.isStale?.() === true
  } catch {
    // A check that cannot answer is treated as "changed": nothing runs on a guess.
    return true
  }
}

/**
 * The entry a person is shown, frozen: for the call's own confirmation (`ofCall`), or for a
 * confirmation its run asks (`ctx.confirm`, `ctx.ask`).
 */
export function makeEntry(
  internals: RegistryInternals,
  confirmations: InternalConfirmationStore,
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
    expiresAt: createdAt + internals.limits.confirmationExpiryMs,
    status: 'pending',
  }
  if (typeof record.def.title === 'string') entry.title = record.def.title
  if (prepared.changes) entry.changes = prepared.changes
  if (prepared.labels) entry.labels = prepared.labels
  if (prepared.agentFilled) entry.agentFilled = [...prepared.agentFilled]
  if (prepared.question) entry.question = prepared.question
  else if (
    ofCall
      ? internals.verifies(record, call.caller, call.actingFor)
      : verifiesInRun(internals, call)
  ) {
    entry.verify = true
  }
  // Grantable: the registry makes grants (`grants()`) and no ceiling forbids this one.
  const list = ofCall ? confirmations.grantList : undefined
  if (list && list.ceiling(internals, record, call.caller, call.actingFor) === undefined)
    entry.grantable = true
  if (!ofCall) entry.inRun = true
  // The code that started the call shows it (an AG-UI interrupt): no dialog asks it too.
  if (call.observer?.presentsConfirmations === true) entry.presentedByCaller = true
  return deepFreeze(entry)
}

/**
 * Whether a run's own `ctx.confirm` needs the person's passkey: its tool says `verify: true`, or
 * its call's approval needed one. Whoever called the run (a person's own call included), a
 * script must not be able to approve what the tool protects with a passkey.
 */
export const verifiesInRun = (internals: RegistryInternals, call: Call): boolean =>
  call.record.def.verify === true || internals.verifies(call.record, call.caller, call.actingFor)
