import { DEFAULT_PROGRESS_INTERVAL_MS } from './progressReporter'

/** Default loopback port of the pairing WebSocket. */
export const DEFAULT_PORT = 17840

/** Default deadline of one MCP tool call in ms (10 minutes: a person may be deciding). */
export const DEFAULT_CALL_TIMEOUT_MS = 600_000

/** The one-line usage printed with every flag error. */
export const USAGE =
  'Usage: toolmark-mcp --allow-origin <origin>... [--port 17840] [--call-timeout 600000] [--progress-interval 10000]'

/** What the CLI runs with once its flags are valid. */
export interface CliOptions {
  /** Exact origins (`scheme://host[:port]`) whose pages may pair. */
  allowOrigins: string[]
  /** Loopback port of the pairing WebSocket; `0` picks a free one (printed on stderr). */
  port: number
  /** Deadline of one tool call in ms. */
  callTimeoutMs: number
  /** Silence in ms after which an outstanding call with a progress token gets a heartbeat; 0: none. */
  progressIntervalMs: number
}

/** The outcome of reading the command line: never an exception. */
export type ParsedArgs =
  | { kind: 'run'; options: CliOptions }
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'error'; message: string }

/** The full `--help` text. */
export const HELP = `toolmark-mcp — serve a paired web page's tools to an MCP client over stdio.

${USAGE}

Options:
  --allow-origin <origin>...  Origins whose pages may pair, e.g. http://localhost:5173.
                              Repeat the flag or list several origins after it. Required.
  --port <port>               Loopback port of the pairing WebSocket (default ${DEFAULT_PORT};
                              0 picks a free port and prints it on stderr).
  --call-timeout <ms>         Deadline of one tool call, confirmation time included
                              (default ${DEFAULT_CALL_TIMEOUT_MS}).
  --progress-interval <ms>    While a call waits (a person may be approving it), send a
                              progress notification after this long without one, when the
                              client asked for progress (default ${DEFAULT_PROGRESS_INTERVAL_MS}; 0: never).
  -h, --help                  Show this help.
  -v, --version               Show the version.

The server speaks MCP on stdin/stdout; diagnostics and the pairing code go to stderr.
`

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

function parseInteger(value: string, min: number, max: number): number | undefined {
  if (!/^\d+$/.test(value)) return undefined
  const n = Number(value)
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : undefined
}

/**
 * Reads the CLI flags (`process.argv.slice(2)`). Accepts `--flag value` and `--flag=value`;
 * `--allow-origin` takes one or more values.
 */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const allowOrigins: string[] = []
  let port = DEFAULT_PORT
  let callTimeoutMs = DEFAULT_CALL_TIMEOUT_MS
  let progressIntervalMs = DEFAULT_PROGRESS_INTERVAL_MS
  let sawOriginFlag = false

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1
    const flag = eq === -1 ? arg : arg.slice(0, eq)
    const inline = eq === -1 ? undefined : arg.slice(eq + 1)
    const takeValue = (): string | undefined => {
      if (inline !== undefined) return inline
      const next = argv[i + 1]
      if (next === undefined || next.startsWith('-')) return undefined
      i++
      return next
    }

    switch (flag) {
      case '-h':
      case '--help':
        if (inline !== undefined) return { kind: 'error', message: `${flag} takes no value` }
        return { kind: 'help' }
      case '-v':
      case '--version':
        if (inline !== undefined) return { kind: 'error', message: `${flag} takes no value` }
        return { kind: 'version' }
      case '--allow-origin': {
        sawOriginFlag = true
        const values: string[] = []
        if (inline !== undefined) values.push(...inline.split(','))
        else
          while (argv[i + 1] !== undefined && !argv[i + 1].startsWith('-')) values.push(argv[++i])
        if (values.length === 0) return { kind: 'error', message: '--allow-origin needs an origin' }
        for (const value of values) {
          const origin = normalizeOrigin(value.trim())
          if (!origin) {
            return {
              kind: 'error',
              message: `--allow-origin: "${value}" is not an origin (use scheme://host[:port])`,
            }
          }
          if (!allowOrigins.includes(origin)) allowOrigins.push(origin)
        }
        break
      }
      case '--port': {
        const value = takeValue()
        const n = value === undefined ? undefined : parseInteger(value, 0, 65_535)
        if (n === undefined)
          return { kind: 'error', message: '--port needs a number from 0 to 65535' }
        port = n
        break
      }
      case '--call-timeout': {
        const value = takeValue()
        const n = value === undefined ? undefined : parseInteger(value, 1, 2_147_483_647)
        if (n === undefined) {
          return {
            kind: 'error',
            message: '--call-timeout needs a positive number of milliseconds',
          }
        }
        callTimeoutMs = n
        break
      }
      case '--progress-interval': {
        const value = takeValue()
        const n = value === undefined ? undefined : parseInteger(value, 0, 2_147_483_647)
        if (n === undefined) {
          return {
            kind: 'error',
            message: '--progress-interval needs a number of milliseconds (0 turns it off)',
          }
        }
        progressIntervalMs = n
        break
      }
      default:
        return {
          kind: 'error',
          message: arg.startsWith('-') ? `unknown option ${flag}` : `unexpected argument "${arg}"`,
        }
    }
  }

  if (!sawOriginFlag) return { kind: 'error', message: '--allow-origin is required' }
  return { kind: 'run', options: { allowOrigins, port, callTimeoutMs, progressIntervalMs } }
}
