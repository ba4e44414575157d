import { z } from 'zod'
import { createToolmark, ok, toLlmName } from '../../src/index'
import { lintManifest, lintManifestOf } from '../../src/lint'

const tool = (name: string, extra: object = {}) => ({
  name,
  description: `Reads the record called ${name.replace(/\W/g, ' ')} for the support team`,
  hints: { readOnly: true },
  ...extra,
})

const duplicates = (manifest: unknown) =>
  lintManifest(manifest, { rules: { 'description-overlap': 'off' } }).findings.filter(
    (f) => f.rule === 'duplicate-name',
  )

describe('duplicate-name', () => {
  it('reports a name listed twice, once', () => {
    const findings = duplicates({
      tools: [
        tool('tickets.close'),
        tool('tickets.list'),
        tool('tickets.close'),
        tool('tickets.close'),
      ],
    })
    expect(findings.map((f) => [f.tool, f.severity])).toEqual([['tickets.close', 'error']])
    expect(findings[0].message).toContain('"tickets.close" is in the manifest more than once')
  })

  it('reports two names with the same llmName, derived the way the registry derives it', () => {
    expect(toLlmName('tickets.close')).toBe('tickets__close')
    const findings = duplicates({ tools: [tool('tickets.close'), tool('tickets__close')] })
    expect(findings.map((f) => f.message)).toEqual([
      '"tickets.close" and "tickets__close" have the same llmName "tickets__close": models, which cannot use dots, see one tool for two (the registry refuses the second)',
    ])
  })

  it("uses the manifest's own llmName when it has one", () => {
    const findings = duplicates({
      tools: [
        tool('tickets.close', { llmName: 'close' }),
        tool('tickets.shut', { llmName: 'close' }),
      ],
    })
    expect(findings.map((f) => f.tool)).toEqual(['tickets.shut'])
  })

  it('tells long names apart by the hash their llmNames end with', () => {
    const long = 'a'.repeat(60)
    expect(toLlmName(`${long}.one`)).not.toBe(toLlmName(`${long}.two`))
    expect(duplicates({ tools: [tool(`${long}.one`), tool(`${long}.two`)] })).toEqual([])
  })

  it('finds nothing in a registry, which refuses duplicates itself', () => {
    const tm = createToolmark()
    const input = z.object({ id: z.number().describe('The ticket number') })
    tm.register({ ...tool('tickets.close'), input, run: () => ok(true) })
    expect(duplicates(lintManifestOf(tm))).toEqual([])
  })
})
