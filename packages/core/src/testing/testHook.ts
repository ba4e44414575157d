import { lintManifestOf } from '../lint/lintManifestOf'
import type { LintManifest } from '../lint/rules'
import type { Caller, ConfirmationEntry, Manifest, Toolmark, ToolResult } from '../types'
import { recordSession, type SessionRecording } from './recordSession'

/** The global the hook is installed on, read by `pageUnderTest` from the test runner. */
export const TEST_HOOK_GLOBAL = 'toolmarkTestHook'

/** What a page under test offers its test runner (everything plain JSON). */
export interface ToolmarkTestHook {
  readonly version: 1
  manifest(caller: Caller): Manifest
  /** The full manifest with summaries and sensitive paths, for the linter. */
  lintManifest(): LintManifest
  call(name: string, input: unknown, caller: Caller): Promise<ToolResult>
  confirmations(): ConfirmationEntry[]
  approve(id: string): Promise<ToolResult>
  reject(id: string, reason?: string): Promise<ToolResult>
  /**
   * The final result of a call since the hook was installed (never `needs_confirmation`), or
   * `undefined` while it runs or waits for a person.
   */
  resultOf(callId: string): ToolResult | undefined
  /** Starts recording the session (`recordSession`); a second start begins a new recording. */
  startRecording(): void
  /** Stops recording and returns its JSON lines text. */
  stopRecording(): string
}

/**
 * Installs the hook a test runner drives the page through (`pageUnderTest`, the Playwright fixture):
 * list, call, answer confirmations, lint and record. For test builds only — install it behind a
 * build-time flag, so production bundles leave it out (the flag is false there, the call goes, and
 * the import with it):
 *
 * @example
 * if (import.meta.env.VITE_TOOLMARK_TEST_HOOK === '1') installTestHook(tm)
 */
export function installTestHook(tm: Toolmark): () => void {
  const target = globalThis as Record<string, unknown>
  let recording: SessionRecording | undefined
  // The last 200 final results by call id, for a runner waiting on a call a person answered.
  const results = new Map<string, ToolResult>()
  const settle = (callId: string, result: ToolResult) => {
    results.set(callId, result)
    if (results.size > 200) results.delete(results.keys().next().value as string)
  }
  const offs = [
    tm.events.on('result', (e) => {
      if (e.result.status !== 'needs_confirmation') settle(e.callId, e.result)
    }),
    // A deferred call the person denied (or that expired) never runs: its answer is its end.
    tm.events.on('confirm', (e) => {
      if (e.status !== 'pending' && e.entry.mode === 'deferred' && e.result) {
        settle(e.entry.callId, e.result)
      }
    }),
  ]
  const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T
  const hook: ToolmarkTestHook = {
    version: 1,
    manifest: (caller) => clone(tm.manifest({ caller, detail: 'full' })),
    lintManifest: () => clone(lintManifestOf(tm)),
    call: async (name, input, caller) => clone(await tm.call(name, input, { caller })),
    confirmations: () => clone([...tm.confirmations.list()]),
    approve: async (id) => clone(await tm.confirmations.approve(id)),
    reject: async (id, reason) => clone(await tm.confirmations.reject(id, reason)),
    resultOf: (callId) => {
      const result = results.get(callId)
      return result && clone(result)
    },
    startRecording() {
      recording?.stop()
      recording = recordSession(tm)
    },
    stopRecording() {
      if (!recording) {
        throw new Error('stopRecording() before startRecording(): start a recording first')
      }
      recording.stop()
      return recording.text()
    },
  }
  target[TEST_HOOK_GLOBAL] = hook
  return () => {
    for (const off of offs) off()
    recording?.stop()
    if (target[TEST_HOOK_GLOBAL] === hook) delete target[TEST_HOOK_GLOBAL]
  }
}
