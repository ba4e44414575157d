import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base'
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics'
import { SpanKind, SpanStatusCode, type Span, type Tracer } from '@opentelemetry/api'
import { z } from 'zod'
import { createToolmark, ok, errorResult, type ErrorEvent } from '../../src/index'
import { otel } from '../../src/otel'
import { createTestToolmark } from '../../src/testing'

/** A metric reader the test collects from on demand. */
class OnDemandReader extends MetricReader {
  protected async onShutdown() {}
  protected async onForceFlush() {}
}

/** The real SDK, with every span the tracer started kept, so a test can see none is left open. */
function telemetry() {
  const exporter = new InMemorySpanExporter()
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
  const sdkTracer = provider.getTracer('toolmark-test')
  const started: Span[] = []
  const tracer = {
    startSpan: (...args: Parameters<Tracer['startSpan']>) => {
      const span = sdkTracer.startSpan(...args)
      started.push(span)
      return span
    },
  } as Tracer
  const reader = new OnDemandReader()
  const meter = new MeterProvider({ readers: [reader] }).getMeter('toolmark-test')
  const spans = () => exporter.getFinishedSpans()
  const span = (name: string): ReadableSpan => {
    const found = spans().filter((s) => s.name === name)
    expect(found, `one span named ${name}`).toHaveLength(1)
    return found[0]
  }
  const openSpans = () => started.filter((s) => !(s as unknown as ReadableSpan).ended)
  const units = async () => {
    const { resourceMetrics } = await reader.collect()
    const metrics = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics)
    return Object.fromEntries(metrics.map((m) => [m.descriptor.name, m.descriptor.unit]))
  }
  const metrics = async () => {
    const { resourceMetrics } = await reader.collect()
    const out: Record<string, { attributes: Record<string, unknown>; value: unknown }[]> = {}
    for (const scope of resourceMetrics.scopeMetrics) {
      for (const metric of scope.metrics) {
        out[metric.descriptor.name] = metric.dataPoints.map((p) => ({
          attributes: p.attributes,
          value: p.value,
        }))
      }
    }
    return out
  }
  return { tracer, meter, spans, span, openSpans, metrics, units }
}

