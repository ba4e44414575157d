#!/usr/bin/env node
import { escapeControls } from './escapeControls'
import { LINT_HELP, LINT_USAGE, parseLintArgs } from './lintArgs'
import { runLint } from './runLint'

const parsed = parseLintArgs(process.argv.slice(2))
if (parsed.kind === 'help') {
  process.stdout.write(LINT_HELP)
} else if (parsed.kind === 'error') {
  process.stderr.write(`toolmark-lint: ${escapeControls(parsed.message)}\n${LINT_USAGE}\n`)
  process.exitCode = 2
} else {
  runLint(parsed.options, (line) => process.stderr.write(`${line}\n`)).then(
    (outcome) => {
      process.stdout.write(outcome.stdout)
      process.stderr.write(outcome.stderr)
      process.exitCode = outcome.code
    },
    (error: unknown) => {
      // runLint never throws; if it ever does, still no stack trace and the "unreadable" code.
      process.stderr.write(
        `toolmark-lint: ${escapeControls(error instanceof Error ? error.message : String(error))}\n`,
      )
      process.exitCode = 2
    },
  )
}
