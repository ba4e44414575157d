import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base'
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics'
import { createToolmark, ok } from '../../src/index'
import { otel } from '../../src/otel'

/** A metric reader the test collects from on demand. */
class OnDemandReader extends MetricReader {
  protected async onShutdown() {}
  protected async onForceFlush() {}
}

/** The real SDK: every finished span, and the metrics' data points on demand. */
function telemetry() {
  const exporter = new InMemorySpanExporter()
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
  const tracer = provider.getTracer('toolmark-test')
  const reader = new OnDemandReader()
  const meter = new MeterProvider({ readers: [reader] }).getMeter('toolmark-test')
  const spans = () => exporter.getFinishedSpans()
  const points = async (metric: string) => {
    const { resourceMetrics } = await reader.collect()
    const found = resourceMetrics.scopeMetrics
      .flatMap((scope) => scope.metrics)
      .find((m) => m.descriptor.name === metric)
    return found ? found.dataPoints : []
  }
  return { tracer, meter, spans, points }
}

const randomName = () => `probe.${Math.random().toString(36).slice(2)}`

describe('otel() with tool names an agent makes up', () => {
  it('records 500 unknown names as one value in metrics, span names and attributes', async () => {
    const t = telemetry()
    const tm = createToolmark()
    tm.use(otel({ tracer: t.tracer, meter: t.meter }))
    tm.register({ name: 'tickets.search', description: 'Searches', run: () => ok([]) })

    const names = Array.from({ length: 500 }, randomName)
    const results = await Promise.all(names.map((n) => tm.call(n, {}, { caller: 'webmcp' })))
    await tm.call('tickets.search', {}, { caller: 'webmcp' })

    expect(new Set(results.map((r) => r.status === 'refused' && r.code))).toEqual(
      new Set(['unknown_tool']),
    )
    const calls = await t.points('toolmark.calls')
    expect(new Set(calls.map((p) => p.attributes['toolmark.tool']))).toEqual(
      new Set(['_OTHER', 'tickets.search']),
    )
    const unknown = calls.find((p) => p.attributes['toolmark.tool'] === '_OTHER')
    expect(unknown?.value).toBe(500)
    const durations = await t.points('toolmark.call.duration')
    expect(new Set(durations.map((p) => p.attributes['toolmark.tool']))).toEqual(
      new Set(['_OTHER', 'tickets.search']),
    )
    const spans = t.spans()
    expect(spans).toHaveLength(501)
    expect(new Set(spans.map((s) => s.name))).toEqual(
      new Set(['execute_tool _OTHER', 'execute_tool tickets.search']),
    )
    for (const key of ['gen_ai.tool.name', 'toolmark.tool']) {
      expect(new Set(spans.map((s) => s.attributes[key]))).toEqual(
        new Set(['_OTHER', 'tickets.search']),
      )
    }
    // No made-up name is anywhere in what was recorded.
    const recorded = JSON.stringify([calls, durations, spans.map((s) => [s.name, s.attributes])])
    for (const name of names) expect(recorded).not.toContain(name)
  })

  it('records a tool gone since the agent read the manifest (stale) as the same value', async () => {
    const t = telemetry()
    const tm = createToolmark()
    tm.use(otel({ tracer: t.tracer, meter: t.meter }))
    const rev = tm.manifest().rev
    tm.register({ name: 'tickets.search', description: 'Searches', run: () => ok([]) })
    await Promise.resolve()

    const result = await tm.call(randomName(), {}, { caller: 'webmcp', rev })

    expect(result).toMatchObject({ status: 'refused', code: 'stale' })
    const calls = await t.points('toolmark.calls')
    expect(calls.map((p) => p.attributes['toolmark.tool'])).toEqual(['_OTHER'])
    expect(t.spans().map((s) => s.name)).toEqual(['execute_tool _OTHER'])
  })

  it('keeps the name of a registered tool the caller may not see, and of one that unmounts mid-call', async () => {
    const t = telemetry()
    const tm = createToolmark()
    tm.use(otel({ tracer: t.tracer, meter: t.meter }))
    const admin = tm.scope('admin', { when: false })
    const purge = { name: 'purge', description: 'Deletes closed tickets', run: () => ok(true) }
    tm.register(purge, { scope: admin })
    let finish!: () => void
    const handle = tm.register({
      name: 'tickets.export',
      description: 'Exports tickets',
      run: () => new Promise((resolve) => (finish = () => resolve(ok('done')))),
    })

    // A closed scope hides its tools: refused unknown_tool, but the app chose the name.
    const hidden = await tm.call('admin.purge', {}, { caller: 'webmcp' })
    const running = tm.call('tickets.export', {}, { caller: 'webmcp' })
    await new Promise((r) => setTimeout(r, 0))
    handle.dispose()
    finish()
    await running

    expect(hidden).toMatchObject({ status: 'refused', code: 'unknown_tool' })
    const calls = await t.points('toolmark.calls')
    expect(calls.map((p) => p.attributes['toolmark.tool']).sort()).toEqual([
      'admin.purge',
      'tickets.export',
    ])
    const names = t.spans().map((s) => s.name)
    expect(names.sort()).toEqual(['execute_tool admin.purge', 'execute_tool tickets.export'])
  })
})
