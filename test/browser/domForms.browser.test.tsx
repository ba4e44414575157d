import { StrictMode, useRef, useState } from 'react'
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest'
import { render } from 'vitest-browser-react'
import { page, userEvent } from 'vitest/browser'
import { Field, Form, Formik } from 'formik'
import { createToolmark, REDACTED, type Toolmark } from '@toolmark/core'
import { createDomFormTools, fileFields } from '@toolmark/core/forms'
import { webmcp } from '@toolmark/core/webmcp'
import { ConfirmDialog, ToolProvider, useDomFormTool } from '@toolmark/react'

const field = (name: string) => page.getByLabelText(name, { exact: true })

/** A plain, uncontrolled form, as a server-rendered page would have it. */
function plainForm(): HTMLFormElement {
  const form = document.createElement('form')
  form.innerHTML = `
    <label>Title <input name="title" required maxlength="40" /></label>
    <label>Email <input name="email" type="email" /></label>
    <label>Seats <input name="seats" type="number" min="1" max="9" /></label>
    <label>Code <input name="code" pattern="[A-Z]{3}" /></label>
    <label>Password <input name="password" type="password" /></label>
    <label>Team <select name="team"><option value="">Choose…</option><option value="ops">Operations</option><option value="dev">Development</option></select></label>
    <fieldset><legend>Priority</legend>
      <label><input type="radio" name="priority" value="low" checked /> Low</label>
      <label><input type="radio" name="priority" value="high" /> High</label>
    </fieldset>
    <label><input type="checkbox" name="urgent" /> Urgent</label>
    <label>Receipt <input type="file" name="receipt" accept="image/*" /></label>
    <input type="hidden" name="csrf" value="secret-token" />
    <label>Legacy <input name="legacy" disabled /></label>
    <div data-tool-ignore><label>Internal <input name="internal" /></label></div>
    <button type="submit">Send</button>`
  form.addEventListener('submit', (e) => e.preventDefault())
  document.body.append(form)
  return form
}

const forms: HTMLFormElement[] = []
afterEach(() => {
  for (const form of forms.splice(0)) form.remove()
})

