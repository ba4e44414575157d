import { ROOT_CONTEXT, context, trace, type ContextAPI } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base'
import { z } from 'zod'
import { createToolmark, ok, type ErrorEvent, type ToolContext } from '../../src/index'
import { otel } from '../../src/otel'
import { createTestToolmark } from '../../src/testing'

// The context manager an app on Node registers: the active span follows every `await`.
const contextManager = new AsyncLocalStorageContextManager()
beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable())
})
afterAll(() => {
  context.disable()
})

/** The real SDK; `tracer` is the one the app passes and the one its own code starts spans with. */
function telemetry() {
  const exporter = new InMemorySpanExporter()
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
  const tracer = provider.getTracer('toolmark-test')
  const spans = () => exporter.getFinishedSpans()
  const span = (name: string): ReadableSpan => {
    const found = spans().filter((s) => s.name === name)
    expect(found, `one span named ${name}`).toHaveLength(1)
    return found[0]
  }
  return { tracer, spans, span }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId
const idOf = (span: ReadableSpan) => span.spanContext().spanId
const traceOf = (span: ReadableSpan) => span.spanContext().traceId

describe('otel() with the context API', () => {
  it('runs the tool inside its span: spans started in run, before and after an await, are its children', async () => {
    const t = telemetry()
    const tm = createToolmark()
    tm.use(otel({ tracer: t.tracer, context, trace }))
    tm.register({
      name: 'tickets.load',
      description: 'Loads tickets',
      run: async () => {
        t.tracer.startSpan('cache lookup').end()
        await sleep(1)
        return t.tracer.startActiveSpan('GET /api/tickets', async (request) => {
          await sleep(1)
          t.tracer.startSpan('parse').end()
          request.end()
          return ok([1])
        })
      },
    })

    expect(await tm.call('tickets.load')).toEqual({ status: 'ok', data: [1] })

    const tool = t.span('execute_tool tickets.load')
    expect(parentOf(t.span('cache lookup'))).toBe(idOf(tool))
    expect(parentOf(t.span('GET /api/tickets'))).toBe(idOf(tool))
    expect(parentOf(t.span('parse'))).toBe(idOf(t.span('GET /api/tickets')))
    expect(new Set(t.spans().map(traceOf))).toEqual(new Set([traceOf(tool)]))
  })

  it("starts the call's span under the caller's active span", async () => {
    const t = telemetry()
    const tm = createToolmark()
    tm.use(otel({ tracer: t.tracer, context, trace }))
    tm.register({ name: 'ping', description: 'Pings', run: () => ok('pong') })

    await t.tracer.startActiveSpan('agent turn', async (turn) => {
      await tm.call('ping', {}, { caller: 'mcp' })
      turn.end()
    })

    expect(parentOf(t.span('execute_tool ping'))).toBe(idOf(t.span('agent turn')))
  })

  it('gives overlapping calls each their own span, with the right children', async () => {
    const t = telemetry()
    const tm = createToolmark()
    tm.use(otel({ tracer: t.tracer, context, trace }))
    const gates = new Map<string, () => void>()
    const input = z.object({ label: z.string() })
    const run = async ({ label }: { label: string }) => {
      t.tracer.startSpan(`before ${label}`).end()
      await new Promise<void>((resolve) => gates.set(label, resolve))
      t.tracer.startSpan(`after ${label}`).end()
      return ok(label)
    }
    // Two scopes: their runs overlap (calls of one scope take turns).
    for (const scope of [tm.scope('a'), tm.scope('b')]) {
      tm.register({ name: 'work', description: 'Works', input, run }, { scope })
    }
    const first = tm.call('a.work', { label: 'one' })
    const second = tm.call('b.work', { label: 'two' })
    const third = tm.call('a.work', { label: 'three' }) // waits for `one`, then runs
    await sleep(5)
    gates.get('two')!()
    await second
    gates.get('one')!()
    await first
    await sleep(5)
    gates.get('three')!()
    expect(await Promise.all([first, second, third]).then((r) => r.map((x) => x.status))).toEqual([
      'ok',
      'ok',
      'ok',
    ])

    const tools = t.spans().filter((s) => s.name.startsWith('execute_tool '))
    expect(tools).toHaveLength(3)
    expect(new Set(tools.map(idOf)).size).toBe(3)
    const owners = new Set<string>()
    for (const label of ['one', 'two', 'three']) {
      const before = t.span(`before ${label}`)
      const after = t.span(`after ${label}`)
      expect(parentOf(after)).toBe(parentOf(before))
      const owner = tools.find((s) => idOf(s) === parentOf(before))!
      owners.add(idOf(owner))
      expect(owner.attributes['gen_ai.tool.name']).toBe(label === 'two' ? 'b.work' : 'a.work')
      // A span of its own per call: no other label's spans under it.
      const children = t.spans().filter((s) => parentOf(s) === idOf(owner))
      expect(children.map((s) => s.name).sort()).toEqual([`after ${label}`, `before ${label}`])
    }
    expect(owners.size).toBe(3)
  })

  it('runs an approved deferred call under the span that asked, not as a new trace', async () => {
    const t = telemetry()
    const tm = createTestToolmark()
    tm.use(otel({ tracer: t.tracer, context, trace }))
    let approval: ToolContext['approval']
    tm.register({
      name: 'tickets.close',
      description: 'Closes a ticket',
      hints: { consequential: true },
      summary: () => 'Close the ticket',
      run: async (_input, ctx) => {
        approval = ctx.approval
        await sleep(1)
        t.tracer.startSpan('PATCH /api/tickets/7').end()
        return ok('closed')
      },
    })

    const asked = await t.tracer.startActiveSpan('agent turn', async (turn) => {
      const result = await tm.call('tickets.close', {}, { caller: 'inapp' })
      turn.end()
      return result
    })
    expect(asked.status).toBe('needs_confirmation')
    const confirmId = asked.status === 'needs_confirmation' ? asked.confirmId : ''
    // The person approves later, from a click handler that has no span of its own.
    await context.with(ROOT_CONTEXT, () => tm.confirmations.approve(confirmId))
    expect(approval).toBeDefined()

    const [asking, approved] = t.spans().filter((s) => s.name === 'execute_tool tickets.close')
    const decision = t.span('toolmark.confirmation tickets.close')
    const request = t.span('PATCH /api/tickets/7')
    expect(parentOf(asking)).toBe(idOf(t.span('agent turn')))
    expect(parentOf(decision)).toBe(idOf(asking))
    expect(parentOf(approved)).toBe(idOf(decision))
    expect(approved.links.map((l) => l.context.spanId)).toEqual([idOf(asking)])
    expect(parentOf(request)).toBe(idOf(approved))
    expect(new Set(t.spans().map(traceOf))).toEqual(new Set([traceOf(asking)]))
    expect(approved.attributes).toMatchObject({
      'toolmark.caller': 'human',
      'toolmark.status': 'ok',
      'gen_ai.tool.call.id': asking.attributes['gen_ai.tool.call.id'],
    })
  })

  it('ends a failed approved run with its error.type', async () => {
    const t = telemetry()
    const tm = createTestToolmark({ dev: false })
    tm.use(otel({ tracer: t.tracer, context, trace }))
    class ConflictError extends Error {}
    tm.register({
      name: 'tickets.close',
      description: 'Closes a ticket',
      hints: { consequential: true },
      summary: () => 'Close the ticket',
      run: async () => {
        await sleep(1)
        throw new ConflictError('ticket 7 changed')
      },
    })

    const asked = await tm.call('tickets.close', {}, { caller: 'inapp' })
    const confirmId = asked.status === 'needs_confirmation' ? asked.confirmId : ''
    await tm.confirmations.approve(confirmId)

    const [asking, approved] = t.spans().filter((s) => s.name === 'execute_tool tickets.close')
    expect(asking.attributes['error.type']).toBeUndefined()
    expect(approved.attributes).toMatchObject({
      'toolmark.status': 'error',
      'error.type': 'ConflictError',
    })
    expect(approved.status.code).toBe(2)
  })

  it('runs an inline-confirmed call inside its own span', async () => {
    const t = telemetry()
    const tm = createTestToolmark({ answer: 'approve' })
    tm.use(otel({ tracer: t.tracer, context, trace }))
    tm.register({
      name: 'close',
      description: 'Closes',
      hints: { consequential: true },
      summary: () => 'Close it',
      run: async () => {
        await sleep(1)
        t.tracer.startSpan('write').end()
        return ok('closed')
      },
    })

    expect(await tm.call('close', {}, { caller: 'mcp' })).toEqual({ status: 'ok', data: 'closed' })
    await sleep(5)

    expect(parentOf(t.span('write'))).toBe(idOf(t.span('execute_tool close')))
  })

  it('reports a context API that throws and still runs the tool once, its span ended', async () => {
    const t = telemetry()
    const tm = createTestToolmark({ dev: false })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    const broken: ContextAPI = Object.create(context, {
      with: {
        value: () => {
          throw new Error('no context manager')
        },
      },
    })
    tm.use(otel({ tracer: t.tracer, context: broken, trace }))
    let runs = 0
    tm.register({ name: 'count', description: 'Counts', run: () => ok(++runs) })
    tm.register({
      name: 'close',
      description: 'Closes',
      hints: { consequential: true },
      summary: () => 'Close it',
      run: async () => {
        await sleep(1)
        return ok(++runs)
      },
    })

    expect(await tm.call('count')).toEqual({ status: 'ok', data: 1 })
    const asked = await tm.call('close', {}, { caller: 'inapp' })
    await tm.confirmations.approve(asked.status === 'needs_confirmation' ? asked.confirmId : '')
    await sleep(5)

    expect(runs).toBe(2)
    expect(errors.map((e) => [e.code, e.tool])).toEqual([
      ['consumer_threw', 'count'],
      ['consumer_threw', 'close'],
    ])
    expect(t.span('execute_tool count').attributes['toolmark.status']).toBe('ok')
    const closes = t.spans().filter((s) => s.name === 'execute_tool close')
    expect(closes.map((s) => s.attributes['toolmark.status'])).toEqual(['needs_confirmation', 'ok'])
  })

  it('stops wrapping runs once detached, and ends an approved run still going as detached', async () => {
    const t = telemetry()
    const tm = createTestToolmark()
    const detach = tm.use(otel({ tracer: t.tracer, context, trace }))
    let release!: () => void
    tm.register({
      name: 'close',
      description: 'Closes',
      hints: { consequential: true },
      summary: () => 'Close it',
      run: () => new Promise((resolve) => (release = () => resolve(ok('closed')))),
    })
    tm.register({
      name: 'ping',
      description: 'Pings',
      run: () => {
        t.tracer.startSpan('inside ping').end()
        return ok('pong')
      },
    })

    const asked = await tm.call('close', {}, { caller: 'inapp' })
    const confirmId = asked.status === 'needs_confirmation' ? asked.confirmId : ''
    const approving = tm.confirmations.approve(confirmId)
    await sleep(5)
    detach()
    release()
    await approving
    await tm.call('ping')

    const [, approved] = t.spans().filter((s) => s.name === 'execute_tool close')
    expect(approved.attributes['toolmark.status']).toBe('detached')
    expect(t.spans().filter((s) => s.name === 'execute_tool close')).toHaveLength(2)
    expect(t.spans().some((s) => s.name === 'execute_tool ping')).toBe(false)
    expect(parentOf(t.span('inside ping'))).toBeUndefined()
  })

  it('throws the fix when only one of context and trace is given, or a wrong one', () => {
    const tm = createToolmark({ dev: true })
    const { tracer } = telemetry()
    expect(() => tm.use(otel({ tracer, context }))).toThrow(/context, trace/)
    expect(() => tm.use(otel({ tracer, trace }))).toThrow(/context, trace/)
    expect(() => tm.use(otel({ tracer, context: {} as ContextAPI, trace }))).toThrow(
      /import \{ context, trace \}/,
    )
  })
})
