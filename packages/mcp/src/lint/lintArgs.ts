import { LINT_RULES, type LintOptions, type LintRuleId } from '@toolmark/core/lint'
import { addOrigins, parseInteger, readFlags } from '../argv'

/** Every rule id, in the order the rules run. */
const RULE_IDS: readonly string[] = LINT_RULES.map((rule) => rule.id)

/** The one-line usage printed with every flag error. */
export const LINT_USAGE =
  'Usage: toolmark-lint <manifest.json> | --listen <port> [--allow-origin <origin>...] [--format text|json|sarif] [--rule <id>=error|warning|off]... [--signature-budget 240] [--max-warnings <n>] [--timeout 30000]'

/** What the linter runs with once its flags are valid. */
export interface LintCliOptions {
  /** A manifest file to read (`-` for stdin). */
  file?: string
  /** Instead of a file: wait on this loopback port for a page's bridge (0 picks one). */
  listen?: number
  /** Origins whose pages may connect with `--listen`; empty: any. */
  allowOrigins: string[]
  format: 'text' | 'json' | 'sarif'
  lint: LintOptions
  /** More warnings than this fail the lint (exit 1). Default: warnings never fail. */
  maxWarnings?: number
  /** How long `--listen` waits for a page and its answers, in ms. */
  timeoutMs: number
}

export type ParsedLintArgs =
  { kind: 'run'; options: LintCliOptions } | { kind: 'help' } | { kind: 'error'; message: string }

/** The full `--help` text. */
export const LINT_HELP = `toolmark-lint — check a tool manifest before a model meets it.

${LINT_USAGE}

Input (one of):
  <manifest.json>             A full manifest: JSON.stringify(lintManifestOf(tm)) from
                              @toolmark/core/lint, or tm.manifest({ detail: 'full' }). "-" reads stdin.
  --listen <port>             Wait on ws://127.0.0.1:<port> for a page whose bridge dials it
                              (websocketTransport), read its registry and lint that (0 picks a
                              free port, printed on stderr).
Options:
  --allow-origin <origin>...  With --listen: only pages of these origins may connect.
  --format text|json|sarif    Output for people (default), for CI (JSON), or for code scanning
                              (SARIF 2.1.0, with the line of each finding in a manifest file).
  --rule <id>=<severity>      Set a rule to error, warning or off. Repeatable.
  --signature-budget <chars>  The summary manifest's signature budget (default 240).
  --max-warnings <n>          Fail (exit 1) with more warnings than this.
  --timeout <ms>              How long --listen waits for a page (default 30000).
  -h, --help                  Show this help.

Rules: ${RULE_IDS.join(', ')}.
Exit codes: 0 no errors, 1 errors (or too many warnings), 2 unreadable input, a manifest with
no tools, or bad flags.
`

/** Reads the flags (`process.argv.slice(2)`); never throws. */
export function parseLintArgs(argv: readonly string[]): ParsedLintArgs {
  const options: LintCliOptions = { allowOrigins: [], format: 'text', lint: {}, timeoutMs: 30_000 }
  const rules: Partial<Record<LintRuleId, 'error' | 'warning' | 'off'>> = {}
  const error = (message: string): ParsedLintArgs => ({ kind: 'error', message })
  for (const { arg, flag, value: next, values } of readFlags(argv)) {
    switch (flag) {
      case '-h':
      case '--help':
        return { kind: 'help' }
      case '--listen': {
        const port = parseInteger(next(), 0, 65_535)
        if (port === undefined) return error('--listen needs a port from 0 to 65535')
        options.listen = port
        break
      }
      case '--allow-origin': {
        const problem = addOrigins(values(), options.allowOrigins)
        if (problem) return error(problem)
        break
      }
      case '--format': {
        const value = next()
        if (value !== 'text' && value !== 'json' && value !== 'sarif') {
          return error('--format is text, json or sarif')
        }
        options.format = value
        break
      }
      case '--rule': {
        const value = next() ?? ''
        const match = /^([a-z-]+)=(error|warning|off)$/.exec(value)
        if (!match) return error(`--rule needs <id>=error|warning|off, got "${value}"`)
        if (!RULE_IDS.includes(match[1])) {
          return error(`unknown rule "${match[1]}": the rules are ${RULE_IDS.join(', ')}`)
        }
        rules[match[1] as LintRuleId] = match[2] as 'error' | 'warning' | 'off'
        break
      }
      case '--signature-budget': {
        const n = parseInteger(next(), 1, 1_000_000)
        if (n === undefined) return error('--signature-budget needs a positive number')
        options.lint.signatureBudget = n
        break
      }
      case '--max-warnings': {
        const n = parseInteger(next(), 0, 1_000_000)
        if (n === undefined) return error('--max-warnings needs a number')
        options.maxWarnings = n
        break
      }
      case '--timeout': {
        const n = parseInteger(next(), 1, 3_600_000)
        if (n === undefined) return error('--timeout needs a number of milliseconds')
        options.timeoutMs = n
        break
      }
      default:
        if (arg.startsWith('--') || (arg.startsWith('-') && arg !== '-')) {
          return error(`unknown option ${flag}`)
        }
        if (options.file !== undefined) return error(`one manifest at a time (got "${arg}" too)`)
        options.file = arg
    }
  }
  if (Object.keys(rules).length > 0) options.lint.rules = rules
  if (options.file === undefined && options.listen === undefined) {
    return error('give a manifest file, or --listen <port> to read a live page')
  }
  if (options.file !== undefined && options.listen !== undefined) {
    return error('give a manifest file or --listen, not both')
  }
  return { kind: 'run', options }
}
