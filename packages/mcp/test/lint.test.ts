import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import Ajv from 'ajv'
import { describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { z } from 'zod'
import { createToolmark, ok } from '@toolmark/core'
import { bridge, websocketTransport, type WebSocketConstructor } from '@toolmark/core/bridge'
import { lintManifest, lintManifestOf } from '@toolmark/core/lint'
import { LINT_RULE_IDS } from '../../core/src/lint/rules'

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
  'description-hidden-text',
  'description-injection',
  'summary-missing',
  'readonly-name-mutates',
  'consequential-unmarked',
  'sensitive-unmarked',
  'name-unstable',
  'duplicate-name',
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
    const manifest = readFileSync(fixture('good'), 'utf8')
    const result = run(['-', '--format', 'json'], manifest)
    expect(result.status).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({ source: 'stdin', tools: 3, errors: 0 })
  })

  it.each([
    ['a file', (file: string) => run([file])],
    ['stdin', () => run(['-', '--format', 'sarif'], JSON.stringify({ rev: 1, tools: [] }))],
  ])('exits 2 for a manifest with no tools from %s, saying there is nothing to lint', (_, lint) => {
    const folder = mkdtempSync(path.join(tmpdir(), 'toolmark-lint-'))
    const file = path.join(folder, 'empty.json')
    writeFileSync(file, JSON.stringify({ rev: 1, tools: [] }))
    const result = lint(file)
    expect(result.status).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/: the manifest has no tools, so there is nothing to lint\./)
    expect(result.stderr).toContain('JSON.stringify(lintManifestOf(tm))')
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
    [['--format', 'xml', 'x.json'], '--format is text, json or sarif'],
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
    expect(outcome.code).toBe(0)
    const report = JSON.parse(outcome.stdout)
    // A page sends neither summaries nor redacted paths: those rules are not checked, not guessed.
    expect(report).toMatchObject({
      source: 'page',
      tools: 2,
      notChecked: ['summary-missing', 'sensitive-unmarked'],
    })
    expect(report.findings.map((f: { rule: string; path?: string }) => [f.rule, f.path])).toEqual([
      ['field-description-missing', 'password'],
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

/** Writes a manifest to a fresh temporary folder and returns its path. */
function writeManifest(name: string, manifest: unknown): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'toolmark-lint-')), name)
  writeFileSync(file, typeof manifest === 'string' ? manifest : JSON.stringify(manifest, null, 2))
  return file
}

/** Any character a terminal acts on, bar the line feeds the report is made of. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point.
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/

describe('toolmark-lint on a manifest that tries to rewrite the terminal', () => {
  const name = 'evil\u001b]0;owned\u0007\u001b[2J'
  const hostile = {
    tools: [
      {
        name,
        description: 'Reads\u009b31m it\u202e',
        hints: { readOnly: true },
        inputSchema: { type: 'object', properties: { '\u001b[31mkey': { type: 'string' } } },
      },
    ],
  }

  it('escapes every control character in the text report, so it stays readable', () => {
    const result = run([writeManifest('hostile.json', hostile)])
    expect(result.status).toBe(1)
    expect(result.stdout).not.toMatch(CONTROL)
    expect(result.stdout).toContain('evil\\x1b]0;owned\\x07\\x1b[2J')
    expect(result.stdout).toContain('(\\x1b[31mkey)')
    expect(result.stdout).toContain('Reads\\u009b31m it\\u202e')
    expect(result.stdout).toContain('error   name-unstable')
  })

  it('escapes the C1 controls JSON.stringify leaves raw, in JSON and SARIF alike', () => {
    const file = writeManifest('hostile.json', hostile)
    for (const format of ['json', 'sarif']) {
      const result = run([file, '--format', format])
      expect(result.stdout).not.toMatch(CONTROL)
      expect(result.stdout).toContain('\\u009b')
    }
    const report = JSON.parse(run([file, '--format', 'json']).stdout)
    expect(report.findings.find((f: { rule: string }) => f.rule === 'name-unstable').tool).toBe(
      name,
    )
  })

  it('escapes the control characters of an error on stderr', () => {
    const result = run([writeManifest('broken.json', '{"tools": [\u001b[2J]}')])
    expect(result.status).toBe(2)
    expect(result.stderr).toContain('not valid JSON')
    expect(result.stderr).not.toMatch(CONTROL)
    expect(result.stderr).toContain('\\x1b[2J')
  })
})

/**
 * What SARIF 2.1.0 requires of the parts toolmark-lint writes, and the values it allows there:
 * a subset of the OASIS schema, written for this test.
 */