const eventNames = (span: ReadableSpan) => span.events.map((e) => e.name)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('otel()', () => {
  it('traces one execute_tool span per call, with the GenAI attributes and its own', async () => {
    const t = telemetry()
    const tm = createToolmark()
    tm.use(otel({ tracer: t.tracer, meter: t.meter }))
    tm.register({ name: 'tickets.search', description: 'Searches', run: () => ok([1, 2]) })

    await tm.call('tickets.search', {}, { caller: 'webmcp' })

    const span = t.span('execute_tool tickets.search')
    expect(span.kind).toBe(SpanKind.INTERNAL)
    const callId = span.attributes['gen_ai.tool.call.id']
    expect(callId).toMatch(/^call_[0-9a-f]{32}$/)
    expect(span.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'tickets.search',
      'gen_ai.tool.call.id': callId,
      'gen_ai.tool.description': 'Searches',
      'gen_ai.tool.type': 'function',
      'toolmark.tool': 'tickets.search',
      'toolmark.caller': 'webmcp',
      'toolmark.call_id': callId,
      'toolmark.status': 'ok',
      'toolmark.duration': expect.any(Number),
    })
    // Seconds: a synchronous call takes far less than one.
    expect(span.attributes['toolmark.duration']).toBeLessThan(1)
    expect(span.status.code).toBe(SpanStatusCode.UNSET)
    expect(t.openSpans()).toEqual([])
  })

  it('counts calls and records durations by tool, caller and status', async () => {
    const t = telemetry()
    const tm = createToolmark()
    tm.use(otel({ tracer: t.tracer, meter: t.meter }))
    tm.register({ name: 'ping', description: 'Pings', run: () => ok('pong') })
    tm.register({ name: 'boom', description: 'Fails', run: () => errorResult('nope') })

    await Promise.all([tm.call('ping'), tm.call('ping'), tm.call('boom', {}, { caller: 'mcp' })])
    await tm.call('missing')

    const { 'toolmark.calls': calls, 'toolmark.call.duration': durations } = await t.metrics()
    const count = (tool: string, caller: string, status: string) =>
      calls.find(
        (p) =>
          p.attributes['toolmark.tool'] === tool &&
          p.attributes['toolmark.caller'] === caller &&
          p.attributes['toolmark.status'] === status,
      )?.value
    expect(count('ping', 'inapp', 'ok')).toBe(2)
    expect(count('boom', 'mcp', 'error')).toBe(1)
    // A name no tool has is one value, whatever the agent asked for (boundedNames.test.ts).
    expect(count('_OTHER', 'inapp', 'refused')).toBe(1)
    const pings = durations.find((p) => p.attributes['toolmark.tool'] === 'ping')
    expect((pings?.value as { count: number }).count).toBe(2)
    // In seconds, as the conventions measure durations, with the failure's type beside.
    expect((pings?.value as { max: number }).max).toBeLessThan(1)
    expect((await t.units())['toolmark.call.duration']).toBe('s')
    const boom = durations.find((p) => p.attributes['toolmark.tool'] === 'boom')
    expect(boom?.attributes['error.type']).toBe('_OTHER')
    const missing = calls.find((p) => p.attributes['toolmark.tool'] === '_OTHER')
    expect(missing?.attributes['error.type']).toBe('unknown_tool')
  })

  it('times every execute_tool span on gen_ai.execute_tool.duration, by tool and error type', async () => {
    const t = telemetry()
    const tm = createTestToolmark()
    tm.use(otel({ tracer: t.tracer, meter: t.meter }))
    tm.register({ name: 'ping', description: 'Pings', run: () => ok('pong') })
    tm.register({ name: 'boom', description: 'Fails', run: () => errorResult('nope') })
    tm.register({
      name: 'close',
      description: 'Closes',
      hints: { consequential: true },
      summary: () => 'Close it',
      run: () => ok('closed'),
    })

    await Promise.all([tm.call('ping'), tm.call('ping'), tm.call('boom', {}, { caller: 'mcp' })])
    await tm.call('missing')
    const asked = await tm.call('close', {}, { caller: 'inapp' })
    await tm.confirmations.approve(asked.status === 'needs_confirmation' ? asked.confirmId : '')

    const { 'gen_ai.execute_tool.duration': points } = await t.metrics()
    expect((await t.units())['gen_ai.execute_tool.duration']).toBe('s')
    const of = (tool: string) => points.filter((p) => p.attributes['gen_ai.tool.name'] === tool)
    const count = (tool: string) =>
      of(tool).reduce((n, p) => n + (p.value as { count: number }).count, 0)
    // The attributes the conventions list for it, none of Toolmark's own (caller, status).
    expect(of('ping').map((p) => p.attributes)).toEqual([
      {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'ping',
        'gen_ai.tool.type': 'function',
      },
    ])
    expect(count('ping')).toBe(2)
    expect((of('ping')[0].value as { max: number }).max).toBeLessThan(1)
    // Its buckets are the ones the conventions advise, in seconds.
    expect(
      (of('ping')[0].value as { buckets: { boundaries: number[] } }).buckets.boundaries,
    ).toEqual([
      0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
    ])
    expect(of('boom').map((p) => p.attributes['error.type'])).toEqual(['_OTHER'])
    expect(of('_OTHER').map((p) => p.attributes['error.type'])).toEqual(['unknown_tool'])
    // One measurement per span: the asking call's and the approved run's.
    expect(count('close')).toBe(2)
    expect(t.spans().filter((s) => s.name === 'execute_tool close')).toHaveLength(2)
  })

  it('adds span events while a person decides an inline confirmation, and how it ended', async () => {
    const t = telemetry()
    const tm = createTestToolmark({ answer: (e) => (e.tool === 'close' ? 'approve' : 'reject') })
    tm.use(otel({ tracer: t.tracer }))
    const hints = { consequential: true }
    const summary = () => 'Change it'
    tm.register({ name: 'close', description: 'Closes', hints, summary, run: () => ok('closed') })
    tm.register({ name: 'wipe', description: 'Wipes', hints, summary, run: () => ok('wiped') })

    const [closed, wiped] = await Promise.all([
      tm.call('close', {}, { caller: 'mcp' }),
      tm.call('wipe', {}, { caller: 'mcp' }),
    ])

    expect(closed).toEqual({ status: 'ok', data: 'closed' })
    expect(wiped).toEqual({ status: 'cancelled', by: 'operator' })
    const close = t.span('execute_tool close')
    expect(eventNames(close)).toEqual([
      'toolmark.confirmation.requested',
      'toolmark.confirmation.approved',
    ])
    expect(close.attributes['toolmark.confirmation']).toBe('approved')
    expect(close.events[0].attributes).toMatchObject({ 'toolmark.confirmation.mode': 'inline' })
    const wipe = t.span('execute_tool wipe')
    expect(eventNames(wipe)).toEqual([
      'toolmark.confirmation.requested',
      'toolmark.confirmation.rejected',
    ])
    expect(wipe.attributes).toMatchObject({
      'toolmark.status': 'cancelled',
      'toolmark.cancelled.by': 'operator',
    })
    expect(t.openSpans()).toEqual([])
  })

  it('gives a deferred confirmation its own span and the approved run one under it', async () => {
    const t = telemetry()
    const tm = createTestToolmark()
    tm.use(otel({ tracer: t.tracer }))
    tm.register({
      name: 'close',
      description: 'Closes',
      hints: { consequential: true },
      summary: () => 'Close it',
      run: () => ok('closed'),
    })

    const asked = await tm.call('close', {}, { caller: 'inapp' })
    expect(asked.status).toBe('needs_confirmation')
    expect(t.openSpans()).toHaveLength(1) // the decision, still pending
    const confirmId = asked.status === 'needs_confirmation' ? asked.confirmId : ''
    await tm.confirmations.approve(confirmId)

    // The asking call's span ends with `needs_confirmation`; the approved run has its own.
    const [asking, approved] = t.spans().filter((s) => s.name === 'execute_tool close')
    expect([asking, approved].map((s) => s.attributes['toolmark.caller'])).toEqual([
      'inapp',
      'human',
    ])
    expect(asking.attributes['toolmark.status']).toBe('needs_confirmation')
    expect(approved.attributes).toMatchObject({
      'gen_ai.tool.call.id': asking.attributes['gen_ai.tool.call.id'],
      'toolmark.confirm_id': confirmId,
      'toolmark.status': 'ok',
    })
    expect(approved.links.map((l) => l.context.spanId)).toEqual([asking.spanContext().spanId])
    const decision = t.span('toolmark.confirmation close')
    expect(decision.attributes).toMatchObject({
      'toolmark.confirm_id': confirmId,
      'toolmark.confirmation': 'approved',
      'toolmark.status': 'ok',
    })
    expect(decision.links[0].context.spanId).toBe(asking.spanContext().spanId)
    expect(decision.attributes['toolmark.call_id']).toBe(asking.attributes['toolmark.call_id'])
    expect(t.openSpans()).toEqual([])
  })

  it('ends the spans of overlapping calls cancelled by their signals, each once', async () => {
    const t = telemetry()
    const tm = createToolmark()
    tm.use(otel({ tracer: t.tracer }))
    tm.register({
      name: 'slow',
      description: 'Waits for its signal',
      run: (_input, ctx) =>
        new Promise((resolve) =>
          ctx.signal.addEventListener('abort', () => resolve(ok('stopped'))),
        ),
    })
    const a = new AbortController()
    const b = new AbortController()
    const first = tm.call('slow', {}, { signal: a.signal })
    const second = tm.call('slow', {}, { signal: b.signal })
    await sleep(5)
    b.abort()
    a.abort()
    await Promise.all([first, second])
    const slow = t.spans().filter((s) => s.name === 'execute_tool slow')
    expect(slow).toHaveLength(2)
    expect(new Set(slow.map((s) => s.attributes['toolmark.call_id'])).size).toBe(2)
    expect(t.openSpans()).toEqual([])
  })

  it('ends the span of a run abandoned after the abort grace', async () => {
    const t = telemetry()
    const tm = createToolmark({ limits: { abortGraceMs: 20 } })
    tm.use(otel({ tracer: t.tracer }))
    let release!: () => void
    tm.register({
      name: 'stuck',
      description: 'Ignores its signal',
      run: () => new Promise((resolve) => (release = () => resolve(ok('late')))),
    })
    const controller = new AbortController()
    const call = tm.call('stuck', {}, { signal: controller.signal })
    await sleep(5)
    controller.abort()
    expect(await call).toEqual({ status: 'cancelled', by: 'signal' })
    expect(t.span('execute_tool stuck').attributes['toolmark.cancelled.by']).toBe('signal')
    expect(t.openSpans()).toEqual([])
    release()
  })

  it('ends the span when the tool unmounts while its call waits for a person', async () => {
    const t = telemetry()
    const tm = createTestToolmark({ answer: 'ignore' })
    tm.use(otel({ tracer: t.tracer }))
    const handle = tm.register({
      name: 'close',
      description: 'Closes',
      hints: { consequential: true },
      summary: () => 'Close it',
      run: () => ok('closed'),
    })
    const inline = tm.call('close', {}, { caller: 'mcp' })
    const deferred = await tm.call('close', {}, { caller: 'inapp' })
    expect(deferred.status).toBe('needs_confirmation')
    await sleep(5)
    expect(t.openSpans()).toHaveLength(2)

    handle.dispose()

    expect(await inline).toEqual({ status: 'cancelled', by: 'policy' })
    await sleep(5)
    const inlineSpan = t
      .spans()
      .find((s) => s.name === 'execute_tool close' && s.attributes['toolmark.caller'] === 'mcp')!
    expect(inlineSpan.attributes['toolmark.confirmation']).toBe('withdrawn')
    expect(t.span('toolmark.confirmation close').attributes['toolmark.confirmation']).toBe(
      'withdrawn',
    )
    expect(t.openSpans()).toEqual([])
  })

  it('ends the span of a deferred confirmation that expires', async () => {
    const t = telemetry()
    const tm = createTestToolmark({ limits: { confirmationExpiryMs: 30 } })
    tm.use(otel({ tracer: t.tracer }))
    tm.register({
      name: 'close',
      description: 'Closes',
      hints: { consequential: true },
      summary: () => 'Close it',
      run: () => ok('closed'),
    })
    const asked = await tm.call('close', {}, { caller: 'inapp' })
    expect(asked.status).toBe('needs_confirmation')
    expect(t.openSpans()).toHaveLength(1)
    await sleep(80)
    expect(tm.confirmations.list()).toEqual([])
    expect(t.span('toolmark.confirmation close').attributes['toolmark.confirmation']).toBe(
      'expired',
    )
    expect(t.openSpans()).toEqual([])
  })

  it('ends the span when an inline confirmation expires', async () => {
    const t = telemetry()
    const tm = createTestToolmark({ answer: 'ignore', limits: { confirmationExpiryMs: 30 } })
    tm.use(otel({ tracer: t.tracer }))
    tm.register({
      name: 'close',
      description: 'Closes',
      hints: { consequential: true },
      summary: () => 'Close it',
      run: () => ok('closed'),
    })
    const result = await tm.call('close', {}, { caller: 'webmcp' })
    expect(result).toMatchObject({ status: 'refused', code: 'confirmation_expired' })
    await sleep(5)
    const span = t.span('execute_tool close')
    expect(eventNames(span)).toEqual([
      'toolmark.confirmation.requested',
      'toolmark.confirmation.expired',
    ])
    expect(t.openSpans()).toEqual([])
  })

  it('ends every open span when detached', async () => {
    const t = telemetry()
    const tm = createToolmark()
    const detach = tm.use(otel({ tracer: t.tracer }))
    let release!: () => void
    tm.register({
      name: 'slow',
      description: 'Waits',
      run: () => new Promise((resolve) => (release = () => resolve(ok(1)))),
    })
    const call = tm.call('slow')
    await sleep(5)
    detach()
    expect(t.span('execute_tool slow').attributes['toolmark.status']).toBe('detached')
    release()
    await call
    expect(t.spans()).toHaveLength(1) // the result after detaching makes no second span
    expect(t.openSpans()).toEqual([])
  })

  it('records payloads only when asked: the input redacted, the result masked, both cut', async () => {
    const t = telemetry()
    const tm = createToolmark()
    tm.use(otel({ tracer: t.tracer, recordPayloads: { maxLength: 80 } }))
    tm.register({
      name: 'login',
      description: 'Logs in',
      sensitive: ['password'],
      input: z.object({ user: z.string(), password: z.string() }),
      run: (input) => ok({ user: input.user, sessionToken: 'tok-123', note: 'x'.repeat(200) }),
    })
    await tm.call('login', { user: 'ada', password: 'hunter2' })
    const span = t.span('execute_tool login')
    expect(span.attributes['toolmark.input']).toBe('{"user":"ada","password":"[redacted]"}')
    const result = String(span.attributes['toolmark.result'])
    expect(result).toContain('"sessionToken":"[redacted]"')
    expect(result).not.toContain('tok-123')
    expect(result).toHaveLength(81)
    expect(result.endsWith('…')).toBe(true)
  })

  it("writes the payloads under the conventions' opt-in names too, redacted the same way", async () => {
    const t = telemetry()
    const tm = createTestToolmark()
    tm.use(otel({ tracer: t.tracer, recordPayloads: true }))
    tm.register({
      name: 'login',
      description: 'Logs in',
      sensitive: ['password'],
      input: z.object({ user: z.string(), password: z.string() }),
      run: (input) => ok({ user: input.user, sessionToken: 'tok-123' }),
    })
    tm.register({
      name: 'boom',
      description: 'Fails',
      input: z.object({ token: z.string() }),
      run: () => errorResult('nope'),
    })
    tm.register({
      name: 'close',
      description: 'Closes',
      hints: { consequential: true },
      summary: () => 'Close it',
      input: z.object({ id: z.number(), apiKey: z.string() }),
      run: ({ id }) => ok({ id, token: 't-1' }),
    })

    await tm.call('login', { user: 'ada', password: 'hunter2' })
    await tm.call('boom', { token: 't-2' })
    const asked = await tm.call('close', { id: 7, apiKey: 'k-3' }, { caller: 'inapp' })
    await tm.confirmations.approve(asked.status === 'needs_confirmation' ? asked.confirmId : '')

    const login = t.span('execute_tool login').attributes
    expect(login['gen_ai.tool.call.arguments']).toBe('{"user":"ada","password":"[redacted]"}')
    expect(login['gen_ai.tool.call.arguments']).toBe(login['toolmark.input'])
    // The conventions' result is what the run returned: the data, masked as in toolmark.result.
    expect(login['gen_ai.tool.call.result']).toBe('{"user":"ada","sessionToken":"[redacted]"}')
    expect(JSON.parse(String(login['toolmark.result'])).data).toEqual(
      JSON.parse(String(login['gen_ai.tool.call.result'])),
    )
    // A failure returned no result: only Toolmark's own says how it ended.
    const boom = t.span('execute_tool boom').attributes
    expect(boom['gen_ai.tool.call.arguments']).toBe('{"token":"[redacted]"}')
    expect(boom['gen_ai.tool.call.result']).toBeUndefined()
    expect(JSON.parse(String(boom['toolmark.result']))).toMatchObject({ status: 'error' })
    // The asking span has the arguments and no result; the approved run's has the result.
    const [asking, approved] = t.spans().filter((s) => s.name === 'execute_tool close')
    expect(asking.attributes['gen_ai.tool.call.arguments']).toBe('{"id":7,"apiKey":"[redacted]"}')
    expect(asking.attributes['gen_ai.tool.call.result']).toBeUndefined()
    expect(approved.attributes['gen_ai.tool.call.result']).toBe('{"id":7,"token":"[redacted]"}')
    for (const span of t.spans()) {
      for (const clear of ['hunter2', 'tok-123', 't-1', 't-2', 'k-3']) {
        expect(JSON.stringify(span.attributes)).not.toContain(`"${clear}"`)
      }
    }
  })

  it('redacts secret-looking input names as it masks them in results: one redaction for both', async () => {
    const t = telemetry()
    const tm = createToolmark()
    tm.use(otel({ tracer: t.tracer, recordPayloads: true }))
    tm.register({
      name: 'connect',
      description: 'Connects an integration',
      input: z.object({
        user: z.string(),
        apiKey: z.string(),
        token: z.string(),
        password: z.string(),
        secret: z.string(),
        nested: z.object({ client_secret: z.string() }),
      }),
      run: (input) => ok({ ...input }),
    })
    const input = {
      user: 'ada',
      apiKey: 'k-1',
      token: 't-2',
      password: 'p-3',
      secret: 's-4',
      nested: { client_secret: 'c-5' },
    }
    await tm.call('connect', input)
    const span = t.span('execute_tool connect')
    const recorded = [
      String(span.attributes['toolmark.input']),
      String(span.attributes['toolmark.result']),
    ]
    for (const text of recorded) {
      for (const clear of ['k-1', 't-2', 'p-3', 's-4', 'c-5']) expect(text).not.toContain(clear)
      expect(text).toContain('"user":"ada"')
    }
    expect(JSON.parse(recorded[0]!)).toEqual({
      user: 'ada',
      apiKey: '[redacted]',
      token: '[redacted]',
      password: '[redacted]',
      secret: '[redacted]',
      nested: { client_secret: '[redacted]' },
    })
    expect(JSON.parse(recorded[1]!).data).toEqual(JSON.parse(recorded[0]!))
  })

  it('keeps a __proto__ key of a payload a plain property, masked like any other', async () => {
    const t = telemetry()
    const tm = createToolmark()
    tm.use(otel({ tracer: t.tracer, recordPayloads: true }))
    tm.register({ name: 'echo', description: 'Echoes', run: (input) => ok(input) })
    await tm.call('echo', JSON.parse('{"__proto__":{"token":"t-9"},"a":1}'))
    const text = String(t.span('execute_tool echo').attributes['toolmark.input'])
    expect(text).toBe('{"__proto__":{"token":"[redacted]"},"a":1}')
    expect(({} as Record<string, unknown>).token).toBeUndefined()
  })

  it('throws the fix in development and reports consumer_threw in production for a bad tracer', () => {
    const dev = createToolmark({ dev: true })
    expect(() => dev.use(otel({ tracer: {} as Tracer }))).toThrow(/trace\.getTracer/)
    const prod = createToolmark({ dev: false })
    const errors: ErrorEvent[] = []
    prod.events.on('error', (e) => errors.push(e))
    prod.use(otel({ tracer: {} as Tracer }))
    expect(errors.map((e) => e.code)).toEqual(['consumer_threw'])
  })
})
