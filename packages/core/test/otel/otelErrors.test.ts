import { SpanStatusCode } from '@opentelemetry/api'
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base'
import { z } from 'zod'
import { createToolmark, errorResult, ok, refuse } from '../../src/index'
import { otel } from '../../src/otel'

/** The real SDK, keeping every finished span. */
function telemetry() {
  const exporter = new InMemorySpanExporter()
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
  const tracer = provider.getTracer('toolmark-test')
  const span = (name: string): ReadableSpan => {
    const found = exporter.getFinishedSpans().filter((s) => s.name === name)
    expect(found, `one span named ${name}`).toHaveLength(1)
    return found[0]
  }
  return { tracer, span }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('otel() on failures', () => {
  it('sets error.type and the error status on refused, invalid and failed calls', async () => {
    const t = telemetry()
    const tm = createToolmark({ dev: false })
    tm.use(otel({ tracer: t.tracer }))
    class PaymentError extends Error {}
    tm.register({ name: 'boom', description: 'Fails', run: () => errorResult('Disk full') })
    tm.register({
      name: 'pay',
      description: 'Pays',
      run: () => {
        throw new PaymentError('card 4242 declined')
      },
    })
    tm.register({
      name: 'later',
      description: 'Fails later',
      run: async () => {
        await sleep(1)
        throw new TypeError('x is undefined')
      },
    })
    tm.register({
      name: 'typed',
      description: 'Takes a number',
      input: z.object({ n: z.number() }),
      run: () => ok(1),
    })
    tm.register({
      name: 'guarded',
      description: 'Refuses in its check',
      check: () => refuse('not_allowed', 'Ticket of Ada Lovelace is locked'),
      run: () => ok(1),
    })
    tm.register({ name: 'fine', description: 'Works', run: () => ok(1) })
    tm.register({
      name: 'shout',
      description: 'Throws a string',
      run: () => {
        throw 'card 4242 declined'
      },
    })
    tm.register({
      name: 'odd',
      description: 'Returns something unusable',
      run: () => ({ status: 'maybe' }) as never,
    })

    await tm.call('nothing.here')
    await Promise.all([tm.call('boom'), tm.call('pay'), tm.call('later'), tm.call('fine')])
    await Promise.all([tm.call('shout'), tm.call('odd')])
    await tm.call('typed', { n: 'x' })
    await tm.call('guarded')

    // A name no tool has is recorded as `_OTHER` (boundedNames.test.ts).
    expect(t.span('execute_tool _OTHER').attributes).toMatchObject({
      'toolmark.status': 'refused',
      'toolmark.refused.code': 'unknown_tool',
      'error.type': 'unknown_tool',
    })
    expect(t.span('execute_tool boom').attributes['error.type']).toBe('_OTHER')
    expect(t.span('execute_tool boom').status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'Disk full',
    })
    // What was thrown names the failure by its class; its message stays out of the span.
    const pay = t.span('execute_tool pay')
    expect(pay.attributes['error.type']).toBe('PaymentError')
    expect(pay.status.code).toBe(SpanStatusCode.ERROR)
    expect(JSON.stringify([pay.attributes, pay.status, pay.events])).not.toContain('4242')
    expect(t.span('execute_tool later').attributes['error.type']).toBe('TypeError')
    expect(t.span('execute_tool typed').attributes).toMatchObject({
      'toolmark.status': 'invalid',
      'error.type': 'invalid',
    })
    // A refusal's status message is its code: the app's own message may quote its data.
    const guarded = t.span('execute_tool guarded')
    expect(guarded.attributes['error.type']).toBe('not_allowed')
    expect(guarded.status).toEqual({ code: SpanStatusCode.ERROR, message: 'not_allowed' })
    expect(t.span('execute_tool fine').attributes['error.type']).toBeUndefined()
    // Nothing with a class: the code of the `error` event that said what went wrong.
    expect(t.span('execute_tool shout').attributes['error.type']).toBe('tool_threw')
    expect(t.span('execute_tool odd').attributes).toMatchObject({
      'toolmark.status': 'error',
      'error.type': 'invalid_result',
    })
  })
})
