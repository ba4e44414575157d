import type { ConfirmationHandler } from './confirmationStore'
import { createFlight } from './flight'
import { now, randomId } from './ids'
import { isObject, type Flight, type RegistryInternals, type ToolRecord } from './internals'
import { redactChanges, redactValue } from './redact'
import { cancelled, deepFreeze, ok, refuse, toolFailed } from './results'
import type { ConfirmationEntry, ConfirmMode, FieldChange, ToolResult } from './types'

/** What a confirmation shows, worked out once when the call asks. */
export interface Prepared {
  summary: string
  /** Shown instead of the call's input (already redacted). */
  shown?: { input: unknown }
  changes?: FieldChange[]
  labels?: Record<string, string>
  isStale?: () => boolean
}

/** Input validation's answer: the parsed value, or the result to return instead. */
export type Checked = { value: unknown } | { result: ToolResult }

/** A run's deadline, paused while a person decides (waiting on a person does not count). */
export interface Pausable {
  pause(): void
  resume(): void
}

/** Step 5 of the pipeline and `ctx.confirm`: every way a call waits for a person. */
export interface ConfirmFlow {
  /** Summary, changes and staleness check for a call that needs a confirmation. */
  prepare(record: ToolRecord, value: unknown, callId: string): Prepared | { result: ToolResult }
  /** Deferred: files the entry and answers `needs_confirmation` at once. */
  deferred(flight: Flight, value: unknown, prepared: Prepared): ToolResult
  /** Inline: waits in the page for the person, then runs; `finish` emits the call's result. */
  inline(
    flight: Flight,
    value: unknown,
    prepared: Prepared,
    finish: (result: ToolResult) => ToolResult,
  ): Promise<ToolResult>
  /** `ctx.confirm` inside a run. */
  ask(flight: Flight, request: unknown, deadline: Pausable): Promise<ConfirmAnswer>
  /** Withdraws the pending confirmations of a tool that went away. */
  dropTool(record: ToolRecord): void
  /** Withdraws the pending confirmations whose caller lost access (policy, `when`, presenter). */
  withdraw(): void
}

export interface ConfirmAnswer {
  approved: boolean
  reason?: string
}

interface Pending {
  readonly record: ToolRecord
  readonly caller: Flight['caller']
  /** `call` for step 5 confirmations, `ask` for `ctx.confirm` (the run is already under way). */
  readonly kind: 'call' | 'ask'
  readonly withdraw: () => void
}

const OK_APPROVED = deepFreeze(ok(null))
const REJECTED = deepFreeze(cancelled('operator'))
const WITHDRAWN = deepFreeze(cancelled('policy'))
const EXPIRED = deepFreeze(
  refuse('confirmation_expired', 'The confirmation expired before anyone answered'),
)

const isChange = (c: unknown): c is FieldChange => isObject(c) && typeof c.path === 'string'

