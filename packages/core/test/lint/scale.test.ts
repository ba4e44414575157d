import { lintManifest } from '../../src/lint'

/** `a`, `b`, … `z`, `ba`, … : distinct name segments with no digits (digits look like ids). */
const letters = (n: number): string => {
  let out = ''
  do {
    out = String.fromCharCode(97 + (n % 26)) + out
    n = Math.floor(n / 26)
  } while (n > 0)
  return out
}

/** A schema nested `depth` levels deep, objects and arrays of unions in turn. */
function deepSchema(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string', description: 'The innermost value' }
  for (let i = 0; i < depth; i++) {
    schema =
      i % 2 === 0
        ? {
            type: 'object',
            description: `Level ${depth - i}`,
            properties: { child: schema, ['__proto__']: { type: 'string', polluted: true } },
          }
        : { type: 'array', description: `Level ${depth - i}`, items: { anyOf: [schema] } }
  }
  return schema
}

/**
 * A hostile manifest as JSON text: 5,000 tools (some named after Object.prototype members, many
 * described alike), `__proto__` keys at every level and a schema 200 levels deep.
 */
function hostileManifestText(): string {
  const tools: Record<string, unknown>[] = []
  for (let i = 0; i < 5000; i++) {
    tools.push({
      name: `area${letters(i % 40)}.tool${letters(i)}`,
      description:
        i % 2 === 0
          ? 'Lists the open tickets of one queue, newest first, with their requester'
          : `Reads record ${letters(i)} of area ${letters(i % 40)} for the support team`,
      hints: { readOnly: true, ['__proto__']: { consequential: true, polluted: true } },
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string' },
          ['__proto__']: { type: 'string', description: 'A key named __proto__' },
          constructor: { type: 'string', description: 'A key named constructor' },
        },
      },
      ['__proto__']: { polluted: true, summary: false },
    })
  }
  for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
    tools.push({ name, description: 'Reads one thing for the support team by its name', hints: {} })
  }
  tools.push({
    name: 'deep.schema',
    description: 'Takes a deeply nested input, to check the linter keeps its stack',
    hints: { readOnly: true },
    inputSchema: deepSchema(200),
  })
  return JSON.stringify({ rev: 1, ['__proto__']: { polluted: true }, tools })
}

describe('lintManifest at scale, on hostile input', () => {
  it('lints 5,000 tools with __proto__ keys and a 200-deep schema in seconds, polluting nothing', () => {
    const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort()
    const manifest: unknown = JSON.parse(hostileManifestText())

    const started = performance.now()
    const report = lintManifest(manifest)
    const elapsed = performance.now() - started

    expect(report.tools).toBe(5005)
    // Half the tools share one description: each is reported once, not once per pair.
    const overlaps = report.findings.filter((f) => f.rule === 'description-overlap')
    expect(overlaps.length).toBeLessThan(5005)
    expect(report.findings.some((f) => f.rule === 'field-description-missing')).toBe(true)
    // A generous bound for a slow CI machine: a quadratic pass over 5,000 tools takes far longer.
    expect(elapsed).toBeLessThan(10_000)
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.getPrototypeOf(manifest)).toBe(Object.prototype)
  }, 60_000)
})
