import { readFile } from 'node:fs/promises'
import {
  LintInputError,
  lintManifest,
  type LintManifest,
  type LintReport,
} from '@toolmark/core/lint'
import type { LintCliOptions } from './lintArgs'
import { lineColumn, offsetOfPath, syntaxErrorOffset } from './jsonLocation'
import { PageReadError, readPage } from './readPage'

/** What a lint run printed and how it ended. */
export interface LintRunOutcome {
  /** 0 no errors, 1 errors or too many warnings, 2 unreadable input. */
  code: 0 | 1 | 2
  stdout: string
  stderr: string
}

/** Rules a page read through the bridge cannot feed: it does not send these facts. */
const UNKNOWN_OVER_BRIDGE = ['summary-missing'] as const

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

function formatText(source: string, report: LintReport, notChecked: readonly string[]): string {
  const lines: string[] = []
  for (const f of report.findings) {
    const where = f.path ? `${f.tool} (${f.path})` : f.tool
    lines.push(`${f.severity.padEnd(7)} ${f.rule.padEnd(26)} ${where}`)
    lines.push(`        ${f.message}`)
    lines.push(`        fix: ${f.fix}`)
  }
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
  lines.push(
    `${source}: ${plural(report.tools, 'tool')}, ${plural(report.errors, 'error')}, ${plural(report.warnings, 'warning')}`,
  )
  if (notChecked.length > 0) {
    lines.push(`not checked (the page does not send what they need): ${notChecked.join(', ')}`)
  }
  return `${lines.join('\n')}\n`
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
  let notChecked: readonly string[] = []
  try {
    if (options.listen !== undefined) {
      manifest = await readPage({
        port: options.listen,
        allowOrigins: options.allowOrigins,
        timeoutMs: options.timeoutMs,
        onListening: (url) => log(`toolmark-lint: waiting for a page at ${url}`),
      })
      source = 'page'
      notChecked = UNKNOWN_OVER_BRIDGE
    } else {
      source = options.file === '-' ? 'stdin' : options.file!
      ;({ text, value: manifest } = await readFileManifest(options.file!))
    }
  } catch (error) {
    if (error instanceof Unreadable || error instanceof PageReadError) {
      return { code: 2, stdout: '', stderr: `toolmark-lint: ${error.message}\n` }
    }
    return {
      code: 2,
      stdout: '',
      stderr: `toolmark-lint: ${error instanceof Error ? error.message : String(error)}\n`,
    }
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
    return {
      code: 2,
      stdout: '',
      stderr: `toolmark-lint: ${source}${where}: ${(error as Error).message}\n`,
    }
  }
  const failed =
    report.errors > 0 ||
    (options.maxWarnings !== undefined && report.warnings > options.maxWarnings)
  const stdout =
    options.format === 'json'
      ? `${JSON.stringify({ source, ...report, notChecked: [...notChecked] }, null, 2)}\n`
      : formatText(source, report, notChecked)
  return { code: failed ? 1 : 0, stdout, stderr: '' }
}

export type { LintManifest }
