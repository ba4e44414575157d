import type { LintManifest } from '../lint/rules'
import type { Caller, ConfirmationEntry, Manifest, ToolResult } from '../types'
import { TEST_HOOK_GLOBAL } from './testHook'

/** The part of a Playwright `Page` the fixture uses: evaluating an expression in the page. */
export interface EvaluatingPage {
  evaluate(expression: string): Promise<unknown>
}

/** The page under test's tools, driven from the test runner through the test hook. */
export interface PageUnderTest {
  /** The tools `caller` sees (default `test`), full entries. */
  list(options?: { caller?: Caller }): Promise<Manifest>
  /** Calls a tool in the page (default caller `test`). */
  call(name: string, input?: unknown, options?: { caller?: Caller }): Promise<ToolResult>
  /** Pending confirmations. */
  confirmations(): Promise<ConfirmationEntry[]>
  /**
   * Waits for a pending confirmation (of `tool`, when given) and returns it. Calls made with
   * `call` that are still running when the wait starts are the ones it waits on: once they have
   * all ended without a confirmation pending (refused, invalid, ran without asking), it fails at
   * once with what they returned, instead of waiting out `timeoutMs` (default 5 000).
   */
  waitForConfirmation(options?: { tool?: string; timeoutMs?: number }): Promise<ConfirmationEntry>
  /** Waits until the page has a tool of that name for `caller`. */
  waitForTool(name: string, options?: { caller?: Caller; timeoutMs?: number }): Promise<void>
  /** Approves a confirmation by id, as the person would. */
  approve(id: string): Promise<ToolResult>
  /** Denies a confirmation by id. */
  reject(id: string, reason?: string): Promise<ToolResult>
  /**
   * Waits for a call's final result — after a person answered its confirmation in the page, say
   * (`waitForResult(entry.callId)`) — so the next step starts once that call has finished.
   */
  waitForResult(callId: string, options?: { timeoutMs?: number }): Promise<ToolResult>
  /** The full manifest with summaries and sensitive paths, for `lintManifest`. */
  lintManifest(): Promise<LintManifest>
  /** Starts recording the session in the page (`recordSession`). */
  startRecording(): Promise<void>
  /** Stops recording and returns the JSON lines, for `replaySession`. */
  stopRecording(): Promise<string>
}

const HOOK = `globalThis[${JSON.stringify(TEST_HOOK_GLOBAL)}]`
const arg = (value: unknown) => (value === undefined ? 'undefined' : JSON.stringify(value))

/** A call made through `tools.call`, and how it ended once it has. */
interface SentCall {
  tool: string
  ended?: { result: ToolResult } | { error: unknown }
}

type Poll = <T>(read: () => Promise<T | undefined>, timeoutMs: number, what: string) => Promise<T>

const endOf = (call: SentCall) =>
  !call.ended
    ? 'is still running'
    : 'result' in call.ended
      ? `returned ${JSON.stringify(call.ended.result)}`
      : `failed: ${call.ended.error instanceof Error ? call.ended.error.message : String(call.ended.error)}`

/**
 * The calls a wait for a confirmation (of `tool`) waits on: those made through `tools.call` still
 * running when it starts; with `tool` named and none of its calls running, the last call of that
 * tool when it already ended without asking (any result but `needs_confirmation`). Without
 * `tool`, an ended call is not waited on: the confirmation may come from the page itself.
 */
function watchedCalls(calls: readonly SentCall[], tool: string | undefined): SentCall[] {
  const matching = calls.filter((c) => !tool || c.tool === tool)
  const running = matching.filter((c) => !c.ended)
  if (running.length > 0 || !tool) return running
  const last = matching.at(-1)
  const ended = last?.ended
  const asked = ended && 'result' in ended && ended.result.status === 'needs_confirmation'
  return last && ended && !asked ? [last] : []
}

/**
 * Waits for a pending confirmation (of `tool`). Once every call it waits on (`watchedCalls`) has
 * ended and none asked (the confirmation cannot come from them), it fails at once with what they
 * returned.
 */