describe('createDomFormTools on a plain form in Chromium', () => {
  it('synthesizes the schema from the controls, leaving out hidden, disabled and ignored ones', () => {
    const tm = createToolmark()
    const form = plainForm()
    forms.push(form)
    createDomFormTools(tm, form, {
      name: 'order',
      description: 'The order form.',
      files: fileFields({}),
    })

    const values = (tm.describe('order.fill')!.inputSchema as any).properties.values
    expect(Object.keys(values.properties).sort()).toEqual([
      'code',
      'email',
      'password',
      'priority',
      'receipt',
      'seats',
      'team',
      'title',
      'urgent',
    ])
    expect(values.properties.title).toEqual({ title: 'Title', type: 'string', maxLength: 40 })
    expect(values.properties.seats).toEqual({
      title: 'Seats',
      type: 'integer',
      minimum: 1,
      maximum: 9,
    })
    expect(values.properties.email).toMatchObject({ type: 'string', format: 'email' })
    expect(values.properties.team).toEqual({
      title: 'Team',
      oneOf: [
        { const: 'ops', title: 'Operations' },
        { const: 'dev', title: 'Development' },
      ],
    })
    expect(values.properties.priority).toEqual({
      title: 'Priority',
      oneOf: [
        { const: 'low', title: 'Low' },
        { const: 'high', title: 'High' },
      ],
    })
    expect(values.properties.urgent).toEqual({ title: 'Urgent', type: 'boolean' })
    expect(values.properties.receipt).toMatchObject({ description: 'A file (types image/*).' })
  })

  it('fills, masks the password, skips what a person typed, and undoes', async () => {
    const tm = createToolmark()
    const form = plainForm()
    forms.push(form)
    createDomFormTools(tm, form, { name: 'order', description: 'The order form.' })
    const ids: string[] = []
    tm.events.on('result', (e) => ids.push(e.callId))
    const heard = vi.fn()
    form.addEventListener('change', heard)

    await userEvent.type(field('Email'), 'me@person.example')
    const result = await tm.call('order.fill', {
      values: {
        title: 'Laptops',
        email: 'agent@example.com',
        seats: 3,
        password: 'hunter2',
        team: 'dev',
        priority: 'high',
        urgent: true,
      },
    })

    expect(result).toEqual({
      status: 'ok',
      data: {
        changes: [
          { path: 'password', after: REDACTED },
          { path: 'priority', before: 'low', after: 'high' },
          { path: 'seats', after: 3 },
          { path: 'team', after: 'dev' },
          { path: 'title', after: 'Laptops' },
          { path: 'urgent', before: false, after: true },
        ],
        skipped: [{ path: 'email', reason: 'user_edited' }],
      },
    })
    await expect.element(field('Title')).toHaveValue('Laptops')
    await expect.element(field('Email')).toHaveValue('me@person.example')
    await expect.element(field('Seats')).toHaveValue(3)
    await expect.element(field('Password')).toHaveValue('hunter2')
    expect((form.elements.namedItem('team') as HTMLSelectElement).value).toBe('dev')
    await expect.element(page.getByLabelText('High')).toBeChecked()
    await expect.element(page.getByLabelText('Urgent')).toBeChecked()
    expect(heard).toHaveBeenCalled()

    const undone = await tm.undo(ids[ids.length - 1])
    expect(undone).toMatchObject({ status: 'ok', data: { skipped: [] } })
    await expect.element(field('Title')).toHaveValue('')
    await expect.element(page.getByLabelText('Low')).toBeChecked()
    await expect.element(page.getByLabelText('Urgent')).not.toBeChecked()
  })

  it('writes nothing when one value breaks a rule the controls declare', async () => {
    const tm = createToolmark()
    const form = plainForm()
    forms.push(form)
    createDomFormTools(tm, form, { name: 'order', description: 'The order form.' })

    const result = await tm.call('order.fill', {
      values: { title: 'Ok', code: 'abcd', seats: 12, team: 'sales' },
    })

    expect(result).toEqual({
      status: 'invalid',
      issues: [
        { path: 'values.code', message: 'Match the requested format' },
        { path: 'values.seats', message: 'Must be 9 or less' },
        { path: 'values.team', message: 'Choose one of: ops, dev' },
      ],
    })
    await expect.element(field('Title')).toHaveValue('')
    const unknown = await tm.call('order.fill', { values: { csrf: 'x', internal: 'y' } })
    expect(unknown).toMatchObject({
      status: 'invalid',
      issues: [
        { path: 'values.csrf', message: 'Not a field of this form' },
        { path: 'values.internal', message: 'Not a field of this form' },
      ],
    })
    expect((form.elements.namedItem('csrf') as HTMLInputElement).value).toBe('secret-token')
  })

  it('attaches a file from a ref to a file input, and refuses one of the wrong type', async () => {
    const screenshot = new File([new Uint8Array([137, 80, 78, 71])], 'shot.png', {
      type: 'image/png',
    })
    const notes = new File(['x'], 'notes.txt', { type: 'text/plain' })
    const tm = createToolmark({
      files: { resolve: (ref) => ({ shot: screenshot, notes })[ref as 'shot' | 'notes'] },
    })
    const form = plainForm()
    forms.push(form)
    createDomFormTools(tm, form, {
      name: 'order',
      description: 'The order form.',
      files: fileFields({}),
    })
    const input = form.elements.namedItem('receipt') as HTMLInputElement

    const rejected = await tm.call('order.fill', {
      values: { title: 'x', receipt: { ref: 'notes' } },
    })
    expect(rejected).toMatchObject({
      status: 'refused',
      code: 'file_rejected',
      message: expect.stringContaining('"receipt" rejected (accept)'),
    })
    expect(input.files).toHaveLength(0)
    expect((form.elements.namedItem('title') as HTMLInputElement).value).toBe('')

    const attached = await tm.call('order.fill', { values: { receipt: { ref: 'shot' } } })
    expect(attached).toEqual({
      status: 'ok',
      data: {
        changes: [
          { path: 'receipt', after: { file: { name: 'shot.png', size: 4, type: 'image/png' } } },
        ],
        skipped: [],
      },
    })
    expect(input.files?.[0]?.name).toBe('shot.png')
  })

  it('without fileFields, leaves file inputs out of the fill and says how to serve them', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const screenshot = new File([new Uint8Array([137, 80, 78, 71])], 'shot.png', {
      type: 'image/png',
    })
    const tm = createToolmark({ files: { resolve: () => screenshot } })
    const form = plainForm()
    forms.push(form)
    createDomFormTools(tm, form, { name: 'order', description: 'The order form.' })
    const input = form.elements.namedItem('receipt') as HTMLInputElement

    const filled = await tm.call('order.fill', { values: { receipt: { ref: 'shot' } } })

    expect(filled).toMatchObject({ status: 'invalid' })
    expect(input.files).toHaveLength(0)
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('agents cannot fill the file inputs named receipt'),
    )
    warn.mockRestore()
  })

  it('refuses a fill once the form left the page, and drops its tools on dispose', async () => {
    const tm = createToolmark()
    const form = plainForm()
    const tools = createDomFormTools(tm, form, { name: 'order', description: 'The order form.' })
    form.remove()
    expect(await tm.call('order.fill', { values: { title: 'x' } })).toMatchObject({
      status: 'refused',
      code: 'stale',
    })
    tools.dispose()
    expect(await tm.call('order.fill', { values: { title: 'x' } })).toMatchObject({
      status: 'refused',
      code: 'unknown_tool',
    })
  })

  it('never writes a readonly control, nor any control once a fieldset around the form is disabled', async () => {
    const tm = createToolmark()
    const wrapper = document.createElement('fieldset')
    const form = document.createElement('form')
    form.innerHTML = `
      <label>Name <input name="name" /></label>
      <label>Account <input name="account" value="A-1" readonly /></label>
      <label>Notes <textarea name="notes" readonly>Kept</textarea></label>
      <label>Plan <select name="plan" readonly><option value="free">Free</option><option value="pro">Pro</option></select></label>
      <label><input type="checkbox" name="terms" readonly /> Terms</label>`
    wrapper.append(form)
    document.body.append(wrapper)
    onTestFinished(() => wrapper.remove())
    createDomFormTools(tm, form, { name: 'profile', description: 'The profile form.' })
    const heard: string[] = []
    form.addEventListener('input', (e) => heard.push((e.target as HTMLInputElement).name))

    const first = await tm.call('profile.fill', {
      values: { name: 'Ana', account: 'A-2', notes: 'Agent', plan: 'pro', terms: true },
      overwrite: true,
    })

    expect(first).toEqual({
      status: 'ok',
      data: {
        changes: [{ path: 'name', after: 'Ana' }],
        skipped: [
          { path: 'account', reason: 'readonly' },
          { path: 'notes', reason: 'readonly' },
          { path: 'plan', reason: 'readonly' },
          { path: 'terms', reason: 'readonly' },
        ],
      },
    })
    await expect.element(field('Name')).toHaveValue('Ana')
    await expect.element(field('Account')).toHaveValue('A-1')
    expect((form.elements.namedItem('notes') as HTMLTextAreaElement).value).toBe('Kept')
    expect((form.elements.namedItem('plan') as HTMLSelectElement).value).toBe('free')
    await expect.element(page.getByLabelText('Terms')).not.toBeChecked()
    expect(heard).toEqual(['name'])

    wrapper.disabled = true
    const second = await tm.call('profile.fill', { values: { name: 'Bo' } })

    expect(second).toEqual({
      status: 'ok',
      data: { changes: [], skipped: [{ path: 'name', reason: 'readonly' }] },
    })
    await expect.element(field('Name')).toHaveValue('Ana')
  })

  it('registers again when a control appears', async () => {
    const tm = createToolmark()
    const form = plainForm()
    forms.push(form)
    createDomFormTools(tm, form, { name: 'order', description: 'The order form.' })
    const extra = document.createElement('label')
    extra.innerHTML = 'Notes <textarea name="notes"></textarea>'
    form.append(extra)

    await expect
      .poll(() =>
        Object.keys((tm.describe('order.fill')!.inputSchema as any).properties.values.properties),
      )
      .toContain('notes')
    expect(await tm.call('order.fill', { values: { notes: 'Hi' } })).toMatchObject({ status: 'ok' })
    expect((form.elements.namedItem('notes') as HTMLTextAreaElement).value).toBe('Hi')
  })
})

