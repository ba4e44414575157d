import { createToolmark } from '../registry/createToolmark'
import { grants } from '../confirmations/grants'
import { questions } from '../confirmations/questions'
import { reportError } from '../events/reportError'
import type {
  CallEvent,
  ConfirmEvent,
  ConfirmationEntry,
  ErrorEvent,
  ResultEvent,
  Toolmark,
  ToolmarkOptions,
  ToolResult,
} from '../types'

/**
 * How a scripted person answers a confirmation; `{ answer }` answers a question (`ctx.ask`), which
 * `'approve'` cannot (it gets `refused answer_required`, and the question stays).
 */
export type ScriptedDecision =
  'approve' | 'reject' | { approve: true; input: unknown } | { answer: unknown } | 'ignore'

/** A scripted person: a fixed answer, or a function of the entry. */
export type ScriptedAnswer =
  ScriptedDecision | ((entry: ConfirmationEntry) => ScriptedDecision | Promise<ScriptedDecision>)

const isDecision = (value: unknown): value is ScriptedDecision =>
  value === 'approve' ||
  value === 'reject' ||
  value === 'ignore' ||
  (typeof value === 'object' &&
    value !== null &&
    (((value as { approve?: unknown }).approve === true && 'input' in value) || 'answer' in value))

/** Everything a test registry saw, in order. */
export interface CallRecorder {
  readonly calls: CallEvent[]
  readonly results: ResultEvent[]
  readonly confirmations: ConfirmEvent[]
  readonly errors: ErrorEvent[]
  /** What each answered confirmation resolved with, by confirmation id. */
  readonly answers: Map<string, ToolResult>
  /** The last result of a tool, or undefined. */
  lastResult(tool: string): ToolResult | undefined
  clear(): void
}

export interface TestToolmarkOptions extends ToolmarkOptions {
  /** Answers confirmations as a person would; while set, the script is the presenter. */
  answer?: ScriptedAnswer
}

/** A registry for tests: the production confirmation modes, a scripted person and a recorder. */
export interface TestToolmark extends Toolmark {
  readonly recorder: CallRecorder
  /** Replaces the scripted answer; `undefined` leaves confirmations to the test. */
  setAnswer(answer: ScriptedAnswer | undefined): void
  /** Resolves once every scripted answer given so far has settled. */
  settled(): Promise<void>
}

/**
 * Creates a registry for tests. Confirmations keep their production modes (deferred for
 * `inapp` and `test`, inline for `webmcp` and `mcp`); a scripted `answer` approves or rejects
 * them as a person would, and a recorder keeps every call, result, confirmation and error.
 *
 * @example
 * const tm = createTestToolmark({ answer: 'approve' })
 * tm.register(closeTicket)
 * await tm.call('tickets.close', { id: 1 }, { caller: 'mcp' }) // approved by the script
 * tm.recorder.results.map((r) => r.result.status) // ['ok']
 */
export function createTestToolmark(options: TestToolmarkOptions = {}): TestToolmark {
  const { answer: initial, ...rest } = options
  // A test registry answers questions and gives grants like a dialog would: it is made with both.
  const tm = createToolmark({
    ...rest,
    confirm: { questions: questions(), grants: grants(), ...rest.confirm },
  })
  const calls: CallEvent[] = []
  const results: ResultEvent[] = []
  const confirmations: ConfirmEvent[] = []
  const errors: ErrorEvent[] = []
  const answers = new Map<string, ToolResult>()
  const inFlight = new Set<Promise<unknown>>()
  tm.events.on('call', (e) => calls.push(e))
  tm.events.on('result', (e) => results.push(e))
  tm.events.on('confirm', (e) => confirmations.push(e))
  tm.events.on('error', (e) => errors.push(e))

  let answer: ScriptedAnswer | undefined
  let detach: (() => void) | undefined
  let unsubscribe: (() => void) | undefined
  const handled = new Set<string>()

  const respond = async (entry: ConfirmationEntry) => {
    const script = answer
    if (script === undefined) return
    let decision: unknown
    try {
      decision = typeof script === 'function' ? await script(entry) : script
      if (!isDecision(decision)) {
        throw new TypeError(
          `A scripted answer must be 'approve', 'reject', 'ignore', { approve: true, input } or { answer }, got ${String(decision)}`,
        )
      }
    } catch (cause) {
      // The entry stays pending; the failure shows in the recorder's errors.
      reportError(tm, {
        code: 'scripted_answer_failed',
        message: `The scripted answer for "${entry.tool}" failed`,
        tool: entry.tool,
        callId: entry.callId,
        cause,
      })
      return
    }
    if (decision === 'ignore') return
    const result =
      decision === 'reject'
        ? await tm.confirmations.reject(entry.id, 'scripted')
        : decision === 'approve'
          ? await tm.confirmations.approve(entry.id)
          : 'answer' in decision
            ? await tm.confirmations.answer(entry.id, decision.answer)
            : await tm.confirmations.approve(entry.id, { input: decision.input })
    answers.set(entry.id, result)
  }

  const sweep = () => {
    for (const entry of tm.confirmations.list()) {
      if (handled.has(entry.id)) continue
      handled.add(entry.id)
      const task = Promise.resolve()
        .then(() => respond(entry))
        .finally(() => inFlight.delete(task))
      inFlight.add(task)
    }
  }

  const setAnswer = (next: ScriptedAnswer | undefined) => {
    if (next !== undefined && typeof next !== 'function' && !isDecision(next)) {
      throw new TypeError(
        "createTestToolmark: answer must be 'approve', 'reject', 'ignore', { approve: true, input }, { answer } or a function",
      )
    }
    answer = next
    if (next === undefined) {
      detach?.()
      unsubscribe?.()
      detach = unsubscribe = undefined
      return
    }
    detach ??= tm.confirmations.attachPresenter()
    unsubscribe ??= tm.confirmations.subscribe(sweep)
    sweep()
  }
  setAnswer(initial)

  const recorder: CallRecorder = {
    calls,
    results,
    confirmations,
    errors,
    answers,
    lastResult(tool) {
      for (let i = results.length - 1; i >= 0; i--) {
        if (results[i].tool === tool) return results[i].result
      }
      return undefined
    },
    clear() {
      calls.length = results.length = confirmations.length = errors.length = 0
      answers.clear()
    },
  }

  return Object.assign(tm, {
    recorder,
    setAnswer,
    async settled() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight])
    },
  })
}
