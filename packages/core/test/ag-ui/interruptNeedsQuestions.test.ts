import { createAgUiSession } from '../../src/ag-ui/index'
import { createToolmark, questions, type ErrorEvent } from '../../src/index'
import type { AgUiAgent } from '../../src/ag-ui/agUiTypes'

/** An agent never run: only the session's creation is under test. */
const agent = { abortRun: () => {} } as unknown as AgUiAgent

describe('an AG-UI session in interrupt mode', () => {
  it('says in development that the registry needs questions(), and how to give it', () => {
    const tm = createToolmark({ dev: true })
    expect(() => createAgUiSession(tm, { agent, confirmations: 'interrupt' })).toThrow(
      'create the registry with createToolmark({ confirm: { questions: questions() } })',
    )
  })

  it('reports invalid_options in production and still starts, its runs asking nothing', async () => {
    const tm = createToolmark({ dev: false })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (event) => errors.push(event))
    const session = createAgUiSession(tm, { agent, confirmations: 'interrupt' })
    expect(session.getSnapshot().status).toBe('idle')
    expect(errors).toEqual([expect.objectContaining({ code: 'invalid_options' })])
    session.dispose()
  })

  it('starts without a word when the registry was given questions(), and in inline mode', () => {
    const errors: ErrorEvent[] = []
    const asking = createToolmark({ dev: true, confirm: { questions: questions() } })
    asking.events.on('error', (event) => errors.push(event))
    createAgUiSession(asking, { agent, confirmations: 'interrupt' }).dispose()
    const inline = createToolmark({ dev: true })
    inline.events.on('error', (event) => errors.push(event))
    createAgUiSession(inline, { agent }).dispose()
    expect(errors).toEqual([])
  })
})
