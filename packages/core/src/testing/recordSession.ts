import type {
  Caller,
  ConfirmEvent,
  ConfirmMode,
  ConfirmStatus,
  FieldChange,
  GrantOptions,
  Toolmark,
  ToolResult,
} from '../types'
import { isObject } from '../base/guards'
import { REDACTED } from '../redaction/redact'
import { definitionFacts } from '../registry/definitions'

/** What each way a confirmation ends is replayed as. */
const DECISION = {
  approved: 'approve',
  rejected: 'reject',
  withdrawn: 'withdrawn',
  expired: 'expired',
  evicted: 'expired',
} as const satisfies { readonly [S in Exclude<ConfirmStatus, 'pending'>]: string }

/**
 * The version of the recording format; `replaySession` reads this one and version 1 (which did
 * not mark withheld values: there every `'[redacted]'` input value counts as withheld).
 */
export const RECORDING_VERSION = 2

/** One line of a recording, as `JSON.parse` gives it back. */
export type RecordedLine =
  | { type: 'session'; version: number; tools: string[] }
  | {
      type: 'call'
      callId: string
      tool: string
      caller: Caller
      /** As in events: sensitive values are `'[redacted]'`. */
      input: unknown
      /**
       * The input paths whose values were redacted (`password`, `cards.0.cvc`): a replay asks for
       * them (`secrets`) instead of sending the mask.
       */
      withheld?: string[]
    }
  | { type: 'result'; callId: string; tool: string; caller: Caller; result: ToolResult }
  | {
      type: 'confirm'
      confirmId: string
      callId: string
      tool: string
      mode: ConfirmMode
      summary: string
      changes?: FieldChange[]
    }
  | {
      type: 'answer'
      confirmId: string
      /**
       * What the person did (`approve`, `reject`, `answer` a question), or how the entry ended
       * without them.
       */
      decision: 'approve' | 'reject' | 'answer' | 'expired' | 'withdrawn'
      /** The grant the approval also gave (`approve(id, { grant })`), replayed with it. */
      grant?: GrantOptions
      /** With `answer`: the value the person answered, replayed with `answer(id, value)`. */
      value?: unknown
    }

/** A session being recorded. */
export interface SessionRecording {
  /** The JSON lines so far, one per call, result, confirmation and answer. */
  readonly lines: readonly string[]
  /** The recording as a JSON Lines text (what a fixture file holds). */
  text(): string
  /** Stops recording; the lines stay. */
  stop(): void
}

/**
 * The outcome of a deferred call a person approved, from the confirmation's `approved` event:
 * the call's own `result` event was its `needs_confirmation`, so this is where its run's result
 * is told. Recordings keep it as that call's next `result` line, as `human`.
 */
export function approvedRunResult(event: ConfirmEvent): ToolResult | undefined {
  const { status, entry, by, result } = event
  if (status !== 'approved' || entry.mode !== 'deferred' || entry.question || by === 'grant') {
    return undefined
  }
  return result
}

/**
 * The paths of a call's redacted input that hold a value the tool's `sensitive` paths masked (for
 * that input: `tour.start` masks what its steps write to another tool's secret fields): a masked
 * value is replaced whole, so each is a leaf. Without the tool's facts (a registry made
 * elsewhere), every mask counts.
 */
function withheldPaths(tm: Toolmark, tool: string, input: unknown): string[] {
  const facts = definitionFacts(tm, tool)
  const out: string[] = []
  const walk = (value: unknown, path: string) => {
    if (value === REDACTED && path !== '') {
      if (!facts || facts.sensitive(path, input)) out.push(path)
      return
    }
    const at = (key: string | number) => (path ? `${path}.${key}` : String(key))
    if (Array.isArray(value)) value.forEach((item, i) => walk(item, at(i)))
    else if (isObject(value)) for (const [key, item] of Object.entries(value)) walk(item, at(key))
  }
  walk(input, '')
  return out
}

/**
 * Records every call, result, confirmation and answer of a registry as JSON lines, for
 * `replaySession` to play back against a page. Inputs are redacted as in events, each redacted
 * value listed in the call's `withheld` (a replay asks for it again); call and
 * confirmation ids are renumbered (`c1`, `cf1`…) so a recording reads the same on every run.
 *
 * @example
 * const recording = recordSession(tm)
 * // … an agent and a person use the page …
 * writeFileSync('close-ticket.jsonl', recording.text())
 */
export function recordSession(tm: Toolmark): SessionRecording {
  const lines: string[] = []
  const callIds = new Map<string, string>()
  const confirmIds = new Map<string, string>()
  const write = (line: RecordedLine) => lines.push(JSON.stringify(line))
  const callIdOf = (live: string) => {
    let id = callIds.get(live)
    if (!id) callIds.set(live, (id = `c${callIds.size + 1}`))
    return id
  }
  const confirmIdOf = (live: string) => {
    let id = confirmIds.get(live)
    if (!id) confirmIds.set(live, (id = `cf${confirmIds.size + 1}`))
    return id
  }

  write({
    type: 'session',
    version: RECORDING_VERSION,
    tools: tm.manifest({ caller: 'test' }).tools.map((t) => t.name),
  })
  const offs = [
    tm.events.on('call', (e) => {
      const line: RecordedLine = {
        type: 'call',
        callId: callIdOf(e.callId),
        tool: e.tool,
        caller: e.caller,
        input: e.input,
      }
      const withheld = withheldPaths(tm, e.tool, e.input)
      if (withheld.length > 0) line.withheld = withheld
      write(line)
    }),
    tm.events.on('result', (e) => {
      const result =
        e.result.status === 'needs_confirmation'
          ? { ...e.result, confirmId: confirmIdOf(e.result.confirmId) }
          : e.result
      write({ type: 'result', callId: callIdOf(e.callId), tool: e.tool, caller: e.caller, result })
    }),
    tm.events.on('confirm', (event) => {
      const { status, entry, by, grant, answer } = event
      // A call a grant covered asked nobody: the approval that gave the grant is the answer.
      if (by === 'grant') return
      const confirmId = confirmIdOf(entry.id)
      const ran = approvedRunResult(event)
      if (ran) {
        write({
          type: 'result',
          callId: callIdOf(entry.callId),
          tool: entry.tool,
          caller: 'human',
          result: ran,
        })
      }
      if (status === 'pending') {
        const line: RecordedLine = {
          type: 'confirm',
          confirmId,
          callId: callIdOf(entry.callId),
          tool: entry.tool,
          mode: entry.mode,
          summary: entry.summary,
        }
        if (entry.changes) line.changes = entry.changes
        write(line)
        return
      }
      if (status === 'approved' && entry.question) {
        write({ type: 'answer', confirmId, decision: 'answer', value: answer })
        return
      }
      const decision = DECISION[status]
      const given =
        grant === undefined ? undefined : tm.confirmations.grants().find((g) => g.id === grant)
      if (given) {
        const options: GrantOptions = {
          for:
            given.expiresAt === undefined ? 'session' : { ms: given.expiresAt - given.createdAt },
        }
        if (given.pins.length > 0) options.pins = given.pins.map((pin) => pin.path)
        write({ type: 'answer', confirmId, decision, grant: options })
      } else write({ type: 'answer', confirmId, decision })
    }),
  ]
  let stopped = false
  return {
    lines,
    text: () => (lines.length ? `${lines.join('\n')}\n` : ''),
    stop() {
      if (stopped) return
      stopped = true
      for (const off of offs) off()
    },
  }
}
