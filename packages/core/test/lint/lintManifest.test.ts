import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { createToolmark, ok } from '../../src/index'
import { createFormTools } from '../../src/forms'
import {
  LINT_RULES,
  LintInputError,
  lintManifest,
  lintManifestOf,
  type LintRuleId,
} from '../../src/lint'
import { LINT_RULE_IDS } from '../../src/lint/rules'

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures')
const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(path.join(fixtures, `${name}.json`), 'utf8'))

describe('lintManifest', () => {
  it('passes a good manifest with no findings', () => {
    expect(lintManifest(fixture('good'))).toEqual({
      findings: [],
      errors: 0,
      warnings: 0,
      tools: 3,
      notChecked: [],
    })
  })

  it('lists its rules (LINT_RULES) in the order of the rule ids, which the CLI reads from it', () => {
    expect(LINT_RULES.map((rule) => rule.id)).toEqual([...LINT_RULE_IDS])
  })

  it.each(LINT_RULE_IDS.map((id) => [id]))('has a failing fixture for %s', (id: LintRuleId) => {
    const report = lintManifest(fixture(id))
    expect(report.findings.map((f) => f.rule)).toEqual([id])
    const [finding] = report.findings
    expect(finding.message.length).toBeGreaterThan(10)
    expect(finding.fix.length).toBeGreaterThan(10)
  })

  it('gives each rule its severity, and counts errors and warnings apart', () => {
    const severities = Object.fromEntries(
      LINT_RULE_IDS.map((id) => [id, lintManifest(fixture(id)).findings[0].severity]),
    )
    expect(severities).toEqual({
      'description-missing': 'error',
      'description-vague': 'warning',
      'description-hidden-text': 'error',
      'description-injection': 'error',
      'summary-missing': 'error',
      'readonly-name-mutates': 'error',
      'consequential-unmarked': 'error',
      'description-overlap': 'warning',
      'field-description-missing': 'warning',
      'signature-over-budget': 'warning',
      'sensitive-unmarked': 'error',
      'name-unstable': 'error',
      'duplicate-name': 'error',
    })
    const report = lintManifest(fixture('sensitive-unmarked'))
    expect([report.errors, report.warnings]).toEqual([1, 0])
    expect(report.findings[0]).toMatchObject({ tool: 'account.login', path: 'password' })
  })

  it('lets options turn a rule off or change its severity', () => {
    const vague = fixture('description-vague')
    expect(lintManifest(vague, { rules: { 'description-vague': 'off' } }).findings).toEqual([])
    const strict = lintManifest(vague, { rules: { 'description-vague': 'error' } })
    expect([strict.errors, strict.warnings]).toEqual([1, 0])
    const roomy = lintManifest(fixture('signature-over-budget'), { signatureBudget: 2000 })
    expect(roomy.findings).toEqual([])
  })

  it('throws a TypeError naming the known rules for an unknown rule id', () => {
    expect(() =>
      lintManifest(fixture('good'), { rules: { 'no-such-rule': 'error' } as never }),
    ).toThrow(/Unknown lint rule "no-such-rule": the rules are description-missing, /)
  })

  it('throws LintInputError with the place and the fix for a malformed manifest', () => {
    expect(() => lintManifest([])).toThrow(LintInputError)
    expect(() => lintManifest({})).toThrow(/no "tools" array. Pass a full manifest/)
    try {
      lintManifest({ tools: [{ name: 'ok' }, { name: 7 }] })
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(LintInputError)
      expect((error as LintInputError).at).toBe('tools[1].name')
      expect((error as Error).message).toMatch(/^tools\[1\]\.name must be a string/)
    }
    expect(() => lintManifest({ tools: [{ name: 'a', sensitive: 'password' }] })).toThrow(
      /tools\[0\]\.sensitive must be an array/,
    )
  })

  it('judges the fields inside an array, not the array itself', () => {
    const report = lintManifest({
      tools: [
        {
          name: 'orders.pay',
          description: 'Pays an order with one of the saved cards of the customer',
          hints: { consequential: true },
          summary: true,
          sensitive: ['cards[].number'],
          inputSchema: {
            type: 'object',
            properties: {
              cards: {
                type: 'array',
                description: 'Cards',
                items: {
                  type: 'object',
                  properties: {
                    number: { type: 'string', description: 'Card number' },
                    cvc: { type: 'string', description: 'Security code' },
                  },
                },
              },
            },
          },
        },
      ],
    })
    expect(report.findings.map((f) => [f.rule, f.path])).toEqual([
      ['sensitive-unmarked', 'cards[].cvc'],
    ])
  })
})

describe('lintManifestOf', () => {
  it('reads summaries and sensitive paths from a live registry, which the rules then use', () => {
    const tm = createToolmark()
    const login = z.object({
      email: z.string().describe('Account email'),
      password: z.string().describe('Account password'),
      token: z.string().describe('One-time token'),
    })
    tm.register({
      name: 'account.login',
      description: 'Signs the person in to their helpdesk account',
      input: login,
      sensitive: ['password'],
      hints: { consequential: true },
      run: () => ok(true),
    })
    tm.register({
      name: 'tickets.close',
      description: 'Closes a ticket by its number once the issue is solved',
      input: z.object({ id: z.number().describe('The ticket number') }),
      hints: { consequential: true },
      summary: ({ id }) => `Close ticket #${id}`,
      run: () => ok(true),
    })

    const manifest = lintManifestOf(tm)

    expect(manifest.tools.map((t) => [t.name, t.summary, t.sensitive])).toEqual([
      ['account.login', false, ['password']],
      ['tickets.close', true, []],
    ])
    expect(manifest.tools[1].inputSchema).toBeDefined()
    const report = lintManifest(JSON.parse(JSON.stringify(manifest)))
    expect(report.findings.map((f) => [f.rule, f.tool, f.path])).toEqual([
      ['summary-missing', 'account.login', undefined],
      ['sensitive-unmarked', 'account.login', 'token'],
    ])
  })

  it('sees the destructive tools no browser agent is shown', () => {
    const tm = createToolmark()
    tm.register({
      name: 'tickets.delete',
      description: 'Deletes a ticket for good',
      hints: { destructive: true },
      run: () => ok(true),
    })
    expect(lintManifestOf(tm).tools.map((t) => t.name)).toEqual(['tickets.delete'])
    expect(lintManifestOf(tm, { caller: 'webmcp' }).tools).toEqual([])
  })

  it('counts a form submit as summarized and password fields as sensitive', () => {
    const tm = createToolmark()
    let values: Record<string, unknown> = { user: '', password: '' }
    createFormTools(
      tm,
      {
        getValues: () => values,
        setValues: (next) => {
          values = { ...values, ...next }
        },
        dirtyPaths: () => [],
        submit: async () => ({ ok: true as const, data: values }),
        fields: () => [
          { path: 'user', label: 'User' },
          { path: 'password', label: 'Password', sensitive: true },
        ],
      },
      {
        name: 'signin',
        description: 'The sign-in form',
        schema: z.object({ user: z.string(), password: z.string() }),
      },
    )
    const submit = lintManifestOf(tm).tools.find((t) => t.name === 'signin.submit')
    expect(submit?.summary).toBe(true)
    const fill = lintManifestOf(tm).tools.find((t) => t.name === 'signin.fill')
    expect(fill?.sensitive).toContain('values.password')
  })
})