/** A form whose inputs React controls with useState, no form library. */
function ControlledSignup({
  onSubmit,
}: {
  onSubmit: (values: Record<string, unknown>) => unknown
}) {
  const ref = useRef<HTMLFormElement>(null)
  const [name, setName] = useState('')
  const [plan, setPlan] = useState('free')
  const [terms, setTerms] = useState(false)
  useDomFormTool(ref, {
    name: 'signup',
    title: 'Sign up',
    description: 'The sign-up form.',
    onSubmit,
  })
  return (
    <form ref={ref}>
      <label>
        Name <input name="name" value={name} onChange={(e) => setName(e.target.value)} required />
      </label>
      <label>
        Plan{' '}
        <select name="plan" value={plan} onChange={(e) => setPlan(e.target.value)}>
          <option value="free">Free</option>
          <option value="pro">Pro</option>
        </select>
      </label>
      <label>
        <input
          type="checkbox"
          name="terms"
          checked={terms}
          onChange={(e) => setTerms(e.target.checked)}
        />{' '}
        Terms
      </label>
      <output>{`state: ${name}|${plan}|${terms}`}</output>
    </form>
  )
}

async function renderWith(ui: React.ReactNode, tm: Toolmark, count = 3) {
  await render(
    <StrictMode>
      <ToolProvider toolmark={tm}>
        {ui}
        <ConfirmDialog />
      </ToolProvider>
    </StrictMode>,
  )
  await expect.poll(() => tm.manifest().tools.length).toBe(count)
}

