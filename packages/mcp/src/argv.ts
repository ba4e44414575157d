/**
 * What both command lines share (`toolmark-mcp`, `toolmark-lint`): reading `--flag value` and
 * `--flag=value`, whole numbers in a range, and origins. Each CLI keeps its own flags and texts.
 */

/** One argument as the parsers read it. */
export interface Flag {
  /** The argument as given. */
  arg: string
  /** The flag's name: the argument up to `=` (`--port=0` → `--port`). */
  flag: string
  /** The value given after `=`, if any. */
  inline: string | undefined
  /** The flag's value: after `=`, else the next argument unless that is another `--` flag. */
  value(): string | undefined
  /** The flag's values: after `=` split on commas, else the following arguments up to a flag. */
  values(): string[]
}

/** Walks the arguments (`process.argv.slice(2)`); `value()` and `values()` consume what they take. */
export function* readFlags(argv: readonly string[]): Generator<Flag> {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1
    const inline = eq === -1 ? undefined : arg.slice(eq + 1)
    yield {
      arg,
      flag: eq === -1 ? arg : arg.slice(0, eq),
      inline,
      value() {
        if (inline !== undefined) return inline
        const next = argv[i + 1]
        if (next === undefined || next.startsWith('--')) return undefined
        i++
        return next
      },
      values() {
        if (inline !== undefined) return inline.split(',')
        const out: string[] = []
        while (argv[i + 1] !== undefined && !argv[i + 1].startsWith('-')) out.push(argv[++i])
        return out
      },
    }
  }
}

/** A whole number from `min` to `max` written in decimal digits, else undefined. */
export function parseInteger(value: string | undefined, min: number, max: number) {
  if (value === undefined || !/^\d+$/.test(value)) return undefined
  const n = Number(value)
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : undefined
}

/**
 * Normalizes an `--allow-origin` value to an origin, or returns undefined when it is not one.
 * Only http(s) origins without path, query, fragment or credentials are accepted.
 */
export function normalizeOrigin(value: string): string | undefined {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return undefined
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
  if (url.username || url.password || url.search || url.hash) return undefined
  if (url.pathname !== '/') return undefined
  return url.origin
}

/**
 * Adds the origins of one `--allow-origin` to `into` (each once) and returns undefined, or
 * returns the error message for the first value that is not an origin.
 */
export function addOrigins(values: readonly string[], into: string[]): string | undefined {
  if (values.length === 0) return '--allow-origin needs an origin'
  for (const value of values) {
    const origin = normalizeOrigin(value.trim())
    if (!origin) return `--allow-origin: "${value}" is not an origin (use scheme://host[:port])`
    if (!into.includes(origin)) into.push(origin)
  }
  return undefined
}
