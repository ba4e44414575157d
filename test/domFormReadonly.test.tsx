import { StrictMode, useRef } from 'react'
import { act, render, screen } from '@testing-library/react'
import { createToolmark } from '@toolmark/core'
import type { Toolmark } from '@toolmark/core'
import { useDomFormTool, type UseDomFormToolResult } from '@toolmark/react'

const flush = () => act(async () => {})

/** A profile form inside a fieldset: `account` is always readonly; `lockBio` makes the bio readonly. */
function Profile({
  tm,
  lockBio = false,
  onTool,
}: {
  tm: Toolmark
  lockBio?: boolean
  onTool?: (tool: UseDomFormToolResult) => void
}) {
  const ref = useRef<HTMLFormElement>(null)
  const tool = useDomFormTool(ref, {
    name: 'profile',
    description: 'The profile form.',
    toolmark: tm,
  })
  onTool?.(tool)
  return (
    <fieldset>
      <form ref={ref}>
        <label>
          Name <input name="name" />
        </label>
        <label>
          Account <input name="account" defaultValue="A-1" readOnly />
        </label>
        <label>
          Bio <textarea name="bio" defaultValue="Hello" readOnly={lockBio} />
        </label>
        <label>
          Plan{' '}
          {/* React's types leave `readOnly` off selects; the attribute renders all the same. */}
          <select name="plan" defaultValue="free" {...{ readOnly: true }}>
            <option value="free">Free</option>
            <option value="pro">Pro</option>
          </select>
        </label>
        <label>
          <input type="checkbox" name="terms" readOnly /> Terms
        </label>
        <fieldset>
          <legend>Tier</legend>
          <label>
            <input type="radio" name="tier" value="basic" defaultChecked readOnly /> Basic
          </label>
          <label>
            <input type="radio" name="tier" value="gold" readOnly /> Gold
          </label>
        </fieldset>
      </form>
    </fieldset>
  )
}

describe('useDomFormTool and controls nobody may change', () => {
  it('never writes a readonly control of any type, even with overwrite, and fills the rest', async () => {
    const tm = createToolmark()
    render(
      <StrictMode>
        <Profile tm={tm} />
      </StrictMode>,
    )
    await flush()
    const written: string[] = []
    const form = screen.getByLabelText('Name').closest('form')!
    form.addEventListener('input', (e) => written.push((e.target as HTMLInputElement).name))

    const result = await act(() =>
      tm.call('profile.fill', {
        values: {
          name: 'Ana',
          account: 'A-2',
          plan: 'pro',
          terms: true,
          tier: 'gold',
        },
        overwrite: true,
      }),
    )

    expect(result).toEqual({
      status: 'ok',
      data: {
        changes: [{ path: 'name', after: 'Ana' }],
        skipped: [
          { path: 'account', reason: 'readonly' },
          { path: 'plan', reason: 'readonly' },
          { path: 'terms', reason: 'readonly' },
          { path: 'tier', reason: 'readonly' },
        ],
      },
    })
    expect(screen.getByLabelText('Name')).toHaveValue('Ana')
    expect(screen.getByLabelText('Account')).toHaveValue('A-1')
    expect(screen.getByLabelText('Plan')).toHaveValue('free')
    expect(screen.getByLabelText('Terms')).not.toBeChecked()
    expect(screen.getByLabelText('Basic')).toBeChecked()
    expect(screen.getByLabelText('Gold')).not.toBeChecked()
    expect(written).toEqual(['name'])
  })

  it('checks at fill time: a control made readonly after the tools registered is left alone', async () => {
    const tm = createToolmark()
    const { rerender } = render(
      <StrictMode>
        <Profile tm={tm} />
      </StrictMode>,
    )
    await flush()
    const rev = tm.manifest().rev

    rerender(
      <StrictMode>
        <Profile tm={tm} lockBio />
      </StrictMode>,
    )
    await flush()
    const result = await act(() =>
      tm.call('profile.fill', { values: { name: 'Ana', bio: 'Agent bio' } }),
    )

    expect(tm.manifest().rev).toBe(rev)
    expect(result).toEqual({
      status: 'ok',
      data: {
        changes: [{ path: 'name', after: 'Ana' }],
        skipped: [{ path: 'bio', reason: 'readonly' }],
      },
    })
    expect(screen.getByLabelText('Bio')).toHaveValue('Hello')
  })

  it('writes nothing into a form once a <fieldset> around it turned disabled', async () => {
    const tm = createToolmark()
    render(
      <StrictMode>
        <Profile tm={tm} />
      </StrictMode>,
    )
    await flush()

    // A page script disables the fieldset around the form: nothing inside the form changes.
    const form = screen.getByLabelText('Name').closest('form')!
    ;(form.parentElement as HTMLFieldSetElement).disabled = true
    await flush()
    const result = await act(() =>
      tm.call('profile.fill', { values: { name: 'Ana', bio: 'Agent bio' }, overwrite: true }),
    )

    expect(result).toEqual({
      status: 'ok',
      data: {
        changes: [],
        skipped: [
          { path: 'bio', reason: 'readonly' },
          { path: 'name', reason: 'readonly' },
        ],
      },
    })
    expect(screen.getByLabelText('Name')).toHaveValue('')
    expect(screen.getByLabelText('Bio')).toHaveValue('Hello')
  })

  it('undo and revertField leave alone a control that turned readonly since the fill', async () => {
    const tm = createToolmark()
    const ids: string[] = []
    tm.events.on('result', (e) => ids.push(e.callId))
    let tool: UseDomFormToolResult | undefined
    const { rerender } = render(
      <StrictMode>
        <Profile tm={tm} onTool={(t) => (tool = t)} />
      </StrictMode>,
    )
    await flush()
    await act(() => tm.call('profile.fill', { values: { name: 'Ana', bio: 'Agent bio' } }))
    const fill = ids[ids.length - 1]

    rerender(
      <StrictMode>
        <Profile tm={tm} lockBio onTool={(t) => (tool = t)} />
      </StrictMode>,
    )
    await flush()
    const reverted = await act(() => tool!.revertField('bio'))
    const undone = await act(() => tm.undo(fill))

    expect(reverted).toEqual({ status: 'skipped', path: 'bio', reason: 'readonly' })
    expect(undone).toEqual({
      status: 'ok',
      data: {
        changes: [{ path: 'name', before: 'Ana' }],
        skipped: [{ path: 'bio', reason: 'readonly' }],
      },
    })
    expect(screen.getByLabelText('Bio')).toHaveValue('Agent bio')
    expect(screen.getByLabelText('Name')).toHaveValue('')
  })
})
