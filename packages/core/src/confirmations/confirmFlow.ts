import type { Call, Waited } from '../call/call'
import type { ConfirmationHandler } from './confirmationStore'
import { isObject, isThenable, unref } from '../base/guards'
import { randomId } from '../base/ids'
import { inputJsonSchema, titlesOf } from '../schema/jsonSchema'
import { redactChanges, redactValue } from '../redaction/redact'
import { cancelled, deepFreeze, ok, refuse, toolFailed } from '../call/results'
import type { RegistryInternals, ToolRecord } from '../registry/toolRecord'
import type { ConfirmationEntry, ConfirmMode, FieldChange, ToolResult } from '../types'
import { validateInput, type Checked } from '../call/validateInput'

/** What a confirmation shows, worked out in the call's slot when the call asks. */
export interface Prepared {
  summary: string
  /** Shown instead of the call's input (already redacted). */
  shown?: { input: unknown }
  changes?: FieldChange[]
  labels?: Record<string, string>
  isStale?: () => boolean
}

export interface ConfirmAnswer {
  approved: boolean
  reason?: string
}

/** Runs what the person approved (in the scope's queue, ahead of calls not started). */
export type OnApproved = (input: unknown) => Promise<ToolResult>

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
  /** `ctx.confirm` inside a run. */
  ask(call: Call, request: unknown): Promise<ConfirmAnswer>
  /** Whether what a confirmation showed changed since (a check that throws says yes). */
  isStale(prepared: Prepared): boolean
  /** The result of an approval whose confirmation went stale. */
  staleResult(): ToolResult
  /** Withdraws the pending confirmations of a tool that went away. */
  dropTool(record: ToolRecord): void
  /** Withdraws the pending confirmations whose caller lost access (policy, `when`, presenter). */
  withdraw(): void
}

type ConfirmEnd = 'approved' | 'rejected' | 'expired'

interface Pending {
  readonly record: ToolRecord
  readonly caller: Call['caller']
  /** `call` for step 7 confirmations, `ask` for `ctx.confirm` (the run is already under way). */
  readonly kind: 'call' | 'ask'
  readonly withdraw: () => unknown
}

const OK_APPROVED = deepFreeze(ok(null))
const REJECTED = deepFreeze(cancelled('operator'))
const WITHDRAWN = deepFreeze(cancelled('policy'))
const EXPIRED = deepFreeze(
  refuse('confirmation_expired', 'The confirmation expired before anyone answered'),
)

const isChange = (c: unknown): c is FieldChange => isObject(c) && typeof c.path === 'string'

/** The titles the tool's input JSON Schema gives its properties (when it has a schema to read). */
function schemaTitles(record: ToolRecord): Readonly<Record<string, string>> {
  const { input, inputSchema } = record.def
  return titlesOf(inputJsonSchema(input, inputSchema, undefined).schema)
}

export function createConfirmFlow(internals: RegistryInternals): ConfirmFlow {
  const { confirmations, events, limits } = internals
  const pending = new Map<string, Pending>()

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

  /** Files an entry: pending (with what withdraws it), in the store, and announced. */
  function file(
    call: Call,
    entry: ConfirmationEntry,
    kind: Pending['kind'],
    handler: ConfirmationHandler,
    withdraw: () => void,
  ): void {
    pending.set(entry.id, { record: call.record, caller: call.caller, kind, withdraw })
    confirmations.add(entry, handler)
    events.emit('confirm', { type: 'requested', entry })
  }

  /** An entry's end: no longer pending, and its outcome announced. */
  function ended(entry: ConfirmationEntry, type: ConfirmEnd, result: ToolResult): ToolResult {
    pending.delete(entry.id)
    events.emit('confirm', { type, entry, result })
    return result
  }

  function defer(call: Call, value: unknown, prepared: Prepared, onApproved: OnApproved) {
    const entry = makeEntry(call, value, prepared, 'deferred')
    file(
      call,
      entry,
      'call',
      {
        check: (edited) => checkEdited(call.record, edited, call),
        approve: async (checked) =>
          ended(entry, 'approved', await onApproved(checked ? checked.value : value)),
        reject: async () => ended(entry, 'rejected', REJECTED),
        expire: () => ended(entry, 'expired', EXPIRED),
      },
      () => confirmations.remove(entry.id) && ended(entry, 'rejected', WITHDRAWN),
    )
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
    return new Promise<ToolResult>((resolve) => {
      const end = (type: ConfirmEnd, result: ToolResult) => {
        resolve(ended(entry, type, result))
        return result
      }
      let answered!: () => void
      const answer = new Promise<void>((r) => (answered = r))
      // The call waits for the person: its slot free, its deadline paused.
      call.wait(answer, 'confirmation', (w) => {
        // Stopped while the person decides (signal, Stop, withdrawal): the entry goes away
        // unanswered. An entry already answered is the answer's to end.
        if ('stopped' in w && confirmations.remove(entry.id)) {
          end('rejected', call.settle(cancelled(w.stopped)))
        }
      })
      file(
        call,
        entry,
        'call',
        {
          check: (edited) => checkEdited(call.record, edited, call),
          approve(checked) {
            pending.delete(entry.id)
            answered()
            return onApproved(checked ? checked.value : value).then((result) =>
              end('approved', result),
            )
          },
          async reject() {
            answered()
            return end('rejected', call.settle(REJECTED))
          },
          expire() {
            answered()
            end('expired', call.settle(EXPIRED))
          },
        },
        () => call.abort('policy'),
      )
    })
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
    const entry = makeEntry(call, undefined, prepared, 'inline')
    let decide!: (answer: ConfirmAnswer) => void
    const decision = new Promise<ConfirmAnswer>((resolve) => (decide = resolve))
    const end = (type: ConfirmEnd, answer: ConfirmAnswer, result: ToolResult) => {
      decide(answer)
      return ended(entry, type, result)
    }
    file(
      call,
      entry,
      'ask',
      {
        approve: async () => end('approved', { approved: true }, OK_APPROVED),
        reject: async (reason) =>
          end('rejected', reason ? { approved: false, reason } : { approved: false }, REJECTED),
        expire: () => end('expired', { approved: false, reason: 'expired' }, EXPIRED),
      },
      () =>
        confirmations.remove(entry.id) &&
        end('rejected', { approved: false, reason: 'withdrawn' }, WITHDRAWN),
    )
    // Waiting on a person does not count toward the run's deadline.
    const waited = await new Promise<Waited<ConfirmAnswer>>((resolve) =>
      call.wait(decision, 'ask', resolve),
    )
    if ('value' in waited) return waited.value
    if ('stopped' in waited && confirmations.remove(entry.id)) {
      end(
        'rejected',
        { approved: false, reason: 'cancelled' },
        deepFreeze(cancelled(waited.stopped)),
      )
    }
    return { approved: false, reason: 'cancelled' }
  }

  return {
    prepare,
    defer,
    inline,
    ask,
    isStale,
    staleResult,
    dropTool(record) {
      for (const p of [...pending.values()]) if (p.record === record) p.withdraw()
    },
    withdraw() {
      for (const p of [...pending.values()]) {
        if (p.kind === 'call' && internals.access(p.record, p.caller) !== 'ok') p.withdraw()
      }
    },
  }
}
