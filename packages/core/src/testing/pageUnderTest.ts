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
  /** Waits for a pending confirmation (of `tool`, when given) and returns it. */
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
  const tools: PageUnderTest = {
    list: (options = {}) => run(`${HOOK}.manifest(${arg(options.caller ?? 'test')})`),
    call: (name, input, options = {}) =>
      run(`${HOOK}.call(${arg(name)}, ${arg(input)}, ${arg(options.caller ?? 'test')})`),
    confirmations: () => run(`${HOOK}.confirmations()`),
    waitForConfirmation: (options = {}) =>
      poll(
        async () =>
          (await tools.confirmations()).find((e) => !options.tool || e.tool === options.tool),
        options.timeoutMs ?? 5000,
        options.tool ? `a confirmation of "${options.tool}"` : 'a confirmation',
      ),
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