describe('useDomFormTool in Chromium', () => {
  it('updates React state of a controlled form, and submits the whole form after approval', async () => {
    const tm = createToolmark()
    const onSubmit = vi.fn((_values: Record<string, unknown>) => ({ id: 'u7' }))
    await renderWith(<ControlledSignup onSubmit={onSubmit} />, tm)

    const result = await tm.call(
      'signup.fill',
      { values: { name: 'Ada', plan: 'pro', terms: true } },
      { caller: 'webmcp' },
    )
    expect(result).toMatchObject({ status: 'ok', data: { skipped: [] } })
    await expect.element(page.getByText('state: Ada|pro|true')).toBeVisible()

    const submitted = tm.call('signup.submit', {}, { caller: 'webmcp' })
    const dialog = page.getByRole('alertdialog', { name: 'Sign up' })
    await expect.element(dialog).toBeVisible()
    await expect.element(dialog).toHaveTextContent('Ada')
    await userEvent.click(page.getByRole('button', { name: 'Approve', exact: true }))
    expect(await submitted).toEqual({ status: 'ok', data: { id: 'u7' } })
    expect(onSubmit.mock.calls[0][0]).toEqual({ name: 'Ada', plan: 'pro', terms: true })
  })

  it('skips what a person typed into a controlled input', async () => {
    const tm = createToolmark()
    await renderWith(<ControlledSignup onSubmit={() => null} />, tm)
    await userEvent.type(field('Name'), 'Grace')

    const result = await tm.call('signup.fill', { values: { name: 'Ada', plan: 'pro' } })

    expect(result).toMatchObject({
      data: { changes: [{ path: 'plan' }], skipped: [{ path: 'name', reason: 'user_edited' }] },
    })
    await expect.element(page.getByText('state: Grace|pro|false')).toBeVisible()
  })

  it('shows an attached image in the submit confirmation: name, size, type and a preview', async () => {
    // A 1×1 PNG, as a person would paste it into the chat.
    const bytes = Uint8Array.from(
      atob(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      ),
      (c) => c.charCodeAt(0),
    )
    const pasted = new File([bytes], 'pasted.png', { type: 'image/png' })
    const tm = createToolmark({
      files: { resolve: (ref) => (ref === 'paste-1' ? pasted : undefined) },
    })
    function Report() {
      const ref = useRef<HTMLFormElement>(null)
      useDomFormTool(ref, {
        name: 'report',
        title: 'Report',
        description: 'A bug report.',
        files: fileFields({ screenshot: { maxBytes: 1_000_000 } }),
        onSubmit: () => null,
      })
      return (
        <form ref={ref}>
          <label>
            Screenshot <input type="file" name="screenshot" accept="image/*" />
          </label>
        </form>
      )
    }
    await renderWith(<Report />, tm)

    expect(
      await tm.call('report.fill', { values: { screenshot: { ref: 'paste-1' } } }),
    ).toMatchObject({
      status: 'ok',
    })
    const submitted = tm.call('report.submit', {}, { caller: 'webmcp' })
    const dialog = page.getByRole('alertdialog', { name: 'Report' })
    await expect.element(dialog).toHaveTextContent(`pasted.png (${pasted.size} B, image/png)`)
    const preview = dialog.getByRole('img', { name: 'pasted.png' })
    await expect.element(preview).toBeVisible()
    expect((preview.element() as HTMLImageElement).src).toMatch(/^blob:/)
    await expect.poll(() => (preview.element() as HTMLImageElement).naturalWidth).toBe(1)
    await userEvent.click(page.getByRole('button', { name: 'Deny', exact: true }))
    expect(await submitted).toEqual({ status: 'cancelled', by: 'operator' })
  })

  it('unregisters when the form unmounts', async () => {
    const tm = createToolmark()
    function Toggle() {
      const [shown, setShown] = useState(true)
      return (
        <>
          <button onClick={() => setShown(false)}>Hide</button>
          {shown && <ControlledSignup onSubmit={() => null} />}
        </>
      )
    }
    await renderWith(<Toggle />, tm)
    await userEvent.click(page.getByRole('button', { name: 'Hide' }))
    await expect.poll(() => tm.manifest().tools.length).toBe(0)
    expect(await tm.call('signup.fill', { values: { name: 'x' } })).toMatchObject({
      code: 'unknown_tool',
    })
  })
})

