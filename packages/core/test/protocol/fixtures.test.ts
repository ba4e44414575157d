import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import Ajv2020 from 'ajv/dist/2020'
import type { ValidateFunction } from 'ajv'
import { describe, expect, it } from 'vitest'
import { directionSchemas, messageSchemas, validateMessage } from '@toolmark/core/protocol'
import { emitProtocolSchemas } from '../../scripts/emit-protocol-schemas.mjs'

interface Fixture {
  file: string
  description: string
  direction: 'toPage' | 'toAgent'
  valid: boolean
  message: unknown
}

const here = path.dirname(fileURLToPath(import.meta.url))
const fixtureDir = path.join(here, 'fixtures')
const fixtures: Fixture[] = readdirSync(fixtureDir)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => ({ file, ...JSON.parse(readFileSync(path.join(fixtureDir, file), 'utf8')) }))

// The schemas as the build emits them: written to disk by the build script, read back as JSON.
const outDir = mkdtempSync(path.join(tmpdir(), 'toolmark-protocol-'))
const written = await emitProtocolSchemas({ messageSchemas, directionSchemas }, outDir)
const emitted = Object.fromEntries(
  written.map((file) => [path.basename(file, '.json'), JSON.parse(readFileSync(file, 'utf8'))]),
)

// An independent validator (Ajv, draft 2020-12, strict mode: unknown keywords are errors).
const ajv = new Ajv2020({ strict: true, allErrors: false })
const compiled: Record<string, ValidateFunction> = Object.fromEntries(
  Object.entries(emitted).map(([name, schema]) => [name, ajv.compile(schema)]),
)
const bySchema = (direction: Fixture['direction']) =>
  compiled[direction === 'toPage' ? 'to-page' : 'to-agent']

describe('protocol fixtures', () => {
  it('has at least 30 fixtures, valid and invalid, in both directions', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(30)
    for (const direction of ['toPage', 'toAgent'] as const) {
      expect(fixtures.some((f) => f.direction === direction && f.valid)).toBe(true)
      expect(fixtures.some((f) => f.direction === direction && !f.valid)).toBe(true)
    }
    for (const f of fixtures)
      expect(f.file.endsWith(f.valid ? '.valid.json' : '.invalid.json')).toBe(true)
  })

  it('emits one schema per message type and one per direction', () => {
    expect(Object.keys(emitted).sort()).toEqual(
      [
        'call',
        'cancel',
        'confirmed',
        'describe',
        'hello',
        'manifest',
        'progress',
        'result',
        'to-agent',
        'to-page',
      ].sort(),
    )
    expect(emitted.call).toEqual(messageSchemas.call)
    expect(emitted['to-page']).toEqual(directionSchemas.toPage)
  })

  describe.each(fixtures)('$file ($description)', (fixture) => {
    it(`validateMessage says ${fixture.valid ? 'valid' : 'invalid'}`, () => {
      const check = validateMessage(fixture.message, fixture.direction)
      expect(check.ok, JSON.stringify(check)).toBe(fixture.valid)
    })

    it(`the emitted direction schema says ${fixture.valid ? 'valid' : 'invalid'}`, () => {
      const validate = bySchema(fixture.direction)
      expect(validate(fixture.message), JSON.stringify(validate.errors)).toBe(fixture.valid)
    })

    if (fixture.valid) {
      it("the emitted schema of the message's own type accepts it", () => {
        const type = (fixture.message as { type: string }).type
        expect(compiled[type](fixture.message)).toBe(true)
      })
    }
  })
})
