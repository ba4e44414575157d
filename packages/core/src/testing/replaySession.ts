import type { ConfirmationEntry, Toolmark, ToolResult } from '../types'
import { RECORDING_VERSION, approvedRunResult, type RecordedLine } from './recordSession'
import { lendFeature } from '../confirmations/feature'
import { grants } from '../confirmations/grants'
import { questions } from '../confirmations/questions'

/** Options of `replaySession`. */
export interface ReplayOptions {
  /** How long to wait for a result, a confirmation or a tool to appear, in ms. Default 5 000. */
  timeoutMs?: number
  /**
   * Paths not compared, as dot paths into the result with `*` for one segment and `**` for any
   * number (`'data.updatedAt'`, `'**.createdAt'`): values that change on every run.
   */
  ignore?: string[]
}

/** One difference between a recorded result (or confirmation) and the live one. */
export interface ReplayDiff {
  /** The line of the recording (1-based). */
  line: number
  tool: string
  /** The recording's call id (`c3`). */
  callId: string
  /** Where in the result (`status`, `code`, `data.changes.0.after`). */
  path: string
  expected: unknown
  actual: unknown
}

/** What a replay that matched did. */
export interface ReplayReport {
  calls: number
  results: number
  answers: number
}

/** A recording that cannot be replayed, or a replay that drifted, with the line and the fix. */
export class ReplayError extends Error {
  override name = 'ReplayError'
  constructor(
    message: string,
    /** The line of the recording (1-based), when one is to blame. */
    readonly line?: number,
    /** For a drift: every difference found. */
    readonly diffs: readonly ReplayDiff[] = [],
  ) {
    super(message)
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

const CALLERS = ['inapp', 'webmcp', 'mcp', 'test', 'human']

/** Parses and checks every line first, so a broken recording fails before anything runs. */
function parse(lines: string | readonly string[]): { line: number; entry: RecordedLine }[] {
  const raw = typeof lines === 'string' ? lines.split('\n') : [...lines]
  const out: { line: number; entry: RecordedLine }[] = []
  const fail = (line: number, what: string): never => {
    throw new ReplayError(
      `Recording line ${line}: ${what}. Record the session again with recordSession(tm) and save recording.text() unchanged.`,
      line,
    )
  }
  raw.forEach((text, i) => {
    const line = i + 1
    if (typeof text !== 'string') fail(line, 'not a string')
    if (text.trim() === '') return
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      fail(line, 'not JSON')
    }
    if (!isObject(value)) return fail(line, 'not a JSON object')
    const need = (key: string, ok: boolean) => {
      if (!ok) fail(line, `a "${String(value.type)}" line needs "${key}"`)
    }
    switch (value.type) {
      case 'session':
        if (value.version !== RECORDING_VERSION) {
          fail(
            line,
            `recorded in format version ${String(value.version)}, this replays version ${RECORDING_VERSION}`,
          )
        }
        need('tools', Array.isArray(value.tools))
        break
      case 'call':
        need('callId', typeof value.callId === 'string')
        need('tool', typeof value.tool === 'string')
        need('caller', CALLERS.includes(value.caller as string))
        break
      case 'result':
        need('callId', typeof value.callId === 'string')
        need('result', isObject(value.result) && typeof value.result.status === 'string')
        break
      case 'confirm':
        need('confirmId', typeof value.confirmId === 'string')
        need('callId', typeof value.callId === 'string')
        break
      case 'answer':
        need('confirmId', typeof value.confirmId === 'string')
        need(
          'decision',
          ['approve', 'reject', 'answer', 'expired', 'withdrawn'].includes(
            value.decision as string,
          ),
        )
        break
      default:
        fail(line, `unknown line type ${JSON.stringify(value.type)}`)
    }
    out.push({ line, entry: value as unknown as RecordedLine })
  })
  return out
}

/** Whether a dot path is ignored by one of the patterns. */
function ignored(patterns: readonly string[], path: string): boolean {
  const segments = path.split('.')
  const match = (p: string[], i: number, j: number): boolean => {
    if (i === p.length) return j === segments.length
    if (p[i] === '**') {
      for (let k = j; k <= segments.length; k++) if (match(p, i + 1, k)) return true
      return false
    }
    return j < segments.length && (p[i] === '*' || p[i] === segments[j]) && match(p, i + 1, j + 1)
  }
  return patterns.some((pattern) => match(pattern.split('.'), 0, 0))
}

/** Every difference between two JSON values, as paths. */
function compare(
  expected: unknown,
  actual: unknown,
  path: string,
  skip: readonly string[],
  out: { path: string; expected: unknown; actual: unknown }[],
): void {
  if (path && ignored(skip, path)) return
  if (Object.is(expected, actual)) return
  const bothArrays = Array.isArray(expected) && Array.isArray(actual)
  const bothObjects = isObject(expected) && isObject(actual)
  if (!bothArrays && !bothObjects) {
    out.push({ path, expected, actual })
    return
  }
  const e = expected as Record<string, unknown>
  const a = actual as Record<string, unknown>
  const keys = new Set([...Object.keys(e), ...Object.keys(a)])
  for (const key of keys) compare(e[key], a[key], path ? `${path}.${key}` : key, skip, out)
}

/** What of a result is compared: status, code, `by`, issues, changes and data (not messages or ids). */
function comparable(result: ToolResult): Record<string, unknown> {
  switch (result.status) {
    case 'ok':
      return { status: 'ok', data: JSON.parse(JSON.stringify(result.data ?? null)) }
    case 'invalid':
      return { status: 'invalid', issues: result.issues.map((i) => i.path) }
    case 'refused':
      return { status: 'refused', code: result.code }
    case 'needs_confirmation':
      return { status: 'needs_confirmation', changes: result.changes ?? [] }
    case 'cancelled':
      return { status: 'cancelled', by: result.by }
    default:
      return { status: result.status }
  }
}

const show = (value: unknown) => (value === undefined ? '(none)' : JSON.stringify(value))

/**
 * Replays a recording (`recordSession`) against a page: the agent's calls go through `tm.call`
 * as the recorded callers, in the recorded order (calls that overlapped overlap again; a call
 * made after a result waits for it), the person's answers are given to the live confirmations,
 * and every result is compared with the recorded one — status, refusal code, `cancelled.by`,
 * issue paths, changes and data. Resolves when everything matched; rejects with a `ReplayError`
 * listing every difference, or naming the line and the fix when the recording is broken or a
 * recorded tool is not on the page.
 *
 * The replay is the person while it runs (it attaches a presenter), so give it a registry
 * without a scripted answer.
 */
export async function replaySession(
  tm: Toolmark,
  lines: string | readonly string[],
  options: ReplayOptions = {},
): Promise<ReplayReport> {
  const timeoutMs = options.timeoutMs ?? 5000
  const skip = options.ignore ?? []
  const entries = parse(lines)

  // Live ids by recorded ids, and what the page emits, as it comes.
  const liveCall = new Map<string, string>()
  const recordedCall = new Map<string, string>()
  const liveConfirm = new Map<string, { entry: ConfirmationEntry }>()
  const confirmsByCall = new Map<string, ConfirmationEntry[]>()
  const resultsByCall = new Map<string, ToolResult[]>()
  const waiters = new Set<() => void>()
  const poke = () => {
    for (const waiter of [...waiters]) waiter()
  }
  /** A call's next result: its `result` event, or an approved deferred run's outcome. */
  const resultOf = (callId: string, result: ToolResult) => {
    const list = resultsByCall.get(callId) ?? []
    list.push(result)
    resultsByCall.set(callId, list)
    poke()
  }
  let lastCallId: string | undefined
  const offs = [
    tm.events.on('call', (e) => {
      lastCallId = e.callId
    }),
    tm.events.on('result', (e) => resultOf(e.callId, e.result)),
    tm.events.on('confirm', (e) => {
      const ran = approvedRunResult(e)
      if (ran) resultOf(e.entry.callId, ran)
      if (e.type !== 'requested') return
      const list = confirmsByCall.get(e.entry.callId) ?? []
      list.push(e.entry)
      confirmsByCall.set(e.entry.callId, list)
      poke()
    }),
    tm.subscribe(poke),
  ]
  // The recording's answers are given to the page's questions, and its grants given again.
  lendFeature(tm, questions())
  lendFeature(tm, grants())
  const detachPresenter = tm.confirmations.attachPresenter()

  /** Resolves with `read()` once it is defined, or undefined after the timeout. */
  const until = <T>(read: () => T | undefined): Promise<T | undefined> => {
    const now = read()
    if (now !== undefined) return Promise.resolve(now)
    return new Promise((resolve) => {
      const done = (value: T | undefined) => {
        clearTimeout(timer)
        waiters.delete(check)
        resolve(value)
      }
      const check = () => {
        const value = read()
        if (value !== undefined) done(value)
      }
      const timer = setTimeout(() => done(read()), timeoutMs)
      waiters.add(check)
    })
  }

  const diffs: ReplayDiff[] = []
  const pending: Promise<void>[] = []
  const seenResults = new Map<string, number>()
  const seenConfirms = new Map<string, number>()
  const report: ReplayReport = { calls: 0, results: 0, answers: 0 }

  const expectResult = async (line: number, entry: Extract<RecordedLine, { type: 'result' }>) => {
    const index = seenResults.get(entry.callId) ?? 0
    seenResults.set(entry.callId, index + 1)
    const live = liveCall.get(entry.callId)
    const actual =
      live === undefined ? undefined : await until(() => resultsByCall.get(live)?.[index])
    report.results++
    const base = { line, tool: entry.tool, callId: entry.callId }
    if (!actual) {
      diffs.push({
        ...base,
        path: 'result',
        expected: entry.result.status,
        actual: `no result within ${timeoutMs} ms`,
      })
      return
    }
    const found: { path: string; expected: unknown; actual: unknown }[] = []
    compare(comparable(entry.result), comparable(actual), '', skip, found)
    for (const d of found) diffs.push({ ...base, ...d })
  }

  try {
    for (const { line, entry } of entries) {
      switch (entry.type) {
        case 'session':
          break
        case 'call': {
          // A call made after a result waits for it, as the agent did.
          await Promise.all(pending.splice(0))
          const visible = await until(() =>
            tm.describe(entry.tool, { caller: entry.caller }) ? true : undefined,
          )
          if (!visible) {
            throw new ReplayError(
              `Recording line ${line}: the page has no tool "${entry.tool}" for caller "${entry.caller}" (waited ${timeoutMs} ms). Render the part of the page that registers it before replaying, or record the session again if the tool was renamed or removed.`,
              line,
            )
          }
          lastCallId = undefined
          void tm.call(entry.tool, entry.input, { caller: entry.caller })
          if (lastCallId === undefined) {
            throw new ReplayError(
              `Recording line ${line}: the call to "${entry.tool}" was not seen`,
              line,
            )
          }
          liveCall.set(entry.callId, lastCallId)
          recordedCall.set(lastCallId, entry.callId)
          report.calls++
          break
        }
        case 'result':
          pending.push(expectResult(line, entry))
          break
        case 'confirm': {
          const index = seenConfirms.get(entry.callId) ?? 0
          seenConfirms.set(entry.callId, index + 1)
          const live = liveCall.get(entry.callId)
          const found =
            live === undefined ? undefined : await until(() => confirmsByCall.get(live)?.[index])
          const base = { line, tool: entry.tool, callId: entry.callId }
          if (!found) {
            diffs.push({
              ...base,
              path: 'confirmation',
              expected: entry.summary,
              actual: `no confirmation within ${timeoutMs} ms`,
            })
            break
          }
          liveConfirm.set(entry.confirmId, { entry: found })
          const differences: { path: string; expected: unknown; actual: unknown }[] = []
          compare(
            { summary: entry.summary, changes: entry.changes ?? [] },
            JSON.parse(JSON.stringify({ summary: found.summary, changes: found.changes ?? [] })),
            '',
            skip,
            differences,
          )
          for (const d of differences)
            diffs.push({
              ...base,
              path: `confirmation.${d.path}`,
              expected: d.expected,
              actual: d.actual,
            })
          break
        }
        case 'answer': {
          const live = liveConfirm.get(entry.confirmId)
          if (entry.decision !== 'expired' && entry.decision !== 'withdrawn') {
            if (!live) break // its request already drifted
            const answer =
              entry.decision === 'approve'
                ? tm.confirmations.approve(
                    live.entry.id,
                    entry.grant === undefined ? undefined : { grant: entry.grant },
                  )
                : entry.decision === 'answer'
                  ? tm.confirmations.answer(live.entry.id, entry.value)
                  : tm.confirmations.reject(live.entry.id, 'replayed')
            // Deferred answers resolve with the run's result, inline ones after it: either way the
            // result lines that follow are awaited on their own.
            void answer
            report.answers++
          }
          break
        }
      }
    }
    await Promise.all(pending.splice(0))
  } finally {
    for (const off of offs) off()
    detachPresenter()
  }

  if (diffs.length > 0) {
    const text = diffs
      .map(
        (d) =>
          `  line ${d.line} ${d.tool} (${d.callId}) ${d.path}: expected ${show(d.expected)}, got ${show(d.actual)}`,
      )
      .join('\n')
    throw new ReplayError(
      `The replay drifted from the recording (${diffs.length} difference${diffs.length === 1 ? '' : 's'}):\n${text}\nIf the change is intended, record the session again; to skip values that change on every run, pass { ignore: ['**.updatedAt'] }.`,
      diffs[0].line,
      diffs,
    )
  }
  return report
}
