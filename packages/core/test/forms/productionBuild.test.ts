import { z } from 'zod'
import { createToolmark, type ErrorEvent, type Toolmark } from '../../src/index'
import {
  createFormTools,
  createWizardTools,
  fileFields,
  formSteps,
  optionLookups,
} from '../../src/forms'
import { memoryForm } from './memoryForm'

// In a production build (`process.env.NODE_ENV` reads 'production') a misconfigured form still
// reports invalid_form and registers nothing; the message is a short phrase instead of the fix.

beforeEach(() => {
  vi.stubEnv('NODE_ENV', 'production')
})
afterEach(() => {
  vi.unstubAllEnvs()
})

const listen = (tm: Toolmark) => {
  const errors: ErrorEvent[] = []
  tm.events.on('error', (e) => errors.push(e))
  return errors
}

const schema = z.object({ title: z.string(), tags: z.array(z.string()) })

describe('a misconfigured form in a production build', () => {
  const cases: Array<[string, (form: ReturnType<typeof memoryForm>) => object, string]> = [
    ['no name', () => ({ description: 'A ticket.', schema }), 'createFormTools(""): name'],
    [
      'no description',
      () => ({ name: 'ticket', schema }),
      'createFormTools("ticket"): description',
    ],
    [
      'a schema that is not a Standard Schema',
      () => ({ name: 'ticket', description: 'A ticket.', schema: {} }),
      'createFormTools("ticket"): schema',
    ],
    [
      'sensitive paths that are not a list',
      () => ({ name: 'ticket', description: 'A ticket.', schema, sensitive: 'title' }),
      'createFormTools("ticket"): sensitive',
    ],
    [
      'a lookup that is not a function',
      () => ({
        name: 'ticket',
        description: 'A ticket.',
        schema,
        options: optionLookups({ title: 1 } as never),
      }),
      'createFormTools("ticket"): lookup: title',
    ],
    [
      'lookups in a plain object, not from optionLookups()',
      () => ({ name: 'ticket', description: 'A ticket.', schema, options: { title: () => [] } }),
      'createFormTools("ticket"): plain lookups',
    ],
    [
      'file rules in a plain object, not from fileFields()',
      () => ({ name: 'ticket', description: 'A ticket.', schema, files: { title: {} } }),
      'createFormTools("ticket"): plain files',
    ],
    [
      'file rules for a field the schema does not have',
      () => ({ name: 'ticket', description: 'A ticket.', schema, files: fileFields({ nope: {} }) }),
      'createFormTools("ticket"): file field: nope',
    ],
    [
      'steps in a plain list, not from formSteps()',
      () => ({
        name: 'ticket',
        description: 'A ticket.',
        schema,
        steps: [{ id: 'one', fields: ['title', 'tags'] }],
      }),
      'createFormTools("ticket"): plain steps',
    ],
    [
      'a step listing an unknown field',
      () => ({
        name: 'ticket',
        description: 'A ticket.',
        schema,
        steps: formSteps([{ id: 'one', fields: ['title', 'nope'] }]),
      }),
      'createFormTools("ticket"): step field: one, "nope"',
    ],
    [
      'a field no step shows',
      () => ({
        name: 'ticket',
        description: 'A ticket.',
        schema,
        steps: formSteps([{ id: 'one', fields: ['title'] }]),
      }),
      'createFormTools("ticket"): unshown fields: "tags"',
    ],
  ]
  for (const [label, options, message] of cases) {
    it(`reports ${label} as invalid_form and registers nothing`, () => {
      const tm = createToolmark()
      const errors = listen(tm)
      const form = memoryForm({ title: '', tags: [] })
      createFormTools(tm, form.adapter, options(form) as never)
      expect(errors).toEqual([{ code: 'invalid_form', message }])
      expect(tm.manifest().tools).toEqual([])
    })
  }

  it('names the adapter method that is missing', () => {
    const tm = createToolmark()
    const errors = listen(tm)
    const form = memoryForm({ title: '', tags: [] })
    createFormTools(tm, { ...form.adapter, submit: undefined } as never, {
      name: 'ticket',
      description: 'A ticket.',
      schema,
    })
    expect(errors).toEqual([
      { code: 'invalid_form', message: 'createFormTools("ticket"): adapter: submit' },
    ])
  })

  it('reports a wizard step without a schema as invalid_form', () => {
    const tm = createToolmark()
    const errors = listen(tm)
    const form = memoryForm({ why: '' })
    createWizardTools(tm, {
      name: 'access',
      description: 'Access.',
      onSubmit: () => ({ ok: true, data: null }),
      steps: [{ id: 'why', adapter: form.adapter, schema: undefined as never }],
    } as never)
    expect(errors).toEqual([
      { code: 'invalid_form', message: 'createWizardTools("access"): step schema: why' },
    ])
    expect(tm.manifest().tools).toEqual([])
  })

  it('reports a wizard step whose lookups are a plain object as invalid_form', () => {
    const tm = createToolmark()
    const errors = listen(tm)
    const form = memoryForm({ why: '' })
    createWizardTools(tm, {
      name: 'access',
      description: 'Access.',
      onSubmit: () => null,
      steps: [
        {
          id: 'why',
          adapter: form.adapter,
          schema: z.object({ why: z.string() }),
          options: { why: () => [] } as never,
        },
      ],
    })
    expect(errors).toEqual([
      { code: 'invalid_form', message: 'createWizardTools("access"): step plain lookups: why' },
    ])
    expect(tm.manifest().tools).toEqual([])
  })

  it('throws the short message when the registry is put in development mode', () => {
    const tm = createToolmark({ dev: true })
    const form = memoryForm({ title: '', tags: [] })
    expect(() => createFormTools(tm, form.adapter, { name: 'ticket', schema } as never)).toThrow(
      '[toolmark] createFormTools("ticket"): description',
    )
  })
})
