import type { FieldChange } from '../types'

/** The mask that replaces a sensitive value everywhere outside the tool itself. */
export const REDACTED = '[redacted]'

/** A compiled list of sensitive path patterns (`'ssn'`, `'cards[].cvc'`). */
export interface SensitivePaths {
  /** Whether a dot path (`cards.0.cvc`) is sensitive, itself or through an ancestor. */
  matches(path: string): boolean
  readonly empty: boolean
  /**
   * The paths for one input: these, plus the ones a tool marks sensitive in that input alone (a
   * `sensitive` function given the input, as `tour.start` marks the values its steps write to
   * another tool's secret fields). Those are not kept for later inputs.
   */
  within(input: unknown): SensitivePaths
}

const splitPattern = (pattern: string): string[] =>
  pattern
    .replace(/\[\]/g, '.[]')
    .split('.')
    .filter((s) => s !== '')

/** The list with nothing in it, shared: a walk that gets it needs no paths at all. */
const NO_PATHS: SensitivePaths = Object.freeze({
  empty: true,
  matches: () => false,
  within: () => NO_PATHS,
})

const segmentMatches = (pattern: string, segment: string) =>
  pattern === segment || (pattern === '[]' && /^\d+$/.test(segment)) || pattern === '*'

/** Whether `segments` start with what `pattern` (from `at`) describes; `**` spans any number. */
function matchFrom(pattern: readonly string[], at: number, segments: string[], from: number) {
  for (let i = at, j = from; i < pattern.length; i++, j++) {
    if (pattern[i] === '**') {
      // Any number of segments, none included: try every place the rest could start.
      for (let k = j; k <= segments.length; k++) {
        if (matchFrom(pattern, i + 1, segments, k)) return true
      }
      return false
    }
    if (j >= segments.length || !segmentMatches(pattern[i], segments[j])) return false
  }
  return true
}

/**
 * Compiles sensitive path patterns: `[]` matches any array index, `*` any one segment, `**` any
 * number of segments (`'**.cvc'` is a `cvc` key at any depth, whatever the path above it), and a
 * match covers the subtree. A function is read at every check, for lists that grow (a form field
 * found to be a password); `within(input)` also reads it with the input, for paths that depend on
 * what one input holds.
 */
export function compileSensitive(
  patterns: readonly string[] | (() => readonly string[]) | undefined,
): SensitivePaths {
  if (typeof patterns === 'function') {
    // Once a path is sensitive it stays sensitive: the list only ever grows, even if the
    // function later forgets an entry or mutates the array it returned before.
    const known = new Set<string>()
    let current = compileSensitive(undefined)
    const read = (input?: unknown): unknown => {
      try {
        return input === undefined ? patterns() : (patterns as (input: unknown) => unknown)(input)
      } catch {
        return undefined
      }
    }
    const refresh = () => {
      const next = read()
      if (Array.isArray(next)) {
        const before = known.size
        for (const p of next) if (typeof p === 'string') known.add(p)
        if (known.size !== before) current = compileSensitive([...known])
      }
      return current
    }
    return {
      get empty() {
        return refresh().empty
      },
      matches: (path) => refresh().matches(path),
      within(input) {
        const base = refresh()
        if (input === undefined) return base
        // What this input alone makes sensitive joins for this input only: the list that
        // stays is the one read without an input.
        const next = read(input)
        if (!Array.isArray(next)) return base
        const added = next.filter((p): p is string => typeof p === 'string' && !known.has(p))
        return added.length === 0 ? base : compileSensitive([...known, ...added])
      },
    }
  }
  const compiled = (patterns ?? []).map(splitPattern).filter((p) => p.length > 0)
  if (compiled.length === 0) return NO_PATHS
  const spans = new Set(compiled.filter((p) => p.includes('**')))
  const cache = new Map<string, boolean>()
  const paths: SensitivePaths = {
    empty: false,
    within: () => paths,
    matches(path) {
      const hit = cache.get(path)
      if (hit !== undefined) return hit
      const segments = path === '' ? [] : path.split('.')
      const result = compiled.some((p) =>
        spans.has(p)
          ? matchFrom(p, 0, segments, 0)
          : p.length <= segments.length && p.every((s, i) => segmentMatches(s, segments[i])),
      )
      if (cache.size > 1000) cache.clear()
      cache.set(path, result)
      return result
    },
  }
  return paths
}

