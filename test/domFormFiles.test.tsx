import { Component, StrictMode, useRef, type ReactNode } from 'react'
import { act, render, screen } from '@testing-library/react'
import { createToolmark } from '@toolmark/core'
import type { ErrorEvent, Toolmark } from '@toolmark/core'
import { fileFields } from '@toolmark/core/forms'
import { useDomFormTool } from '@toolmark/react'

const flush = () => act(async () => {})

/** A bug report with a screenshot input; `plain` passes the rules undressed. */
function Report({ tm, plain }: { tm: Toolmark; plain?: boolean }) {
  const ref = useRef<HTMLFormElement>(null)
  const rules = { shot: { maxBytes: 1000 } }
  useDomFormTool(ref, {
    name: 'report',
    description: 'The bug report.',
    files: plain ? (rules as never) : fileFields(rules),
    toolmark: tm,
  })
  return (
    <form ref={ref}>
      <label>
        Title <input name="title" />
      </label>
      <label>
        Screenshot <input type="file" name="shot" accept="image/*" />
      </label>
    </form>
  )
}

/** Shows what a hook threw, as an app's error boundary would. */
class Caught extends Component<{ children: ReactNode }, { error?: Error }> {
  override state: { error?: Error } = {}
  static getDerivedStateFromError(error: Error) {
    return { error }
  }
  override render() {
    return this.state.error ? <p role="alert">{this.state.error.message}</p> : this.props.children
  }
}

describe('useDomFormTool with fileFields', () => {
  it('serves the file input with its attributes and the declared rules on top', async () => {
    const tm = createToolmark({ files: { resolve: () => undefined } })

    render(
      <StrictMode>
        <Report tm={tm} />
      </StrictMode>,
    )
    await flush()

    const values = (tm.describe('report.fill')!.inputSchema as any).properties.values
    expect(values.properties.shot.description).toBe('A file (types image/*, at most 1000 B).')
  })

  it('throws the fix in development when the rules are a plain object', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const tm = createToolmark({ dev: true })

    render(
      <Caught>
        <Report tm={tm} plain />
      </Caught>,
    )
    await flush()

    expect(screen.getByRole('alert')).toHaveTextContent(
      `[toolmark] useDomFormTool("report"): files must come from fileFields({...}) (import { fileFields } from '@toolmark/core/forms')`,
    )
    expect(tm.manifest().tools).toEqual([])
  })

  describe('in a production build', () => {
    beforeEach(() => {
      vi.stubEnv('NODE_ENV', 'production')
    })
    afterEach(() => {
      vi.unstubAllEnvs()
    })

    it('reports plain file rules as invalid_form and registers nothing', async () => {
      const tm = createToolmark()
      const errors: ErrorEvent[] = []
      tm.events.on('error', (e) => errors.push(e))

      render(
        <StrictMode>
          <Report tm={tm} plain />
        </StrictMode>,
      )
      await flush()

      expect(errors[0]).toEqual({
        code: 'invalid_form',
        message: 'useDomFormTool("report"): plain files',
      })
      expect(tm.manifest().tools).toEqual([])
    })
  })
})
