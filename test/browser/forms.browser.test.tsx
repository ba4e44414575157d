import { StrictMode } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { render } from 'vitest-browser-react'
import { page, userEvent } from 'vitest/browser'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from 'zod'
import { createToolmark, REDACTED } from '@toolmark/core'
import type { Toolmark } from '@toolmark/core'
import { formSteps } from '@toolmark/core/forms'
import { ConfirmDialog, ToolProvider } from '@toolmark/react'
import { useFormTool } from '@toolmark/react/rhf'

const schema = z.object({
  title: z.string().min(1),
  description: z.string(),
  email: z.string(),
  password: z.string(),
  cardNumber: z.string(),
})
type Values = z.infer<typeof schema>

function SignupForm({ onSubmit }: { onSubmit: (values: Values) => unknown }) {
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { title: '', description: '', email: '', password: '', cardNumber: '' },
  })
  useFormTool(form, {
    name: 'signup',
    title: 'Sign up',
    description: 'The sign-up form.',
    schema,
    onSubmit,
  })
  return (
    <form onSubmit={form.handleSubmit(onSubmit)}>
      <label>
        Title <input {...form.register('title')} />
      </label>
      <label>
        Description <textarea {...form.register('description')} />
      </label>
      <label>
        Email <input type="email" {...form.register('email')} />
      </label>
      <label>
        Password{' '}
        <input type="password" autoComplete="new-password" {...form.register('password')} />
      </label>
      <label>
        Card number <input autoComplete="cc-number" {...form.register('cardNumber')} />
      </label>
    </form>
  )
}

async function setup(onSubmit: (values: Values) => unknown = () => ({ ok: true })) {
  const tm = createToolmark()
  const ids: string[] = []
  tm.events.on('result', (e) => ids.push(e.callId))
  await render(
    <StrictMode>
      <ToolProvider toolmark={tm}>
        <SignupForm onSubmit={onSubmit} />
        <ConfirmDialog />
      </ToolProvider>
    </StrictMode>,
  )
  await expect.poll(() => tm.manifest().tools.length).toBe(3)
  return { tm, lastCallId: () => ids[ids.length - 1] }
}

const field = (name: string) => page.getByLabelText(name, { exact: true })
const fill = (tm: Toolmark, values: Record<string, unknown>, overwrite?: boolean) =>
  tm.call('signup.fill', { values, ...(overwrite ? { overwrite } : {}) }, { caller: 'webmcp' })