async function waitForConfirmation(
  tools: PageUnderTest,
  calls: readonly SentCall[],
  options: { tool?: string; timeoutMs?: number },
  poll: Poll,
): Promise<ConfirmationEntry> {
  const { tool } = options
  const noun = tool ? `confirmation of "${tool}"` : 'confirmation'
  const matches = (name: string) => !tool || name === tool
  const watched = watchedCalls(calls, tool)
  try {
    return await poll(
      async () => {
        // Read before the confirmations: a call that ended before they were read and asked is
        // among them (a deferred call's entry waits there).
        const allEnded = watched.length > 0 && watched.every((c) => c.ended)
        const entry = (await tools.confirmations()).find((e) => matches(e.tool))
        if (entry || !allEnded) return entry
        const ends = watched.map((c) => `${c.tool} ${endOf(c)}`).join('; ')
        throw new Error(
          `No ${noun} is pending, and the call${watched.length === 1 ? '' : 's'} it waited on ended without one: ${ends}`,
        )
      },
      options.timeoutMs ?? 5000,
      `a ${noun}`,
    )
  } catch (error) {
    // A plain timeout: say how the last call of that tool made here ended, if it did.
    const last = [...calls].reverse().find((c) => matches(c.tool))
    if (error instanceof Error && error.message.startsWith('Timed out') && last?.ended) {
      error.message += `; the last call made with tools.call${tool ? ` to "${tool}"` : ` (${last.tool})`} ${endOf(last)}`
    }
    throw error
  }
}

/**
 * Drives a page's tools from a Playwright test, through the hook `installTestHook(tm)` puts in
 * test builds. Expressions cross as strings, so nothing depends on how the test file is compiled.
 */
export function pageUnderTest(page: EvaluatingPage): PageUnderTest {
  const run = async <T>(expression: string): Promise<T> => {
    const present = await page.evaluate(`typeof ${HOOK} === 'object' && ${HOOK} !== null`)
    if (!present) {
      throw new Error(
        'The page has no Toolmark test hook: call installTestHook(tm) in test builds (e.g. behind VITE_TOOLMARK_TEST_HOOK=1) and wait for the app to load',
      )
    }
    return (await page.evaluate(expression)) as T
  }
  const poll = async <T>(read: () => Promise<T | undefined>, timeoutMs: number, what: string) => {
    const end = Date.now() + timeoutMs
    for (;;) {
      const value = await read()
      if (value !== undefined) return value
      if (Date.now() > end) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`)
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  }
  // The calls made through `call`, newest last (the last 50): a wait for a confirmation watches
  // those still running when it starts, and fails at once when they have all ended unasked.
  const calls: SentCall[] = []
  const tools: PageUnderTest = {
    list: (options = {}) => run(`${HOOK}.manifest(${arg(options.caller ?? 'test')})`),
    call: (name, input, options = {}) => {
      const sent: SentCall = { tool: name }
      calls.push(sent)
      if (calls.length > 50) calls.shift()
      const result = run<ToolResult>(
        `${HOOK}.call(${arg(name)}, ${arg(input)}, ${arg(options.caller ?? 'test')})`,
      )
      result.then(
        (value) => (sent.ended = { result: value }),
        (error: unknown) => (sent.ended = { error }),
      )
      return result
    },
    confirmations: () => run(`${HOOK}.confirmations()`),
    waitForConfirmation: (options = {}) => waitForConfirmation(tools, calls, options, poll),
    waitForTool: async (name, options = {}) => {
      await poll(
        async () =>
          (await page.evaluate(
            `typeof ${HOOK} === 'object' && ${HOOK} !== null && ${HOOK}.manifest(${arg(options.caller ?? 'test')}).tools.some((t) => t.name === ${arg(name)})`,
          ))
            ? true
            : undefined,
        options.timeoutMs ?? 5000,
        `the tool "${name}"`,
      )
    },
    approve: (id) => run(`${HOOK}.approve(${arg(id)})`),
    reject: (id, reason) => run(`${HOOK}.reject(${arg(id)}, ${arg(reason)})`),
    waitForResult: (callId, options = {}) =>
      poll(
        async () =>
          (await run<ToolResult | null>(`${HOOK}.resultOf(${arg(callId)}) ?? null`)) ?? undefined,
        options.timeoutMs ?? 5000,
        `the result of call "${callId}"`,
      ),
    lintManifest: () => run(`${HOOK}.lintManifest()`),
    startRecording: () => run(`${HOOK}.startRecording()`),
    stopRecording: () => run(`${HOOK}.stopRecording()`),
  }
  return tools
}

/**
 * The `tools` fixture for `@playwright/test`: `base.extend<{ tools: PageUnderTest }>(toolmarkFixtures)`.
 *
 * @example
 * import { test as base, expect } from '@playwright/test'
 * const test = base.extend<{ tools: PageUnderTest }>(toolmarkFixtures)
 * test('closes a ticket', async ({ page, tools }) => { … })
 */
export const toolmarkFixtures = {
  tools: async (
    { page }: { page: EvaluatingPage },
    use: (tools: PageUnderTest) => Promise<void>,
  ): Promise<void> => {
    await use(pageUnderTest(page))
  },
}
