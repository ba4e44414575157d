import { readFile } from 'node:fs/promises'
import {
  LintInputError,
  lintManifest,
  type LintManifest,
  type LintReport,
} from '@toolmark/core/lint'
import { VERSION } from '../version'
import { escapeControls, stringifyForTerminal } from './escapeControls'
import { findingLocator } from './findingLocator'
import { formatSarif } from './formatSarif'
import { formatText } from './formatText'
import type { LintCliOptions } from './lintArgs'
import { lineColumn, offsetOfPath, syntaxErrorOffset } from './jsonLocation'
import { readPage } from './readPage'

/** What a lint run printed and how it ended. */
export interface LintRunOutcome {
  /** 0 no errors, 1 errors or too many warnings, 2 unreadable input or no tools. */
  code: 0 | 1 | 2
  stdout: string
  stderr: string
}

/** Exit 2 with one line on stderr; texts from the input are escaped like the report's. */
const unreadable = (message: string): LintRunOutcome => ({
  code: 2,
  stdout: '',
  stderr: `toolmark-lint: ${escapeControls(message)}\n`,
})

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** A failure to read the input: exit 2 with one clear line (never a stack trace). */
class Unreadable extends Error {}

async function readFileManifest(file: string): Promise<{ text: string; value: unknown }> {
  let text: string
  try {
    text = file === '-' ? await readStdin() : await readFile(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new Unreadable(
      code === 'ENOENT'
        ? `${file}: no such file`
        : `${file}: cannot be read (${code ?? (error as Error).message})`,
    )
  }
  try {
    return { text, value: JSON.parse(text) }
  } catch (error) {
    const offset = syntaxErrorOffset(text, error)
    const where =
      offset === undefined
        ? ''
        : `:${lineColumn(text, offset).line}:${lineColumn(text, offset).column}`
    throw new Unreadable(
      `${file}${where}: not valid JSON (${(error as Error).message}). Write the manifest with JSON.stringify(lintManifestOf(tm), null, 2).`,
    )
  }
}

/**
 * Runs the linter as the command does: reads the manifest (a file, stdin or a live page), lints
 * it and renders the outcome. Never throws: unreadable input is exit code 2 with the fix.
 */
export async function runLint(
  options: LintCliOptions,
  log: (line: string) => void = () => {},
): Promise<LintRunOutcome> {
  let source: string
  let manifest: unknown
  let text: string | undefined
  try {
    if (options.listen !== undefined) {
      manifest = await readPage({
        port: options.listen,
        allowOrigins: options.allowOrigins,
        timeoutMs: options.timeoutMs,
        onListening: (url) => log(`toolmark-lint: waiting for a page at ${url}`),
      })
      source = 'page'
    } else {
      source = options.file === '-' ? 'stdin' : options.file!
      ;({ text, value: manifest } = await readFileManifest(options.file!))
    }
  } catch (error) {
    return unreadable(error instanceof Error ? error.message : String(error))
  }
  let report: LintReport
  try {
    report = lintManifest(manifest, options.lint)
  } catch (error) {
    let where = ''
    if (error instanceof LintInputError && error.at && text !== undefined) {
      const offset = offsetOfPath(text, error.at)
      if (offset !== undefined) where = `:${lineColumn(text, offset).line}`
    }
    return unreadable(`${source}${where}: ${(error as Error).message}`)
  }
  if (report.tools === 0) {
    return unreadable(
      source === 'page'
        ? "the page sent no tools, so there is nothing to lint: connect once its components have mounted and registered theirs, and check that the policy shows them to the bridge's caller."
        : `${source}: the manifest has no tools, so there is nothing to lint. Write it once the app has registered them (components register theirs when they mount), as a caller that sees them all: JSON.stringify(lintManifestOf(tm)).`,
    )
  }
  const failed =
    report.errors > 0 ||
    (options.maxWarnings !== undefined && report.warnings > options.maxWarnings)
  let stdout: string
  if (options.format === 'json') stdout = `${stringifyForTerminal({ source, ...report })}\n`
  else if (options.format === 'sarif') {
    const tools = (manifest as { tools: unknown[] }).tools
    stdout = formatSarif(report, {
      version: VERSION,
      ...(text === undefined || options.file === '-'
        ? {}
        : { file: options.file, locate: findingLocator(text, tools) }),
    })
  } else stdout = formatText(source, report)
  return { code: failed ? 1 : 0, stdout, stderr: '' }
}

export type { LintManifest }
