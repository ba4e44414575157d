import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createToolmark } from '../../src/index'
import type { ErrorEvent } from '../../src/index'
import { createFormTools, fileFields } from '../../src/forms'
import { memoryForm } from './memoryForm'

const schema = z.object({ title: z.string(), attachment: z.any() })
const defaults = () => ({ title: '', attachment: null as unknown })
const png = (name = 'screen.png') =>
  new File([new Uint8Array(10)], name, { type: 'image/png', lastModified: 1 })

describe('fileFields', () => {
  it('returns a frozen copy: the object, the map, each field’s rules and its accept list', () => {
    const accept = ['image/png']
    const declared: Record<string, { accept: string[]; maxBytes?: number }> = {
      attachment: { accept },
    }

    const files = fileFields(declared)
    accept.push('.exe')
    declared.attachment.maxBytes = 1
    declared.other = { accept: [] }

    expect(Object.isFrozen(files)).toBe(true)
    expect(Object.isFrozen(files.rules)).toBe(true)
    expect(Object.isFrozen(files.rules.attachment)).toBe(true)
    expect(Object.isFrozen(files.rules.attachment.accept)).toBe(true)
    expect(files.kind).toBe('fileFields')
    expect(files.rules).toEqual({ attachment: { accept: ['image/png'] } })
  })
})

describe('a form with file fields', () => {
  it('fills a declared file field from a { ref } the app resolves', async () => {
    const shot = png()
    const tm = createToolmark({
      files: { resolve: (ref) => (ref === 'paste-1' ? shot : undefined) },
    })
    const form = memoryForm(defaults())
    createFormTools(tm, form.adapter, {
      name: 'ticket',
      description: 'The new-ticket form.',
      schema,
      files: fileFields({ attachment: { accept: 'image/*' } }),
    })

    const filled = await tm.call('ticket.fill', { values: { attachment: { ref: 'paste-1' } } })

    expect(filled).toMatchObject({ status: 'ok' })
    expect(form.values.attachment).toBe(shot)
  })

  it('without fileFields, takes no { ref } and still shows a file value by its size and type', async () => {
    const tm = createToolmark({ files: { resolve: () => png() } })
    const form = memoryForm({ title: 'Printer', attachment: png('held.png') as unknown })
    createFormTools(tm, form.adapter, {
      name: 'ticket',
      description: 'The new-ticket form.',
      schema,
    })

    const fillSchema = tm.describe('ticket.fill')!.inputSchema as {
      properties: { values: { properties: Record<string, unknown> } }
    }
    const state = await tm.call('ticket.state', {})

    expect(JSON.stringify(fillSchema.properties.values.properties.attachment ?? {})).not.toMatch(
      /ref/,
    )
    expect(state).toMatchObject({
      status: 'ok',
      data: {
        values: { attachment: { file: { size: 10, type: 'image/png' } } },
      },
    })
  })
})

describe('file rules not made by fileFields()', () => {
  it('throws with the fix in development for a plain object', () => {
    const tm = createToolmark({ dev: true })
    const form = memoryForm(defaults())

    expect(() =>
      createFormTools(tm, form.adapter, {
        name: 'ticket',
        description: 'The new-ticket form.',
        schema,
        files: { attachment: { accept: 'image/*' } } as never,
      }),
    ).toThrow(
      `[toolmark] createFormTools("ticket"): files must come from fileFields({ field: rules }) (import { fileFields } from '@toolmark/core/forms')`,
    )
    expect(tm.manifest().tools).toEqual([])
  })

  it('reports invalid_form and registers nothing when the registry is not in development', () => {
    const tm = createToolmark({ dev: false })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    const form = memoryForm(defaults())

    createFormTools(tm, form.adapter, {
      name: 'ticket',
      description: 'The new-ticket form.',
      schema,
      files: { attachment: { accept: 'image/*' } } as never,
    })

    expect(errors).toEqual([
      expect.objectContaining({
        code: 'invalid_form',
        message: expect.stringMatching(/^createFormTools\("ticket"\): files must come from/),
      }),
    ])
    expect(tm.manifest().tools).toEqual([])
  })

  it('says what fileFields() takes when given something else', () => {
    const tm = createToolmark({ dev: true })
    const form = memoryForm(defaults())

    expect(() =>
      createFormTools(tm, form.adapter, {
        name: 'ticket',
        description: 'The new-ticket form.',
        schema,
        files: fileFields('attachment' as never),
      }),
    ).toThrow(/fileFields\(\) takes an object that maps field paths to rules/)
  })
})
