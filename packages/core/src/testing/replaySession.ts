import type { ConfirmationEntry, Toolmark, ToolResult } from '../types'
import type { RecordedLine } from './recordSession'
import { createReplayObserver, type ReplayObserver } from './replayObserver'
import { parseRecording } from './parseRecording'
import { checkSecrets, inputWithSecrets, type ReplaySecrets } from './replaySecrets'
import { ReplayError, type ReplayDiff } from './replayError'
import { isObject } from '../base/guards'
import { lendFeature } from '../confirmations/feature'
import { grants } from '../confirmations/grants'
import { questions } from '../confirmations/questions'

/** Options of `replaySession`. */
export interface ReplayOptions {
  /**
   * How long to wait for a result, a confirmation or a tool to appear, in ms. Once one wait has
   * run out the replay has drifted: later waits last only while the page still answers, ending
   * once it has been silent for `timeoutMs`, so calls the late one held up still match, and a page
   * that stopped answering gets its error one `timeoutMs` after the run-out, however many lines
   * are missing. Default 2 000: twice that is below the 5 000 ms a test gets in Vitest and Jest,
   * so the replay's error, naming what did not come, ends the test before the runner's timeout.
   */
  timeoutMs?: number
  /**
   * Paths not compared, as dot paths into the result with `*` for one segment and `**` for any
   * number (`'data.updatedAt'`, `'**.createdAt'`): values that change on every run.
   */
  ignore?: string[]
  /**
   * Values for the inputs the recording withheld (redacted `sensitive` paths), by input path
   * (`{ password: 'hunter2' }`), or a function of the field returning the value (or a promise of
   * it). A withheld value with none given fails with a `MissingSecretError` naming the field, and
   * the call is not sent: the replay never sends the `'[redacted]'` mask as a value.
   */
  secrets?: ReplaySecrets
}