export function createConfirmFlow(
  internals: RegistryInternals,
  steps: {
    checkInput(
      record: ToolRecord,
      input: unknown,
      call: { readonly callId: string },
    ): Checked | Promise<Checked>
    execute(flight: Flight, input: unknown): ToolResult | Promise<ToolResult>
  },
): ConfirmFlow {
  const { confirmations, events, limits } = internals
  const pending = new Map<string, Pending>()
  /** Results this module built are fresh and plain: freezing them is enough. */
  const own = (result: ToolResult, record: ToolRecord, callId: string) =>
    Object.isFrozen(result) ? result : internals.normalize(result, { record, callId })

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

  function prepare(
    record: ToolRecord,
    value: unknown,
    callId: string,
  ): Prepared | { result: ToolResult } {
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
      if (extra?.labels && typeof extra.labels === 'object') {
        const labels: Record<string, string> = {}
        for (const [path, label] of Object.entries(extra.labels)) {
          if (typeof label === 'string') labels[path] = label
        }
        prepared.labels = labels
      }
      return prepared
    } catch (cause) {
      internals.errorEvent({
        code: 'tool_threw',
        message: `The summary or confirmation of "${record.name}" threw`,
        tool: record.name,
        callId,
        cause,
      })
      return { result: toolFailed() }
    }
  }

  function makeEntry(
    flight: Flight,
    value: unknown,
    prepared: Prepared,
    mode: ConfirmMode,
  ): ConfirmationEntry {
    const { record } = flight
    const createdAt = Date.now()
    const entry: ConfirmationEntry = {
      id: randomId('cf_'),
      callId: flight.callId,
      tool: record.name,
      caller: flight.caller,
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

  /** Checks an edited input before the store gives the entry up: issues keep it pending. */
  const editCheck = (record: ToolRecord, callId: string) => async (edited: unknown) => {
    const checked = await steps.checkInput(record, edited, { callId })
    return 'result' in checked ? own(checked.result, record, callId) : undefined
  }

  /** An approved deferred confirmation: the tool runs as `human`, in its scope's queue. */
  async function runApproved(
    origin: Flight,
    input: unknown,
    prepared: Prepared,
  ): Promise<ToolResult> {
    const { record, callId } = origin
    if (isStale(prepared)) return staleResult()
    if (internals.access(record, 'human') !== 'ok') return WITHDRAWN
    const flight = createFlight(callId, record, origin.caller, 'human')
    internals.flights.add(flight)
    try {
      return own(await steps.execute(flight, input), record, callId)
    } finally {
      flight.phase = 'done'
      internals.flights.delete(flight)
    }
  }

  function deferred(flight: Flight, value: unknown, prepared: Prepared): ToolResult {
    const { record, callId } = flight
    const entry = makeEntry(flight, value, prepared, 'deferred')
    const settle = (type: 'approved' | 'rejected' | 'expired', result: ToolResult) => {
      pending.delete(entry.id)
      events.emit('confirm', { type, entry, result })
      return result
    }
    const handler: ConfirmationHandler = {
      check: editCheck(record, callId),
      async approve(edited, hasInput) {
        let input = value
        if (hasInput) {
          const checked = await steps.checkInput(record, edited, { callId })
          if ('result' in checked) return settle('rejected', own(checked.result, record, callId))
          input = checked.value
        }
        const started = now()
        const result = await runApproved(flight, input, prepared)
        events.emit('result', {
          callId,
          tool: record.name,
          caller: 'human',
          result,
          durationMs: now() - started,
        })
        return settle('approved', result)
      },
      async reject() {
        return settle('rejected', REJECTED)
      },
      expire() {
        settle('expired', EXPIRED)
      },
    }
    pending.set(entry.id, {
      record,
      caller: flight.caller,
      kind: 'call',
      withdraw() {
        if (confirmations.remove(entry.id)) settle('rejected', WITHDRAWN)
      },
    })
    confirmations.add(entry, handler)
    events.emit('confirm', { type: 'requested', entry })
    const result: ToolResult = {
      status: 'needs_confirmation',
      confirmId: entry.id,
      summary: entry.summary,
    }
    if (entry.changes) result.changes = entry.changes as FieldChange[]
    return result
  }

  async function inline(
    flight: Flight,
    value: unknown,
    prepared: Prepared,
    finish: (result: ToolResult) => ToolResult,
  ): Promise<ToolResult> {
    const { record, callId } = flight
    const entry = makeEntry(flight, value, prepared, 'inline')
    type Decision =
      | { kind: 'approve'; input: unknown; hasInput: boolean }
      | { kind: 'reject' }
      | { kind: 'expire' }
    let decide!: (decision: Decision) => void
    const decision = new Promise<Decision>((resolve) => (decide = resolve))
    let resolveDone!: (result: ToolResult) => void
    const done = new Promise<ToolResult>((resolve) => (resolveDone = resolve))
    const handler: ConfirmationHandler = {
      check: editCheck(record, callId),
      approve(input, hasInput) {
        decide({ kind: 'approve', input, hasInput })
        return done
      },
      reject() {
        decide({ kind: 'reject' })
        return done
      },
      expire() {
        decide({ kind: 'expire' })
      },
    }
    const end = (type: 'approved' | 'rejected' | 'expired', result: ToolResult) => {
      const final = finish(result)
      events.emit('confirm', { type, entry, result: final })
      resolveDone(final)
      return final
    }
    flight.phase = 'confirming'
    pending.set(entry.id, {
      record,
      caller: flight.caller,
      kind: 'call',
      withdraw: () => flight.abort('policy'),
    })
    confirmations.add(entry, handler)
    events.emit('confirm', { type: 'requested', entry })
    const outcome = await Promise.race([decision, flight.aborted])
    pending.delete(entry.id)
    if (typeof outcome === 'string') {
      confirmations.remove(entry.id)
      return end('rejected', cancelled(outcome))
    }
    if (outcome.kind === 'reject') return end('rejected', REJECTED)
    if (outcome.kind === 'expire') return end('expired', EXPIRED)
    let input = value
    if (outcome.hasInput) {
      const checked = await steps.checkInput(record, outcome.input, { callId })
      if ('result' in checked) return end('rejected', checked.result)
      input = checked.value
    }
    if (isStale(prepared)) return end('approved', staleResult())
    if (flight.abortedBy) return end('approved', cancelled(flight.abortedBy))
    return end('approved', await steps.execute(flight, input))
  }

  async function ask(flight: Flight, request: unknown, deadline: Pausable) {
    if (flight.abortedBy || flight.phase !== 'running') {
      return { approved: false, reason: 'cancelled' }
    }
    if (!confirmations.hasPresenter()) return { approved: false, reason: 'no_presenter' }
    const { record } = flight
    const req = isObject(request) ? request : {}
    const prepared: Prepared = {
      summary: typeof req.summary === 'string' ? req.summary : (record.def.title ?? record.name),
    }
    if (Array.isArray(req.changes)) {
      prepared.changes = redactChanges(req.changes.filter(isChange), record.sensitive)
    }
    const entry = makeEntry(flight, undefined, prepared, 'inline')
    let decide!: (answer: ConfirmAnswer) => void
    const decision = new Promise<ConfirmAnswer>((resolve) => (decide = resolve))
    const end = (
      type: 'approved' | 'rejected' | 'expired',
      answer: ConfirmAnswer,
      result: ToolResult,
    ) => {
      pending.delete(entry.id)
      decide(answer)
      events.emit('confirm', { type, entry, result })
      return result
    }
    confirmations.add(entry, {
      approve: async () => end('approved', { approved: true }, OK_APPROVED),
      reject: async (reason) =>
        end('rejected', reason ? { approved: false, reason } : { approved: false }, REJECTED),
      expire() {
        end('expired', { approved: false, reason: 'expired' }, EXPIRED)
      },
    })
    pending.set(entry.id, {
      record,
      caller: flight.caller,
      kind: 'ask',
      withdraw() {
        if (confirmations.remove(entry.id)) {
          end('rejected', { approved: false, reason: 'withdrawn' }, WITHDRAWN)
        }
      },
    })
    events.emit('confirm', { type: 'requested', entry })
    deadline.pause()
    try {
      const answer = await Promise.race([decision, flight.aborted])
      if (typeof answer !== 'string') return answer
      if (confirmations.remove(entry.id)) {
        end('rejected', { approved: false, reason: 'cancelled' }, deepFreeze(cancelled(answer)))
      }
      return { approved: false, reason: 'cancelled' }
    } finally {
      deadline.resume()
    }
  }

  return {
    prepare,
    deferred,
    inline,
    ask,
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
