import { z } from 'zod'
import { createToolmark, ok } from '../../src/index'
import { lintManifest, lintManifestOf } from '../../src/lint'

/** A registry whose tools are right on summaries and redaction, and wrong on other rules. */
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
  return tm
}

const rulesOf = (report: ReturnType<typeof lintManifest>) =>
  report.findings.map((f) => [f.rule, f.tool, f.path])

describe('lintManifest on a manifest without the facts of the app', () => {
  it('finds what lintManifestOf finds in tm.manifest({ detail: "full" }), and says what it could not check', () => {
    const tm = helpdesk()
    const fromRegistry = lintManifest(lintManifestOf(tm))
    const fromManifest = lintManifest(JSON.parse(JSON.stringify(tm.manifest({ detail: 'full' }))))

    expect(rulesOf(fromRegistry)).toEqual([
      ['description-vague', 'tickets.search', undefined],
      ['field-description-missing', 'tickets.search', 'query'],
    ])
    expect(fromManifest.findings).toEqual(fromRegistry.findings)
    expect(fromRegistry.notChecked).toEqual([])
    expect(fromManifest.notChecked).toEqual(['summary-missing', 'sensitive-unmarked'])
  })

  it('reports no secret-looking field it cannot judge, and lists the rule as not checked', () => {
    const report = lintManifest({
      tools: [
        {
          name: 'account.login',
          description: 'Signs the person in to their helpdesk account',
          hints: { consequential: true },
          inputSchema: {
            type: 'object',
            properties: { password: { type: 'string', description: 'Account password' } },
          },
        },
      ],
    })
    expect(report.findings).toEqual([])
    expect(report.notChecked).toEqual(['summary-missing', 'sensitive-unmarked'])
  })

  it('still judges what the schema says (writeOnly) and tools that need no facts', () => {
    const report = lintManifest({
      tools: [
        {
          name: 'account.login',
          description: 'Signs the person in to their helpdesk account',
          hints: {},
          inputSchema: {
            type: 'object',
            properties: {
              password: { type: 'string', writeOnly: true, description: 'Account password' },
            },
          },
        },
      ],
    })
    expect(report).toMatchObject({ findings: [], notChecked: [] })
  })

  it('lists no rule as not checked when that rule is off', () => {
    const tm = helpdesk()
    const report = lintManifest(tm.manifest({ detail: 'full' }), {
      rules: { 'summary-missing': 'off' },
    })
    expect(report.notChecked).toEqual(['sensitive-unmarked'])
  })
})