function FormikTicket({ onSubmit }: { onSubmit: (values: unknown) => void }) {
  const ref = useRef<HTMLFormElement>(null)
  useDomFormTool(ref, { name: 'ticket', title: 'New ticket', description: 'The new-ticket form.' })
  return (
    <Formik
      initialValues={{ subject: '', severity: 'minor' }}
      onSubmit={(values) => onSubmit(values)}
    >
      {({ values }) => (
        <Form ref={ref}>
          <label>
            Subject <Field name="subject" required />
          </label>
          <label>
            Severity{' '}
            <Field as="select" name="severity">
              <option value="minor">Minor</option>
              <option value="major">Major</option>
            </Field>
          </label>
          <output>{`formik: ${values.subject}|${values.severity}`}</output>
        </Form>
      )}
    </Formik>
  )
}

describe('useDomFormTool on a formik form in Chromium', () => {
  it('fills formik state and submits through formik after approval', async () => {
    const tm = createToolmark()
    const onSubmit = vi.fn()
    await renderWith(<FormikTicket onSubmit={onSubmit} />, tm)

    const result = await tm.call('ticket.fill', {
      values: { subject: 'VPN down', severity: 'major' },
    })
    expect(result).toMatchObject({
      status: 'ok',
      data: {
        changes: [
          { path: 'severity', before: 'minor', after: 'major' },
          { path: 'subject', after: 'VPN down' },
        ],
      },
    })
    await expect.element(page.getByText('formik: VPN down|major')).toBeVisible()

    const submitted = tm.call('ticket.submit', {}, { caller: 'webmcp' })
    await expect.element(page.getByRole('alertdialog', { name: 'New ticket' })).toBeVisible()
    await userEvent.click(page.getByRole('button', { name: 'Approve', exact: true }))
    expect(await submitted).toEqual({ status: 'ok', data: null })
    await expect.poll(() => onSubmit.mock.calls.length).toBe(1)
    expect(onSubmit.mock.calls[0][0]).toEqual({ subject: 'VPN down', severity: 'major' })
  })
})

describe('declarative WebMCP', () => {
  it('leaves a form that carries toolname to the browser, and says so once', async () => {
    const modelContext = (document as any).modelContext
    expect(modelContext).toBeDefined()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const tm = createToolmark()
    const form = plainForm()
    forms.push(form)
    form.setAttribute('toolname', 'place_order')
    form.setAttribute('tooldescription', 'Places an order.')
    createDomFormTools(tm, form, { name: 'order', description: 'The order form.' })
    const other = document.createElement('form')
    other.innerHTML = '<label>Query <input name="query" /></label>'
    document.body.append(other)
    forms.push(other)
    createDomFormTools(tm, other, { name: 'search', description: 'The search form.' })
    const stop = tm.use(webmcp({ modelContext }))

    const names = async () =>
      ((await modelContext.getTools()) as Array<{ name: string }>).map((t) => t.name).sort()
    await expect.poll(names).toEqual(expect.arrayContaining(['search.fill', 'search.state']))
    const listed = await names()
    expect(listed.filter((n) => n.startsWith('order.'))).toEqual([])
    // Chromium 156 registers the declarative form itself, under its toolname.
    expect(listed).toContain('place_order')
    expect(
      warn.mock.calls.filter(([m]) => String(m).includes('toolname="place_order"')),
    ).toHaveLength(1)

    // Without the attribute, the form tools are served again.
    form.removeAttribute('toolname')
    await expect.poll(names).toEqual(expect.arrayContaining(['order.fill', 'order.state']))
    stop()
    warn.mockRestore()
  })
})
