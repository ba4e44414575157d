import { createStepOrder } from '../src/assistant-ui/stepOrder'
import type { StepCall } from '../src/assistant-ui/stepOrder'

const call = (toolCallId: string, toolName = 'ticket__fill', pending = true): StepCall => ({
  toolCallId,
  toolName,
  pending,
})

function setup(step: StepCall[], ours = (name: string) => name.startsWith('ticket__')) {
  const order = createStepOrder(
    (id) => (step.some((c) => c.toolCallId === id) ? step : undefined),
    ours,
  )
  const settled: string[] = []
  const ready = (id: string, signal = new AbortController().signal) => {
    const wait = order.ready(id, signal)
    if (!wait) {
      settled.push(id)
      return undefined
    }
    void wait.then(() => settled.push(id))
    return wait
  }
  return { order, settled, ready }
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('the order of a model step’s page calls (assistant-ui)', () => {
  it('holds a call the runtime started first until the calls the model made before it have started', async () => {
    const { order, settled, ready } = setup([call('fill'), call('submit', 'ticket__submit')])
    expect(ready('submit')).toBeInstanceOf(Promise)
    await flush()
    expect(settled).toEqual([])
    expect(ready('fill')).toBeUndefined()
    order.start('fill')
    await flush()
    expect(settled).toEqual(['fill', 'submit'])
  })

  it('does not wait for calls that have a result, that are not the page’s, or that come after it', async () => {
    const { settled, ready } = setup([
      call('done', 'ticket__fill', false),
      call('other', 'weather'),
      call('first', 'ticket__state'),
      call('last', 'ticket__submit'),
    ])
    expect(ready('first')).toBeUndefined()
    expect(ready('unknown')).toBeUndefined()
    await flush()
    expect(settled).toEqual(['first', 'unknown'])
  })

  it('lets a waiting call go when its run is aborted, or after a second if the earlier call never starts', async () => {
    vi.useFakeTimers()
    try {
      const { settled, ready } = setup([
        call('a'),
        call('b', 'ticket__submit'),
        call('c', 'ticket__submit'),
      ])
      const controller = new AbortController()
      ready('b', controller.signal)
      ready('c')
      controller.abort()
      await vi.advanceTimersByTimeAsync(0)
      expect(settled).toEqual(['b'])
      await vi.advanceTimersByTimeAsync(999)
      expect(settled).toEqual(['b'])
      await vi.advanceTimersByTimeAsync(1)
      expect(settled).toEqual(['b', 'c'])
    } finally {
      vi.useRealTimers()
    }
  })
})
