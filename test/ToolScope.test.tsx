import { StrictMode } from 'react'
import { act, render, screen } from '@testing-library/react'
import { createToolmark, ok } from '@toolmark/core'
import { ToolProvider, ToolScope, useTool } from '@toolmark/react'

const flush = () => act(async () => {})

function Save() {
  const save = useTool({ name: 'save', description: 'Saves the draft', run: () => ok('saved') })
  return <p>{save.name}</p>
}

describe('ToolScope', () => {
  it('prefixes the tools inside with the names of the nested scopes', async () => {
    const tm = createToolmark()

    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ToolScope name="tickets">
            <ToolScope name="editor">
              <Save />
            </ToolScope>
          </ToolScope>
        </ToolProvider>
      </StrictMode>,
    )
    await flush()

    expect(screen.getByText('tickets.editor.save')).toBeInTheDocument()
    expect(tm.manifest().tools.map((t) => t.name)).toEqual(['tickets.editor.save'])
    expect(await act(() => tm.call('tickets.editor.save', {}, { caller: 'test' }))).toEqual({
      status: 'ok',
      data: 'saved',
    })
  })

  it('adds no name segment when transparent', async () => {
    const tm = createToolmark()

    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ToolScope name="tickets">
            <ToolScope name="group" transparent>
              <Save />
            </ToolScope>
          </ToolScope>
        </ToolProvider>
      </StrictMode>,
    )
    await flush()

    expect(screen.getByText('tickets.save')).toBeInTheDocument()
    expect(tm.manifest().tools.map((t) => t.name)).toEqual(['tickets.save'])
  })

  it('hides its tools while when is false and shows them again when it turns true', async () => {
    const tm = createToolmark()
    const tree = (when: boolean) => (
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ToolScope name="drafts" when={when}>
            <Save />
          </ToolScope>
        </ToolProvider>
      </StrictMode>
    )
    const { rerender } = render(tree(false))
    await flush()

    expect(tm.manifest().tools).toEqual([])
    expect(await act(() => tm.call('drafts.save', {}, { caller: 'test' }))).toMatchObject({
      status: 'refused',
      code: 'unknown_tool',
    })

    rerender(tree(true))
    await flush()
    expect(tm.manifest().tools.map((t) => t.name)).toEqual(['drafts.save'])

    rerender(tree(false))
    await flush()
    expect(tm.manifest().tools).toEqual([])
  })

  it('never shows the tools of a scope that mounts hidden, not even for one revision', async () => {
    const tm = createToolmark()
    const seen: string[][] = []
    tm.subscribe(() => seen.push(tm.manifest().tools.map((t) => t.name)))
    const registered = vi.spyOn(tm, 'scope')

    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ToolScope name="drafts" when={false}>
            <Save />
          </ToolScope>
        </ToolProvider>
      </StrictMode>,
    )
    await flush()

    expect(registered).toHaveBeenCalledWith('drafts', { when: false, transparent: false })
    expect(seen.length).toBeGreaterThan(0)
    expect(seen.flat()).toEqual([])
  })

  it('hides the tools of nested scopes when an outer scope turns off', async () => {
    const tm = createToolmark()
    const tree = (when: boolean) => (
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ToolScope name="app" when={when}>
            <ToolScope name="drafts">
              <Save />
            </ToolScope>
          </ToolScope>
        </ToolProvider>
      </StrictMode>
    )
    const { rerender } = render(tree(true))
    await flush()
    expect(tm.manifest().tools.map((t) => t.name)).toEqual(['app.drafts.save'])

    rerender(tree(false))
    await flush()

    expect(tm.manifest().tools).toEqual([])
  })

  it('removes its tools when it unmounts', async () => {
    const tm = createToolmark()
    const tree = (open: boolean) => (
      <StrictMode>
        <ToolProvider toolmark={tm}>
          {open ? (
            <ToolScope name="panel">
              <Save />
            </ToolScope>
          ) : null}
        </ToolProvider>
      </StrictMode>
    )
    const { rerender } = render(tree(true))
    await flush()
    expect(tm.manifest().tools.map((t) => t.name)).toEqual(['panel.save'])

    rerender(tree(false))
    await flush()

    expect(tm.manifest().tools).toEqual([])
  })

  it('moves its tools to the new name when the scope is renamed', async () => {
    const tm = createToolmark()
    const tree = (name: string) => (
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ToolScope name={name}>
            <Save />
          </ToolScope>
        </ToolProvider>
      </StrictMode>
    )
    const { rerender } = render(tree('first'))
    await flush()

    rerender(tree('second'))
    await flush()

    expect(tm.manifest().tools.map((t) => t.name)).toEqual(['second.save'])
    expect(screen.getByText('second.save')).toBeInTheDocument()
  })

  it('keeps two sibling scopes apart', async () => {
    const tm = createToolmark()

    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ToolScope name="left">
            <Save />
          </ToolScope>
          <ToolScope name="right">
            <Save />
          </ToolScope>
        </ToolProvider>
      </StrictMode>,
    )
    await flush()

    expect(tm.manifest().tools.map((t) => t.name)).toEqual(['left.save', 'right.save'])
  })
})