const message = { type: 'object', required: ['text'], properties: { text: { type: 'string' } } }
const level = { enum: ['none', 'note', 'warning', 'error'] }
const SARIF_SUBSET = {
  type: 'object',
  required: ['version', 'runs'],
  properties: {
    $schema: { type: 'string' },
    version: { const: '2.1.0' },
    runs: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['tool'],
        properties: {
          tool: {
            type: 'object',
            required: ['driver'],
            properties: {
              driver: {
                type: 'object',
                required: ['name'],
                properties: {
                  name: { type: 'string' },
                  version: { type: 'string' },
                  rules: {
                    type: 'array',
                    items: {
                      type: 'object',
                      required: ['id'],
                      properties: {
                        id: { type: 'string' },
                        shortDescription: message,
                        defaultConfiguration: { type: 'object', properties: { level } },
                      },
                    },
                  },
                },
              },
            },
          },
          invocations: {
            type: 'array',
            items: {
              type: 'object',
              required: ['executionSuccessful'],
              properties: {
                executionSuccessful: { type: 'boolean' },
                toolExecutionNotifications: {
                  type: 'array',
                  items: { type: 'object', required: ['message'], properties: { message, level } },
                },
              },
            },
          },
          columnKind: { enum: ['utf16CodeUnits', 'unicodeCodePoints'] },
          results: {
            type: 'array',
            items: {
              type: 'object',
              required: ['message'],
              properties: {
                ruleId: { type: 'string' },
                ruleIndex: { type: 'integer', minimum: -1 },
                level,
                message,
                locations: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: {
                      physicalLocation: {
                        type: 'object',
                        required: ['artifactLocation'],
                        properties: {
                          artifactLocation: {
                            type: 'object',
                            required: ['uri'],
                            properties: { uri: { type: 'string', minLength: 1 } },
                          },
                          region: {
                            type: 'object',
                            properties: {
                              startLine: { type: 'integer', minimum: 1 },
                              startColumn: { type: 'integer', minimum: 1 },
                            },
                          },
                        },
                      },
                      logicalLocations: {
                        type: 'array',
                        items: {
                          type: 'object',
                          properties: {
                            name: { type: 'string' },
                            fullyQualifiedName: { type: 'string' },
                            kind: { type: 'string' },
                          },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
}

interface SarifResult {
  ruleId: string
  ruleIndex: number
  level: string
  message: { text: string }
  locations: {
    physicalLocation?: {
      artifactLocation: { uri: string }
      region?: { startLine: number; startColumn: number }
    }
    logicalLocations: { name: string; fullyQualifiedName: string; kind: string }[]
  }[]
}

/** The 1-based line of the first line of a text that contains `needle`. */
const lineOf = (text: string, needle: string) =>
  text.split('\n').findIndex((line) => line.includes(needle)) + 1

describe('toolmark-lint --format sarif', () => {
  const validate = new Ajv({ strict: false }).compile(SARIF_SUBSET)

  it('writes a SARIF 2.1.0 log with every rule, and each finding at its line in the file', () => {
    const file = fixture('field-description-missing')
    const result = run([file, '--format', 'sarif'])
    expect(result.status).toBe(0)
    const log = JSON.parse(result.stdout)
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true)
    const [sarifRun] = log.runs
    expect(sarifRun.tool.driver.name).toBe('toolmark-lint')
    expect(sarifRun.tool.driver.rules.map((r: { id: string }) => r.id)).toEqual([...LINT_RULE_IDS])
    const [finding]: SarifResult[] = sarifRun.results
    expect(finding).toMatchObject({
      ruleId: 'field-description-missing',
      ruleIndex: LINT_RULE_IDS.indexOf('field-description-missing'),
      level: 'warning',
    })
    expect(finding.message.text).toContain('"tickets.assign" input field "assignee"')
    expect(finding.message.text).toContain('Fix: Describe the field')
    const text = readFileSync(file, 'utf8')
    expect(finding.locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: pathToFileURL(file).href },
      region: {
        startLine: lineOf(text, '"assignee"'),
        startColumn: text.split('\n')[lineOf(text, '"assignee"') - 1].indexOf('{') + 1,
      },
    })
    expect(finding.locations[0].logicalLocations).toEqual([
      { name: 'assignee', fullyQualifiedName: 'tickets.assign(assignee)', kind: 'parameter' },
    ])
  })

  it('points at the key of the tool a rule is about, and gives errors the error level', () => {
    const file = fixture('duplicate-name')
    const result = run([file, '--format', 'sarif'])
    expect(result.status).toBe(1)
    const log = JSON.parse(result.stdout)
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true)
    const [finding]: SarifResult[] = log.runs[0].results
    expect(finding).toMatchObject({ ruleId: 'duplicate-name', level: 'error' })
    expect(finding.locations[0].physicalLocation?.region?.startLine).toBe(
      lineOf(readFileSync(file, 'utf8'), '"name": "tickets__close"'),
    )
  })

  it('keeps relative paths relative, and gives only logical locations for stdin', () => {
    const relative = path.relative(process.cwd(), fixture('name-unstable'))
    const fromFile = JSON.parse(run([relative, '--format', 'sarif']).stdout)
    expect(fromFile.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe(
      relative.split(path.sep).join('/'),
    )
    const fromStdin = JSON.parse(
      run(['-', '--format', 'sarif'], readFileSync(fixture('name-unstable'), 'utf8')).stdout,
    )
    expect(validate(fromStdin), JSON.stringify(validate.errors)).toBe(true)
    expect(fromStdin.runs[0].results[0].locations).toEqual([
      {
        logicalLocations: [
          {
            name: 'tickets.ticket12345.close',
            fullyQualifiedName: 'tickets.ticket12345.close',
            kind: 'function',
          },
        ],
      },
    ])
  })

  it('lists the rules it could not check as notifications', () => {
    const file = writeManifest('plain.json', {
      tools: [
        {
          name: 'tickets.close',
          description: 'Closes a ticket by its number once the issue is solved',
          hints: { consequential: true },
        },
      ],
    })
    const log = JSON.parse(run([file, '--format', 'sarif']).stdout)
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true)
    expect(log.runs[0].invocations[0].toolExecutionNotifications).toEqual([
      expect.objectContaining({
        level: 'warning',
        associatedRule: expect.objectContaining({ id: 'summary-missing' }),
      }),
    ])
  })
})

/** A registry right on summaries and redaction, wrong on rules that need no facts of the app. */
function helpdesk() {
  const tm = createToolmark()
  tm.register({
    name: 'settings.connect',
    description: 'Connects the helpdesk to the mail provider with an API key',
    input: z.object({ apiKey: z.string().describe('The API key of the mail provider') }),
    sensitive: ['apiKey'],
    hints: { consequential: true },
    summary: () => 'Connect the mail provider',
    run: () => ok(true),
  })
  tm.register({
    name: 'tickets.search',
    description: 'Searches',
    hints: { readOnly: true },
    input: z.object({ query: z.string() }),
    run: () => ok([]),
  })
  tm.register({
    name: 'tickets.purge',
    description: 'Permanently deletes the tickets closed more than a year ago',
    run: () => ok(true),
  })
  return tm
}

describe('toolmark-lint on one registry read three ways', () => {
  it('finds what linting the registry finds, through a page and through a full manifest file', async () => {
    const tm = helpdesk()
    const fromRegistry = lintManifest(lintManifestOf(tm))

    const linter = listen([])
    const detach = tm.use(
      bridge({
        transport: websocketTransport({
          url: await linter.url,
          WebSocket: WebSocket as unknown as WebSocketConstructor,
          backoff: { initialMs: 20, maxMs: 50 },
        }),
      }),
    )
    const outcome = await linter.done
    detach()
    const fromPage = JSON.parse(outcome.stdout)

    const file = writeManifest('full.json', tm.manifest({ detail: 'full' }))
    const fromFile = JSON.parse(run([file, '--format', 'json']).stdout)

    expect(fromRegistry.findings.map((f) => [f.rule, f.tool, f.path])).toEqual([
      ['description-vague', 'tickets.search', undefined],
      ['consequential-unmarked', 'tickets.purge', undefined],
      ['field-description-missing', 'tickets.search', 'query'],
    ])
    expect(fromPage.findings).toEqual(fromRegistry.findings)
    expect(fromFile.findings).toEqual(fromRegistry.findings)
    expect(outcome.code).toBe(1)
    // What a page or a plain manifest cannot say is listed, never guessed (nor silently skipped).
    expect(fromRegistry.notChecked).toEqual([])
    expect(fromPage.notChecked).toEqual(['summary-missing', 'sensitive-unmarked'])
    expect(fromFile.notChecked).toEqual(['summary-missing', 'sensitive-unmarked'])
    expect(run([file]).stdout).toContain('not checked (')
  })
})

/** `a`, `b`, … `z`, `ba`, … : distinct name segments with no digits (digits look like ids). */
const letters = (n: number): string => {
  let out = ''
  do {
    out = String.fromCharCode(97 + (n % 26)) + out
    n = Math.floor(n / 26)
  } while (n > 0)
  return out
}

describe('toolmark-lint at scale, on hostile input', () => {
  it('lints a file of 5,000 tools with __proto__ keys and a 200-deep schema in seconds', () => {
    let deep: Record<string, unknown> = { type: 'string' }
    for (let i = 0; i < 200; i++) {
      deep = { type: 'object', properties: { child: deep, ['__proto__']: { type: 'string' } } }
    }
    const tools: Record<string, unknown>[] = []
    for (let i = 0; i < 5000; i++) {
      tools.push({
        name: `area${letters(i % 40)}.tool${letters(i)}`,
        description:
          i % 2 === 0
            ? 'Lists the open tickets of one queue, newest first, with their requester'
            : `Reads record ${letters(i)} of area ${letters(i % 40)} for the support team`,
        hints: { readOnly: true, ['__proto__']: { consequential: true } },
        inputSchema: { type: 'object', properties: { ['__proto__']: { type: 'string' } } },
        ['__proto__']: { summary: false },
      })
    }
    tools.push({
      name: 'deep.schema',
      description: 'Takes a deeply nested input, to check the linter keeps its stack',
      hints: { readOnly: true },
      inputSchema: deep,
    })
    const file = writeManifest('big.json', { rev: 1, tools })

    for (const format of ['text', 'json', 'sarif']) {
      const started = performance.now()
      const result = spawnSync(process.execPath, [LINT, file, '--format', format], {
        encoding: 'utf8',
        timeout: 60_000,
        maxBuffer: 256 * 1024 * 1024,
      })
      // A generous bound for a slow CI machine; a pass quadratic in the tools takes far longer.
      expect(performance.now() - started).toBeLessThan(10_000)
      expect(result.stderr).toBe('')
      expect(result.status).toBe(0)
      if (format === 'sarif') {
        const results: SarifResult[] = JSON.parse(result.stdout).runs[0].results
        const child = results.find((r) =>
          r.message.text.startsWith('"deep.schema" input field "child" has no description'),
        )
        // name, description, hints (3 lines), inputSchema, type, properties, then "child".
        expect(child?.locations[0].physicalLocation?.region?.startLine).toBe(
          lineOf(readFileSync(file, 'utf8'), '"name": "deep.schema"') + 8,
        )
      }
    }
  }, 120_000)
})