/** What a replay that matched did. */
export interface ReplayReport {
  calls: number
  results: number
  answers: number
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

/** One replay's state: live ids by recorded ones, how far each call got, and what drifted. */
interface ReplayRun {
  readonly tm: Toolmark
  readonly observer: ReplayObserver
  readonly timeoutMs: number
  readonly skip: readonly string[]
  readonly secrets: ReplaySecrets | undefined
  /** Live call ids by recorded call ids. */
  readonly liveCall: Map<string, string>
  /** Live confirmations by recorded confirmation ids. */
  readonly liveConfirm: Map<string, ConfirmationEntry>
  /** How many results, and confirmations, of each recorded call were already read. */
  readonly seenResults: Map<string, number>
  readonly seenConfirms: Map<string, number>
  readonly diffs: ReplayDiff[]
  readonly report: ReplayReport
}

/** The next index of `key`'s lines (0 for its first), counting this one. */
function nextIndex(seen: Map<string, number>, key: string): number {
  const index = seen.get(key) ?? 0
  seen.set(key, index + 1)
  return index
}

/** Makes a recorded call as its recorded caller, once the page shows that caller the tool. */
async function replayCall(
  run: ReplayRun,
  line: number,
  entry: Extract<RecordedLine, { type: 'call' }>,
): Promise<void> {
  const { tm } = run
  const visible = await run.observer.until(() =>
    tm.describe(entry.tool, { caller: entry.caller }) ? true : undefined,
  )
  if (!visible) {
    throw new ReplayError(
      `Recording line ${line}: the page has no tool "${entry.tool}" for caller "${entry.caller}" (waited ${run.timeoutMs} ms). Render the part of the page that registers it before replaying, or record the session again if the tool was renamed or removed.`,
      line,
    )
  }
  const input = await inputWithSecrets(line, entry, run.secrets)
  const live = run.observer.callIdOf(() => {
    void tm.call(entry.tool, input, { caller: entry.caller })
  })
  if (live === undefined) {
    throw new ReplayError(`Recording line ${line}: the call to "${entry.tool}" was not seen`, line)
  }
  run.liveCall.set(entry.callId, live)
  run.report.calls++
}

/** Waits for a recorded result's live counterpart and notes how it differs. */
async function expectResult(
  run: ReplayRun,
  line: number,
  entry: Extract<RecordedLine, { type: 'result' }>,
): Promise<void> {
  const index = nextIndex(run.seenResults, entry.callId)
  const live = run.liveCall.get(entry.callId)
  const actual =
    live === undefined
      ? undefined
      : await run.observer.until(() => run.observer.result(live, index))
  run.report.results++
  const base = { line, tool: entry.tool, callId: entry.callId }
  if (!actual) {
    run.diffs.push({
      ...base,
      path: 'result',
      expected: entry.result.status,
      actual: `no result within ${run.timeoutMs} ms`,
    })
    return
  }
  const found: { path: string; expected: unknown; actual: unknown }[] = []
  compare(comparable(entry.result), comparable(actual), '', run.skip, found)
  for (const d of found) run.diffs.push({ ...base, ...d })
}

/** Waits for a recorded confirmation request's live counterpart, keeps it and notes drift. */
async function expectConfirmation(
  run: ReplayRun,
  line: number,
  entry: Extract<RecordedLine, { type: 'confirm' }>,
): Promise<void> {
  const index = nextIndex(run.seenConfirms, entry.callId)
  const live = run.liveCall.get(entry.callId)
  const found =
    live === undefined
      ? undefined
      : await run.observer.until(() => run.observer.confirmation(live, index))
  const base = { line, tool: entry.tool, callId: entry.callId }
  if (!found) {
    run.diffs.push({
      ...base,
      path: 'confirmation',
      expected: entry.summary,
      actual: `no confirmation within ${run.timeoutMs} ms`,
    })
    return
  }
  run.liveConfirm.set(entry.confirmId, found)
  const differences: { path: string; expected: unknown; actual: unknown }[] = []
  compare(
    { summary: entry.summary, changes: entry.changes ?? [] },
    JSON.parse(JSON.stringify({ summary: found.summary, changes: found.changes ?? [] })),
    '',
    run.skip,
    differences,
  )
  for (const d of differences)
    run.diffs.push({
      ...base,
      path: `confirmation.${d.path}`,
      expected: d.expected,
      actual: d.actual,
    })
}

/** Gives the person's recorded answer to the live confirmation; expiry or withdrawal needs none. */
function giveAnswer(run: ReplayRun, entry: Extract<RecordedLine, { type: 'answer' }>): void {
  if (entry.decision === 'expired' || entry.decision === 'withdrawn') return
  const live = run.liveConfirm.get(entry.confirmId)
  if (!live) return // its request already drifted
  const { confirmations } = run.tm
  const answer =
    entry.decision === 'approve'
      ? confirmations.approve(
          live.id,
          entry.grant === undefined ? undefined : { grant: entry.grant },
        )
      : entry.decision === 'answer'
        ? confirmations.answer(live.id, entry.value)
        : confirmations.reject(live.id, 'replayed')
  // Deferred answers resolve with the run's result, inline ones after it: either way the
  // result lines that follow are awaited on their own.
  void answer
  run.report.answers++
}

/** The error of a replay that drifted, listing every difference and the two ways out. */
function driftError(diffs: readonly ReplayDiff[]): ReplayError {
  const text = diffs
    .map(
      (d) =>
        `  line ${d.line} ${d.tool} (${d.callId}) ${d.path}: expected ${show(d.expected)}, got ${show(d.actual)}`,
    )
    .join('\n')
  return new ReplayError(
    `The replay drifted from the recording (${diffs.length} difference${diffs.length === 1 ? '' : 's'}):\n${text}\nIf the change is intended, record the session again; to skip values that change on every run, pass { ignore: ['**.updatedAt'] }.`,
    diffs[0].line,
    diffs,
  )
}

/**
 * Replays a recording (`recordSession`) against a page: the agent's calls go through `tm.call`
 * as the recorded callers, in the recorded order (calls that overlapped overlap again; a call
 * made after a result waits for it), the person's answers are given to the live confirmations,
 * and every result is compared with the recorded one — status, refusal code, `cancelled.by`,
 * issue paths, changes and data. Resolves when everything matched; rejects with a `ReplayError`
 * listing every difference, or naming the line and the fix when the recording is broken or a
 * recorded tool is not on the page. Inputs the recording withheld (redacted values) are sent
 * with the values `secrets` gives, never as the mask: a `MissingSecretError` names one it lacks.
 *
 * The replay is the person while it runs (it attaches a presenter), so give it a registry
 * without a scripted answer.
 */
export async function replaySession(
  tm: Toolmark,
  lines: string | readonly string[],
  options: ReplayOptions = {},
): Promise<ReplayReport> {
  const timeoutMs = options.timeoutMs ?? 2000
  const entries = parseRecording(lines)
  checkSecrets(entries, options.secrets)
  const observer = createReplayObserver(tm, timeoutMs)
  // The recording's answers are given to the page's questions, and its grants given again.
  lendFeature(tm, questions())
  lendFeature(tm, grants())
  const detachPresenter = tm.confirmations.attachPresenter()

  const run: ReplayRun = {
    tm,
    observer,
    timeoutMs,
    skip: options.ignore ?? [],
    secrets: options.secrets,
    liveCall: new Map(),
    liveConfirm: new Map(),
    seenResults: new Map(),
    seenConfirms: new Map(),
    diffs: [],
    report: { calls: 0, results: 0, answers: 0 },
  }
  // Results are awaited side by side, so calls that overlapped overlap again.
  const pending: Promise<void>[] = []
  try {
    for (const { line, entry } of entries) {
      switch (entry.type) {
        case 'session':
          break
        case 'call':
          // A call made after a result waits for it, as the agent did.
          await Promise.all(pending.splice(0))
          await replayCall(run, line, entry)
          break
        case 'result':
          pending.push(expectResult(run, line, entry))
          break
        case 'confirm':
          await expectConfirmation(run, line, entry)
          break
        case 'answer':
          giveAnswer(run, entry)
          break
      }
    }
    await Promise.all(pending.splice(0))
  } finally {
    observer.stop()
    detachPresenter()
  }

  if (run.diffs.length > 0) throw driftError(run.diffs)
  return run.report
}