const setOwn = (target: Record<string, unknown>, key: string, value: unknown) => {
  // `__proto__` and friends become plain own data properties, never prototype writes; a key
  // Object.prototype does not know can be assigned, which is the same and much faster.
  if (key !== '__proto__' && !(key in Object.prototype)) target[key] = value
  else {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
}

/** One `redactValue` walk. */
class Redaction {
  /** The objects above the node being walked: one of them again is a cycle. */
  private readonly ancestors: object[] = []
  /** Paths are built only when some path can be sensitive. */
  private readonly paths: boolean
  constructor(
    private readonly sensitive: SensitivePaths,
    private readonly maxDepth: number,
  ) {
    this.paths = sensitive !== NO_PATHS
  }

  walk(v: unknown, path: string, depth: number): unknown {
    // A proxy or exotic object that throws when inspected is shown as unreadable, never rethrown.
    try {
      return this.node(v, path, depth)
    } catch {
      return '[unreadable]'
    }
  }

  private node(v: unknown, path: string, depth: number): unknown {
    if (this.paths && path !== '' && this.sensitive.matches(path)) {
      return v === undefined ? undefined : REDACTED
    }
    if (v === null || typeof v !== 'object') {
      if (typeof v === 'function' || typeof v === 'symbol') return undefined
      if (typeof v === 'bigint') return `${v}n`
      return v
    }
    const ancestors = this.ancestors
    if (ancestors.includes(v)) return '[circular]'
    if (depth >= this.maxDepth) return '[too deep]'
    if (v instanceof Date) return new Date(v.getTime())
    ancestors.push(v)
    try {
      if (Array.isArray(v)) {
        return v.map((item, i) => this.walk(item, this.child(path, i), depth + 1))
      }
      const out: Record<string, unknown> = {}
      for (const key of Object.keys(v)) {
        let item: unknown
        try {
          item = (v as Record<string, unknown>)[key]
        } catch {
          item = '[unreadable]'
        }
        const next = this.walk(item, this.child(path, key), depth + 1)
        if (next !== undefined) setOwn(out, key, next)
      }
      return out
    } finally {
      ancestors.pop()
    }
  }

  private child(path: string, key: string | number): string {
    if (!this.paths) return ''
    return path === '' ? String(key) : `${path}.${key}`
  }
}

/**
 * A copy of `value` safe to show and log: sensitive paths masked, cycles cut, functions and
 * symbols dropped, depth bounded. The app's own object is never touched. A `value` at the root
 * (`basePath` `''`) is a whole input: its own sensitive paths (`within`) count too, so every
 * place that shows an input (events, confirmations, recordings, telemetry) masks the same.
 */
export function redactValue(
  value: unknown,
  sensitive: SensitivePaths,
  maxDepth = 64,
  basePath = '',
): unknown {
  const paths = basePath === '' ? sensitive.within(value) : sensitive
  return new Redaction(paths, maxDepth).walk(value, basePath, 0)
}

/** Changes with sensitive sides masked; absent sides stay absent. */
export function redactChanges(
  changes: readonly FieldChange[],
  sensitive: SensitivePaths,
): FieldChange[] {
  return changes.map((c) => {
    const out: FieldChange = { path: c.path }
    const masked = sensitive.matches(c.path)
    // The values sit at `c.path`, so nested sensitive paths are matched from there.
    if ('before' in c && c.before !== undefined)
      out.before = masked ? REDACTED : redactValue(c.before, sensitive, 64, c.path)
    if ('after' in c && c.after !== undefined)
      out.after = masked ? REDACTED : redactValue(c.after, sensitive, 64, c.path)
    return out
  })
}
