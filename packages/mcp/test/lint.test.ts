import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { z } from 'zod'
import { createToolmark, ok } from '@toolmark/core'
import { bridge, websocketTransport, type WebSocketConstructor } from '@toolmark/core/bridge'
import { LINT_RULE_IDS } from '@toolmark/core/lint'

const dir = path.dirname(fileURLToPath(import.meta.url))
/** Built by globalSetup.ts beside the MCP server. */
const LINT = path.join(dir, '../dist/lint.js')
const fixtures = path.join(dir, '../../core/test/lint/fixtures')
const fixture = (name: string) => path.join(fixtures, `${name}.json`)

function run(args: string[], input?: string) {
  return spawnSync(process.execPath, [LINT, ...args], {
    encoding: 'utf8',
    timeout: 15_000,
    input,
  })
}

const ERROR_RULES = [
  'description-missing',
  'summary-missing',
  'readonly-name-mutates',
  'sensitive-unmarked',
  'name-unstable',
]

describe('toolmark-lint on a manifest file', () => {
  it('exits 0 for a good manifest and says so', () => {
    const result = run([fixture('good')])
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    expect(result.stdout).toBe(`${fixture('good')}: 3 tools, 0 errors, 0 warnings\n`)
  })

  it.each(LINT_RULE_IDS.map((id) => [id]))(
    'reports %s from its fixture, with the exit code of its severity',
    (id) => {
      const result = run([fixture(id), '--format', 'json'])
      const report = JSON.parse(result.stdout)
      expect(report.findings.map((f: { rule: string }) => f.rule)).toEqual([id])
      expect(result.status).toBe(ERROR_RULES.includes(id) ? 1 : 0)
    },
  )

  it('prints each finding with its rule, tool, message and fix for people', () => {
    const result = run([fixture('summary-missing')])
    expect(result.status).toBe(1)
    expect(result.stdout).toContain('error   summary-missing')
    expect(result.stdout).toContain('tickets.delete')
    expect(result.stdout).toContain('fix: Add summary:')
    expect(result.stdout).toMatch(/1 tool, 1 error, 0 warnings\n$/)
  })

  it('fails on warnings past --max-warnings and honours --rule', () => {
    expect(run([fixture('description-vague'), '--max-warnings', '0']).status).toBe(1)
    expect(run([fixture('description-vague'), '--max-warnings', '1']).status).toBe(0)
    expect(run([fixture('summary-missing'), '--rule', 'summary-missing=warning']).status).toBe(0)
    const off = run([fixture('name-unstable'), '--rule=name-unstable=off', '--format=json'])
    expect(off.status).toBe(0)
    expect(JSON.parse(off.stdout).findings).toEqual([])
  })

  it('reads stdin for "-"', () => {
    const result = run(['-', '--format', 'json'], JSON.stringify({ tools: [] }))
    expect(result.status).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({ source: 'stdin', tools: 0, errors: 0 })
  })

  it('exits 2 with the line and the fix for JSON that does not parse, never a stack trace', () => {
    // A .txt file, so the formatter never repairs the missing comma on line 4.
    const result = run([path.join(fixtures, 'malformed.txt')])
    expect(result.status).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/malformed\.txt:4:\d+: not valid JSON/)
    expect(result.stderr).toContain('JSON.stringify(lintManifestOf(tm), null, 2)')
    expect(result.stderr).not.toMatch(/\n\s+at /)
  })

  it('exits 2 with the line for a manifest of the wrong shape', () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'toolmark-lint-'))
    const file = path.join(folder, 'shape.json')
    writeFileSync(
      file,
      JSON.stringify({ tools: [{ name: 'a', description: 'A tool' }, { name: 42 }] }, null, 2),
    )
    const result = run([file])
    expect(result.status).toBe(2)
    expect(result.stderr).toContain(`${file}:8: tools[1].name must be a string`)
  })

  it.each([
    [['missing.json'], 'missing.json: no such file'],
    [['--rule', 'no-such=error', 'x.json'], 'unknown rule "no-such"'],
    [['--format', 'xml', 'x.json'], '--format is text or json'],
    [[], 'give a manifest file, or --listen'],
    [['--verbose', 'x.json'], 'unknown option --verbose'],
  ])('exits 2 for %j', (args, message) => {
    const result = run(args)
    expect(result.status).toBe(2)
    expect(result.stderr).toContain(message)
    expect(result.stderr).not.toMatch(/\n\s+at /)
  })
})

/** Starts `toolmark-lint --listen 0 …` and resolves with the URL it prints, and its outcome. */
function listen(extra: string[]) {
  const child = spawn(process.execPath, [LINT, '--listen', '0', '--format', 'json', ...extra])
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  const url = new Promise<string>((resolve) =>
    child.stderr.on('data', (d) => {
      stderr += d
      const match = /waiting for a page at (ws:\/\/\S+)/.exec(stderr)
      if (match) resolve(match[1])
    }),
  )
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  )
  return { url, done, child }
}

/** A page: a registry whose bridge dials the linter, with a WebSocket that sends an Origin. */
function page(url: string, origin: string) {
  const tm = createToolmark()
  tm.register({
    name: 'tickets.search',
    description: 'Searches tickets by words in their title or requester email',
    hints: { readOnly: true },
    input: z.object({ query: z.string().describe('Words to look for') }),
    run: () => ok([]),
  })
  tm.register({
    name: 'account.login',
    description: 'Signs the person in to their helpdesk account',
    hints: { consequential: true },
    input: z.object({ email: z.string().describe('Email'), password: z.string() }),
    run: () => ok(true),
  })
  class OriginWebSocket extends WebSocket {
    constructor(address: string | URL) {
      super(address, { origin })
    }
  }
  const detach = tm.use(
    bridge({
      transport: websocketTransport({
        url,
        WebSocket: OriginWebSocket as unknown as WebSocketConstructor,
        backoff: { initialMs: 20, maxMs: 50 },
      }),
    }),
  )
  return detach
}

describe('toolmark-lint --listen: a live page through the bridge', () => {
  it("lints the page's registry, described tool by tool", async () => {
    const linter = listen(['--allow-origin', 'http://localhost:5173'])
    const detach = page(await linter.url, 'http://localhost:5173')
    const outcome = await linter.done
    detach()
    expect(outcome.code).toBe(1)
    const report = JSON.parse(outcome.stdout)
    expect(report).toMatchObject({ source: 'page', tools: 2, notChecked: ['summary-missing'] })
    expect(report.findings.map((f: { rule: string; path?: string }) => [f.rule, f.path])).toEqual([
      ['field-description-missing', 'password'],
      ['sensitive-unmarked', 'password'],
    ])
  })

  it('refuses a page of another origin and exits 2 when no page comes in time', async () => {
    const linter = listen(['--allow-origin', 'http://localhost:5173', '--timeout', '1500'])
    const detach = page(await linter.url, 'http://evil.example')
    const outcome = await linter.done
    detach()
    expect(outcome.code).toBe(2)
    expect(outcome.stdout).toBe('')
    expect(outcome.stderr).toContain('no page sent its tools within 1500 ms')
  })
})
