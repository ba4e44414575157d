import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createToolmark } from '../../src/index'
import type { ErrorEvent } from '../../src/index'
import { createFormTools, createWizardTools, formSteps, optionLookups } from '../../src/forms'
import { memoryForm } from './memoryForm'

const schema = z.object({
  email: z.string(),
  manager: z.string(),
  reason: z.string().min(5, 'Say why, in a few words'),
})
const defaults = () => ({ email: '', manager: '', reason: '' })

describe('formSteps', () => {
  it('returns a frozen copy: the object, the list, each step and its fields', () => {
    const declared = [
      { id: 'who', title: 'Who', fields: ['email', 'manager'] },
      { id: 'why', fields: ['reason'] },
    ]

    const steps = formSteps(declared)
    declared[0].fields.push('reason')
    declared.push({ id: 'late', fields: ['email'] })

    expect(Object.isFrozen(steps)).toBe(true)
    expect(Object.isFrozen(steps.steps)).toBe(true)
    expect(Object.isFrozen(steps.steps[0])).toBe(true)
    expect(Object.isFrozen(steps.steps[0].fields)).toBe(true)
    expect(steps.kind).toBe('formSteps')
    expect(steps.steps).toEqual([
      { id: 'who', title: 'Who', fields: ['email', 'manager'] },
      { id: 'why', fields: ['reason'] },
    ])
  })
})

describe('optionLookups', () => {
  it('returns a frozen copy of the map of lookups', () => {
    const people = () => [{ value: 'u1', title: 'Ana' }]
    const declared: Record<string, typeof people> = { manager: people }

    const lookups = optionLookups(declared)
    declared.email = people

    expect(Object.isFrozen(lookups)).toBe(true)
    expect(Object.isFrozen(lookups.lookups)).toBe(true)
    expect(lookups.kind).toBe('optionLookups')
    expect(lookups.lookups).toEqual({ manager: people })
  })
})

describe('a form with both steps and lookups', () => {
  it('fills every step at once and looks up a field’s options at its step path', async () => {
    const tm = createToolmark()
    const form = memoryForm(defaults())
    const onStepChange = vi.fn()
    const lookup = vi.fn(() => [{ value: 'u1', title: 'Ana' }])
    const tools = createFormTools(tm, form.adapter, {
      name: 'access',
      description: 'The access-request wizard.',
      schema,
      steps: formSteps([
        { id: 'who', fields: ['email', 'manager'] },
        { id: 'why', fields: ['reason'] },
      ]),
      options: optionLookups({ manager: lookup }),
      onStepChange,
    })

    const found = await tm.call('access.options', { field: 'who.manager', query: 'an' })
    const filled = await tm.call('access.fill', {
      values: { who: { email: 'ana@example.com', manager: 'u1' }, why: { reason: 'Audit' } },
    })

    expect(tools.names).toEqual({
      fill: 'access.fill',
      submit: 'access.submit',
      state: 'access.state',
      options: 'access.options',
    })
    expect(found).toEqual({
      status: 'ok',
      data: { field: 'who.manager', options: [{ value: 'u1', title: 'Ana' }], more: false },
    })
    expect(lookup).toHaveBeenCalledWith(expect.objectContaining({ query: 'an' }))
    expect(filled).toMatchObject({ status: 'ok' })
    expect(form.values).toEqual({ email: 'ana@example.com', manager: 'u1', reason: 'Audit' })
    expect(onStepChange).toHaveBeenLastCalledWith('why')
  })

  it('serves neither a wizard nor lookups without them', () => {
    const tm = createToolmark()
    const form = memoryForm(defaults())

    const tools = createFormTools(tm, form.adapter, {
      name: 'access',
      description: 'The access request.',
      schema,
    })

    expect(tools.names.options).toBeUndefined()
    expect(tm.describe('access.fill')?.description).not.toMatch(/All steps at once/)
  })
})

describe('steps and lookups not made by formSteps() and optionLookups()', () => {
  it('throws with the fix in development for a plain list of steps', () => {
    const tm = createToolmark({ dev: true })
    const form = memoryForm(defaults())

    expect(() =>
      createFormTools(tm, form.adapter, {
        name: 'access',
        description: 'The access-request wizard.',
        schema,
        steps: [{ id: 'all', fields: ['email', 'manager', 'reason'] }] as never,
      }),
    ).toThrow(
      `[toolmark] createFormTools("access"): steps must come from formSteps([...]) (import { formSteps } from '@toolmark/core/forms')`,
    )
    expect(tm.manifest().tools).toEqual([])
  })

  it('throws with the fix in development for a plain object of lookups', () => {
    const tm = createToolmark({ dev: true })
    const form = memoryForm(defaults())

    expect(() =>
      createFormTools(tm, form.adapter, {
        name: 'access',
        description: 'The access request.',
        schema,
        options: { manager: () => [] } as never,
      }),
    ).toThrow(
      `[toolmark] createFormTools("access"): options must come from optionLookups({ field: lookup }) (import { optionLookups } from '@toolmark/core/forms')`,
    )
    expect(tm.manifest().tools).toEqual([])
  })

  it('throws with the fix in development for a wizard step’s plain object of lookups', () => {
    const tm = createToolmark({ dev: true })
    const why = memoryForm({ reason: '' })

    expect(() =>
      createWizardTools(tm, {
        name: 'access',
        description: 'The access-request wizard.',
        steps: [
          {
            id: 'why',
            adapter: why.adapter,
            schema: z.object({ reason: z.string() }),
            options: { reason: () => [] } as never,
          },
        ],
        onSubmit: () => null,
      }),
    ).toThrow(/step "why": options must come from optionLookups\(\{ field: lookup \}\)/)
  })

  it('reports invalid_form and registers nothing when the registry is not in development', () => {
    const tm = createToolmark({ dev: false })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    const form = memoryForm(defaults())

    const tools = createFormTools(tm, form.adapter, {
      name: 'access',
      description: 'The access request.',
      schema,
      steps: [{ id: 'all', fields: ['email', 'manager', 'reason'] }] as never,
      options: { manager: () => [] } as never,
    })

    expect(errors).toEqual([
      expect.objectContaining({
        code: 'invalid_form',
        message: expect.stringMatching(/^createFormTools\("access"\): options must come from/),
      }),
    ])
    expect(tm.manifest().tools).toEqual([])
    expect(tools.names.options).toBeUndefined()
  })

  it('says what formSteps() and optionLookups() take when given something else', () => {
    const tm = createToolmark({ dev: true })
    const form = memoryForm(defaults())
    const make = (options: object) => () =>
      createFormTools(tm, form.adapter, {
        name: 'access',
        description: 'The access request.',
        schema,
        ...options,
      })

    expect(make({ steps: formSteps('who' as never) })).toThrow(
      /formSteps\(\) takes a list of \{ id, title\?, fields \}/,
    )
    expect(make({ options: optionLookups(null as never) })).toThrow(
      /optionLookups\(\) takes an object that maps field paths to lookup functions/,
    )
  })
})
