import { addOrigins, parseInteger, readFlags } from './argv'
import { DEFAULT_PROGRESS_INTERVAL_MS } from './progressReporter'

export { normalizeOrigin } from './argv'

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
 * Reads the CLI flags (`process.argv.slice(2)`). Accepts `--flag value` and `--flag=value`;
 * `--allow-origin` takes one or more values.
 */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const allowOrigins: string[] = []
  let port = DEFAULT_PORT
  let callTimeoutMs = DEFAULT_CALL_TIMEOUT_MS
  let progressIntervalMs = DEFAULT_PROGRESS_INTERVAL_MS
  let sawOriginFlag = false
  const error = (message: string): ParsedArgs => ({ kind: 'error', message })

  for (const { arg, flag, inline, value, values } of readFlags(argv)) {
    switch (flag) {
      case '-h':
      case '--help':
        return inline === undefined ? { kind: 'help' } : error(`${flag} takes no value`)
      case '-v':
      case '--version':
        return inline === undefined ? { kind: 'version' } : error(`${flag} takes no value`)
      case '--allow-origin': {
        sawOriginFlag = true
        const problem = addOrigins(values(), allowOrigins)
        if (problem) return error(problem)
        break
      }
      case '--port': {
        const n = parseInteger(value(), 0, 65_535)
        if (n === undefined) return error('--port needs a number from 0 to 65535')
        port = n
        break
      }
      case '--call-timeout': {
        const n = parseInteger(value(), 1, 2_147_483_647)
        if (n === undefined) return error('--call-timeout needs a positive number of milliseconds')
        callTimeoutMs = n
        break
      }
      case '--progress-interval': {
        const n = parseInteger(value(), 0, 2_147_483_647)
        if (n === undefined) {
          return error('--progress-interval needs a number of milliseconds (0 turns it off)')
        }
        progressIntervalMs = n
        break
      }
      default:
        return error(
          arg.startsWith('-') ? `unknown option ${flag}` : `unexpected argument "${arg}"`,
        )
    }
  }

  if (!sawOriginFlag) return error('--allow-origin is required')
  return { kind: 'run', options: { allowOrigins, port, callTimeoutMs, progressIntervalMs } }
}