describe('useFormTool in Chromium', () => {
  it('skips a field a person typed into, and rewrites it with overwrite', async () => {
    const { tm } = await setup()
    await userEvent.type(field('Title'), 'Written by a person')

    const skipped = await fill(tm, { title: 'From the agent', description: 'Details' })

    expect(skipped).toEqual({
      status: 'ok',
      data: {
        changes: [{ path: 'description', after: 'Details' }],
        skipped: [{ path: 'title', reason: 'user_edited' }],
      },
    })
    await expect.element(field('Title')).toHaveValue('Written by a person')
    await expect.element(field('Description')).toHaveValue('Details')

    const overwritten = await fill(tm, { title: 'From the agent' }, true)

    expect(overwritten).toMatchObject({
      status: 'ok',
      data: {
        changes: [{ path: 'title', before: 'Written by a person', after: 'From the agent' }],
      },
    })
    await expect.element(field('Title')).toHaveValue('From the agent')
  })

  it('counts a field a person only tabbed through as not edited', async () => {
    const { tm } = await setup()
    await userEvent.click(field('Title'))
    await userEvent.tab()

    const result = await fill(tm, { title: 'From the agent' })

    expect(result).toMatchObject({ status: 'ok', data: { skipped: [] } })
    await expect.element(field('Title')).toHaveValue('From the agent')
  })

  it('lets the agent rewrite its own value, but not one a person changed after it', async () => {
    const { tm } = await setup()
    await fill(tm, { title: 'Draft' })
    expect(await fill(tm, { title: 'Better draft' })).toMatchObject({ data: { skipped: [] } })
    await userEvent.type(field('Title'), '!')

    const result = await fill(tm, { title: 'Agent again' })

    expect(result).toMatchObject({ data: { skipped: [{ path: 'title', reason: 'user_edited' }] } })
    await expect.element(field('Title')).toHaveValue('Better draft!')
  })

  it('undoes a fill but keeps what a person typed after it', async () => {
    const { tm, lastCallId } = await setup()
    await fill(tm, { title: 'Agent title', description: 'Agent details' })
    const fillId = lastCallId()
    await userEvent.clear(field('Title'))
    await userEvent.type(field('Title'), 'My title')

    const undone = await tm.undo(fillId)

    expect(undone).toEqual({
      status: 'ok',
      data: {
        changes: [{ path: 'description', before: 'Agent details' }],
        skipped: [{ path: 'title', reason: 'user_edited' }],
      },
    })
    await expect.element(field('Title')).toHaveValue('My title')
    await expect.element(field('Description')).toHaveValue('')
  })

  it('finds the password and card inputs and masks them, the real values reach the form', async () => {
    const onSubmit = vi.fn(() => ({ id: 'u1' }))
    const { tm } = await setup(onSubmit)

    const result = await fill(tm, {
      title: 'Ada',
      email: 'ada@example.com',
      password: 'correct horse',
      cardNumber: '4111111111111111',
    })

    expect(result).toEqual({
      status: 'ok',
      data: {
        changes: [
          { path: 'cardNumber', after: REDACTED },
          { path: 'email', after: 'ada@example.com' },
          { path: 'password', after: REDACTED },
          { path: 'title', after: 'Ada' },
        ],
        skipped: [],
      },
    })
    await expect.element(field('Password')).toHaveValue('correct horse')

    const submitted = tm.call('signup.submit', {}, { caller: 'webmcp' })
    const dialog = page.getByRole('alertdialog', { name: 'Sign up' })
    await expect.element(dialog).toBeVisible()
    expect(dialog.element().textContent).not.toContain('correct horse')
    expect(dialog.element().textContent).not.toContain('4111111111111111')
    await expect.element(dialog).toHaveTextContent('ada@example.com')
    await userEvent.click(page.getByRole('button', { name: 'Approve', exact: true }))

    expect(await submitted).toEqual({ status: 'ok', data: { id: 'u1' } })
    expect(onSubmit).toHaveBeenCalledTimes(1)
    expect(onSubmit.mock.calls[0]).toEqual([
      expect.objectContaining({ password: 'correct horse', cardNumber: '4111111111111111' }),
    ])
  })

  it('refuses a submit approved after the form changed under the dialog', async () => {
    const onSubmit = vi.fn()
    const { tm } = await setup(onSubmit)
    await fill(tm, { title: 'Ada' })
    const asked = await tm.call('signup.submit', {}, { caller: 'inapp' })
    expect(asked).toMatchObject({
      status: 'needs_confirmation',
      changes: [{ path: 'title', after: 'Ada' }],
    })
    await expect.element(page.getByRole('alertdialog', { name: 'Sign up' })).toBeVisible()

    // The agent changes the form while the person reads the dialog.
    await fill(tm, { description: 'Added after asking' })
    await userEvent.click(page.getByRole('button', { name: 'Approve', exact: true }))

    await expect.element(page.getByRole('alertdialog')).toHaveTextContent('The action was refused')
    expect(onSubmit).not.toHaveBeenCalled()
  })
})

const accessSchema = z.object({
  email: z.email('Enter an email address'),
  name: z.string().min(1, 'Enter a name'),
  system: z.string().min(1, 'Name the system'),
  reason: z.string().min(5, 'Say why, in a few words'),
})
type Access = z.infer<typeof accessSchema>

/** A three-step wizard over one useForm: only the visible step's inputs are in the page. */
function AccessWizard({ onSubmit }: { onSubmit: (values: Access) => unknown }) {
  const form = useForm<Access>({
    resolver: zodResolver(accessSchema),
    defaultValues: { email: '', name: '', system: '', reason: '' },
  })
  const { step, setStep } = useFormTool(form, {
    name: 'access',
    title: 'Request access',
    description: 'The access-request wizard.',
    schema: accessSchema,
    onSubmit,
    steps: formSteps([
      { id: 'who', title: 'Who', fields: ['email', 'name'] },
      { id: 'system', title: 'System', fields: ['system'] },
      { id: 'why', title: 'Why', fields: ['reason'] },
    ]),
  })
  const order = ['who', 'system', 'why']
  const next = order[order.indexOf(step!) + 1]
  const previous = order[order.indexOf(step!) - 1]
  return (
    <form onSubmit={form.handleSubmit(onSubmit)} aria-label={`Step ${step}`}>
      {step === 'who' && (
        <>
          <label>
            Email <input type="email" {...form.register('email')} />
          </label>
          <label>
            Name <input {...form.register('name')} />
          </label>
        </>
      )}
      {step === 'system' && (
        <label>
          System <input {...form.register('system')} />
        </label>
      )}
      {step === 'why' && (
        <label>
          Reason <textarea {...form.register('reason')} />
        </label>
      )}
      {previous && (
        <button type="button" onClick={() => setStep(previous)}>
          Back
        </button>
      )}
      {next && (
        <button type="button" onClick={() => setStep(next)}>
          Next
        </button>
      )}
    </form>
  )
}

