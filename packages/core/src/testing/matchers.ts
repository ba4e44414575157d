import type {
  Caller,
  FieldChange,
  Manifest,
  ManifestEntry,
  ToolHints,
  Toolmark,
  ToolResult,
} from '../types'
import { missingToolReport } from './hiddenTools'

/** What a matcher returns to `expect.extend` (Vitest's and Jest's shape). */
export interface MatcherOutcome {
  pass: boolean
  message: () => string
  actual?: unknown
  expected?: unknown
}

/** The matchers' types, for a `declare module 'vitest'` augmentation (see docs/testing.md). */
export interface ToolmarkMatchers<R = unknown> {
  /**
   * The registry (as `caller` sees it, default `test`) or manifest lists the tool; with `hints`,
   * each given hint has that value (`{ readOnly: true }`, `{ destructive: false }`).
   */
  toHaveTool(name: string, options?: { hints?: ToolHints; caller?: Caller }): R
  /** A manifest entry whose tool asks a person (consequential or destructive), or a call that did (`needs_confirmation`). */
  toBeConsequential(): R
  /** A fill result, a confirmation or a list of changes has a change at `path`, to `after` when given. */
  toHaveChanged(path: string, after?: unknown): R
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

const show = (v: unknown) => {
  try {
    return JSON.stringify(v) ?? String(v)
  } catch {
    return String(v)
  }
}

/** Structural deep equality of JSON-like values. */
function equal(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => equal(v, b[i]))
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a)
    return keys.length === Object.keys(b).length && keys.every((k) => equal(a[k], b[k]))
  }
  return false
}

const isRegistry = (v: unknown): v is Toolmark =>
  isObject(v) && typeof v.manifest === 'function' && isObject(v.confirmations)

function toolsOf(received: unknown, caller: Caller): ManifestEntry[] | undefined {
  if (isObject(received) && typeof received.manifest === 'function') {
    return (received as unknown as Toolmark).manifest({ caller }).tools
  }
  if (isObject(received) && Array.isArray(received.tools))
    return (received as unknown as Manifest).tools
  return undefined
}

function changesOf(received: unknown): FieldChange[] | undefined {
  if (Array.isArray(received)) return received as FieldChange[]
  if (!isObject(received)) return undefined
  if (Array.isArray(received.changes)) return received.changes as FieldChange[]
  if (received.status === 'ok' && isObject(received.data) && Array.isArray(received.data.changes)) {
    return received.data.changes as FieldChange[]
  }
  return undefined
}

/**
 * Matchers for `expect.extend(toolmarkMatchers)` in Vitest (or Jest). Plain functions: nothing
 * here imports a test runner.
 *
 * @example
 * expect.extend(toolmarkMatchers)
 * expect(tm).toHaveTool('tickets.close', { hints: { consequential: true } })
 * expect(tm.describe('tickets.close')).toBeConsequential()
 * expect(await tm.call('ticket.fill', { values: { priority: 'high' } })).toHaveChanged('priority', 'high')
 */
export const toolmarkMatchers = {
  toHaveTool(
    received: unknown,
    name: string,
    options: { hints?: ToolHints; caller?: Caller } = {},
  ): MatcherOutcome {
    const caller = options.caller ?? 'test'
    const tools = toolsOf(received, caller)
    if (!tools) {
      return {
        pass: false,
        message: () =>
          `toHaveTool expects a registry or a manifest ({ tools }), got ${show(received)}`,
      }
    }
    const entry = tools.find((t) => t.name === name)
    const names = tools.map((t) => t.name)
    if (!entry) {
      const registry = isRegistry(received) ? received : undefined
      return {
        pass: false,
        message: () =>
          `expected a tool "${name}" for caller ${caller}; ${
            registry
              ? missingToolReport(registry, caller, name)
              : names.length === 0
                ? 'the manifest lists no tools'
                : `the tools are ${show(names)}`
          }`,
        actual: names,
        expected: name,
      }
    }
    const wanted = options.hints ?? {}
    const wrong = Object.entries(wanted).filter(
      ([hint, value]) => (entry.hints[hint as keyof ToolHints] === true) !== (value === true),
    )
    return {
      pass: wrong.length === 0,
      message: () =>
        wrong.length === 0
          ? `expected no tool "${name}"${options.hints ? ` with hints ${show(wanted)}` : ''} for caller ${caller}, but it is there (hints ${show(entry.hints)})`
          : `expected "${name}" to have hints ${show(wanted)}, it has ${show(entry.hints)}`,
      actual: entry.hints,
      expected: wanted,
    }
  },

  toBeConsequential(received: unknown): MatcherOutcome {
    if (isObject(received) && typeof received.status === 'string') {
      const result = received as unknown as ToolResult
      const pass = result.status === 'needs_confirmation'
      return {
        pass,
        message: () =>
          pass
            ? `expected the call not to ask a person, it returned needs_confirmation`
            : `expected the call to ask a person (needs_confirmation), it returned ${show(result)}`,
      }
    }
    if (isObject(received) && isObject(received.hints) && typeof received.name === 'string') {
      const hints = received.hints as ToolHints
      const pass = hints.consequential === true || hints.destructive === true
      return {
        pass,
        message: () =>
          pass
            ? `expected "${received.name}" not to need a confirmation, its hints are ${show(hints)}`
            : `expected "${received.name}" to be consequential or destructive, its hints are ${show(hints)}`,
      }
    }
    return {
      pass: false,
      message: () =>
        `toBeConsequential expects a manifest entry (tm.describe(name)) or a ToolResult, got ${show(received)}`,
    }
  },

  toHaveChanged(received: unknown, path: string, ...rest: [after?: unknown]): MatcherOutcome {
    const changes = changesOf(received)
    if (!changes) {
      return {
        pass: false,
        message: () =>
          `toHaveChanged expects a fill result (ok with data.changes), a confirmation or a FieldChange[], got ${show(received)}`,
      }
    }
    const change = changes.find((c) => c.path === path)
    const checkAfter = rest.length > 0
    const pass = change !== undefined && (!checkAfter || equal(change.after, rest[0]))
    const paths = changes.map((c) => c.path)
    return {
      pass,
      message: () => {
        if (pass) {
          return `expected no change at "${path}"${checkAfter ? ` to ${show(rest[0])}` : ''}, got ${show(change)}`
        }
        if (!change) return `expected a change at "${path}"; the changes are at ${show(paths)}`
        return `expected "${path}" to change to ${show(rest[0])}, it changed to ${show(change.after)}`
      },
      actual: change?.after,
      expected: rest[0],
    }
  },
}