async function setupWizard(onSubmit: (values: Access) => unknown = () => ({ id: 1 })) {
  const tm = createToolmark()
  await render(
    <StrictMode>
      <ToolProvider toolmark={tm}>
        <AccessWizard onSubmit={onSubmit} />
        <ConfirmDialog />
      </ToolProvider>
    </StrictMode>,
  )
  await expect.poll(() => tm.manifest().tools.length).toBe(3)
  return { tm }
}

describe('a wizard in Chromium', () => {
  it('skips what a person typed on an earlier step and follows the fill to the next open step', async () => {
    const { tm } = await setupWizard()
    await userEvent.type(field('Name'), 'Ana Souza')
    await userEvent.click(page.getByRole('button', { name: 'Next' }))
    await expect.element(page.getByRole('form', { name: 'Step system' })).toBeVisible()

    const result = await tm.call(
      'access.fill',
      {
        values: {
          who: { email: 'ana@example.com', name: 'Ana' },
          system: { system: 'VPN' },
        },
      },
      { caller: 'webmcp' },
    )

    expect(result).toEqual({
      status: 'ok',
      data: {
        changes: [
          { path: 'system.system', after: 'VPN' },
          { path: 'who.email', after: 'ana@example.com' },
        ],
        skipped: [{ path: 'who.name', reason: 'user_edited' }],
      },
    })
    // "why" is the first step with an issue: the wizard shows it.
    await expect.element(page.getByRole('form', { name: 'Step why' })).toBeVisible()

    // An invalid fill writes nothing and leaves the person where they are.
    const invalid = await tm.call(
      'access.fill',
      { values: { why: { reason: 'x' } } },
      { caller: 'webmcp' },
    )
    expect(invalid).toMatchObject({ status: 'invalid' })
    await expect.element(page.getByRole('form', { name: 'Step why' })).toBeVisible()

    // Going back shows what the agent wrote beside what the person typed.
    await userEvent.click(page.getByRole('button', { name: 'Back' }))
    await expect.element(field('System')).toHaveValue('VPN')
    await userEvent.click(page.getByRole('button', { name: 'Back' }))
    await expect.element(field('Email')).toHaveValue('ana@example.com')
    await expect.element(field('Name')).toHaveValue('Ana Souza')
  })

  it('shows each step the agent moves to, with the values it wrote', async () => {
    const { tm } = await setupWizard()

    await tm.call(
      'access.fill',
      { values: { system: { system: 'VPN' }, why: { reason: 'On call this week' } } },
      { caller: 'webmcp' },
    )
    await expect.element(page.getByRole('form', { name: 'Step who' })).toBeVisible()

    await tm.call(
      'access.fill',
      { values: { who: { email: 'ana@example.com', name: 'Ana' } } },
      { caller: 'webmcp' },
    )
    await expect.element(page.getByRole('form', { name: 'Step why' })).toBeVisible()
    await expect.element(field('Reason')).toHaveValue('On call this week')
  })

  it('confirms every step in the dialog and submits the whole form', async () => {
    const onSubmit = vi.fn(() => ({ id: 12 }))
    const { tm } = await setupWizard(onSubmit)
    await tm.call(
      'access.fill',
      {
        values: {
          who: { email: 'ana@example.com', name: 'Ana' },
          system: { system: 'VPN' },
          why: { reason: 'On call this week' },
        },
      },
      { caller: 'webmcp' },
    )

    const submitted = tm.call('access.submit', {}, { caller: 'webmcp' })
    const dialog = page.getByRole('alertdialog', { name: 'Request access' })
    await expect.element(dialog).toBeVisible()
    await userEvent.click(page.getByRole('button', { name: 'Approve', exact: true }))

    expect(await submitted).toEqual({ status: 'ok', data: { id: 12 } })
    expect(onSubmit.mock.calls[0]).toEqual([
      {
        email: 'ana@example.com',
        name: 'Ana',
        system: 'VPN',
        reason: 'On call this week',
      },
    ])
  })
})
