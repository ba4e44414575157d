import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base'
import { z } from 'zod'
import { createToolmark, ok, type CallEvent, type Toolmark } from '../src/index'
import { addAnchorSource } from '../src/anchors/anchors'
import { lintManifest } from '../src/lint'
import { otel } from '../src/otel'
import { recordSession, type RecordedLine } from '../src/testing'
import { currentTour, registerTourTool } from '../src/tour'

/** The real SDK's tracer, keeping every finished span. */
function telemetry() {
  const exporter = new InMemorySpanExporter()
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
  const tracer = provider.getTracer('toolmark-test')
  const attribute = (name: string, key: string): unknown => {
    const found = exporter.getFinishedSpans().filter((s) => s.name === name)
    expect(found, `one span named ${name}`).toHaveLength(1)
    return found[0].attributes[key]
  }
  return { tracer, attribute }
}

/** A page with an account recovery (its `answer` secret) and a card form, and `tour.start`. */
function page(): Toolmark {
  const tm = createToolmark({ dev: true })
  tm.register({
    name: 'account.recover',
    description: 'Recovers an account with the answer to its security question.',
    sensitive: ['answer'],
    input: z.object({ user: z.string(), answer: z.string() }),
    run: () => ok({ recovered: true }),
  })
  tm.register({
    name: 'billing.card',
    description: 'Saves a card.',
    sensitive: ['card.cvc'],
    input: z.object({ card: z.object({ number: z.string(), cvc: z.string() }) }),
    run: () => ok({ saved: true }),
  })
  // A form's fill: its fields sit under `values`, and its anchor source says so.
  tm.register({
    name: 'profile.fill',
    description: 'Fills the profile form.',
    sensitive: ['values.answer'],
    input: z.object({ values: z.object({ name: z.string(), answer: z.string() }).partial() }),
    run: () => ok({ changes: [] }),
  })
  addAnchorSource(tm, 'profile.fill', {
    element: () => undefined,
    locate: () => undefined,
    inputFor: (param, value) => ({ values: { [param]: value } }),
  })
  registerTourTool(tm)
  return tm
}

const step = (more: Record<string, unknown>): Record<string, unknown> => ({
  title: 'Step',
  text: 'Do this.',
  ...more,
})

const tourInput = {
  mode: 'do',
  steps: [
    step({ tool: 'account.recover', field: 'answer', value: 'blue-whale-17' }),
    step({ tool: 'account.recover', field: 'user', value: 'ada' }),
    step({ tool: 'account.recover', input: { user: 'ada', answer: 'blue-whale-17' } }),
    step({ tool: 'billing.card', field: 'card', value: { number: '4242', cvc: '9731' } }),
    step({ tool: 'profile.fill', field: 'answer', value: 'blue-whale-17' }),
    step({ tool: 'profile.fill', field: 'name', value: 'Ada' }),
  ],
}

describe('a tour step writing to a sensitive field', () => {
  afterEach(() => vi.useRealTimers())

  it('is masked in the call event as its own tool would mask it, and nothing else is', async () => {
    vi.useFakeTimers()
    const tm = page()
    const calls: CallEvent[] = []
    tm.events.on('call', (e) => calls.push(e))

    const result = await tm.call('tour.start', tourInput, { caller: 'test' })
    currentTour(tm)?.stop()

    expect(result.status).toBe('ok')
    expect(calls[0].tool).toBe('tour.start')
    const steps = (calls[0].input as { steps: Record<string, unknown>[] }).steps
    expect(steps.map((s) => s.value ?? s.input)).toEqual([
      '[redacted]',
      'ada',
      { user: 'ada', answer: '[redacted]' },
      { number: '4242', cvc: '[redacted]' },
      '[redacted]',
      'Ada',
    ])
    // The tool's own input is never touched.
    expect(tourInput.steps[0].value).toBe('blue-whale-17')

    // What one input made secret is not kept for the next.
    const next = {
      mode: 'show',
      steps: [step({ tool: 'account.recover', field: 'user', value: 'ada' })],
    }
    await tm.call('tour.start', next, { caller: 'test' })
    currentTour(tm)?.stop()
    expect((calls[1].input as { steps: Record<string, unknown>[] }).steps[0].value).toBe('ada')
  })

  it('is masked in a recording and listed as withheld, so a replay asks for it', async () => {
    vi.useFakeTimers()
    const tm = page()
    const recording = recordSession(tm)

    await tm.call('tour.start', tourInput, { caller: 'test' })
    currentTour(tm)?.stop()
    recording.stop()

    expect(recording.text()).not.toContain('blue-whale-17')
    expect(recording.text()).not.toContain('9731')
    const line = recording.lines
      .map((l) => JSON.parse(l) as RecordedLine)
      .find((l) => l.type === 'call' && l.tool === 'tour.start')
    expect(line).toMatchObject({
      withheld: ['steps.0.value', 'steps.2.input.answer', 'steps.3.value.cvc', 'steps.4.value'],
    })
  })

  it('is masked in OpenTelemetry payloads', async () => {
    vi.useFakeTimers()
    const tm = page()
    const t = telemetry()
    tm.use(otel({ tracer: t.tracer, recordPayloads: { maxLength: 10_000 } }))

    await tm.call('tour.start', tourInput, { caller: 'test' })
    currentTour(tm)?.stop()

    const input = String(t.attribute('execute_tool tour.start', 'toolmark.input'))
    expect(input).not.toContain('blue-whale-17')
    expect(input).not.toContain('9731')
    expect(input).toContain('"value":"ada"')
    expect(input).toContain('"number":"4242"')
  })

  it('masks every step value of an input too large to look into', async () => {
    const tm = page()
    const calls: CallEvent[] = []
    tm.events.on('call', (e) => calls.push(e))
    const many = Array.from({ length: 80 }, () =>
      step({ tool: 'account.recover', field: 'user', value: 'ada' }),
    )

    const result = await tm.call('tour.start', { mode: 'do', steps: many }, { caller: 'test' })

    expect(result.status).toBe('invalid')
    const steps = (calls[0].input as { steps: Record<string, unknown>[] }).steps
    expect(new Set(steps.map((s) => s.value))).toEqual(new Set(['[redacted]']))
  })
})

describe('recorded payloads with credential headers', () => {
  it('mask Authorization, cookies, session and API-key headers in any case or spelling', async () => {
    const tm = createToolmark()
    const t = telemetry()
    tm.use(otel({ tracer: t.tracer, recordPayloads: { maxLength: 10_000 } }))
    tm.register({
      name: 'http.request',
      description: 'Sends a request for the page.',
      input: z.object({ url: z.string(), headers: z.record(z.string(), z.string()) }),
      run: () =>
        ok({
          status: 200,
          headers: {
            'Set-Cookie': 'sid=cookie-secret-2; HttpOnly',
            'content-type': 'application/json',
          },
        }),
    })
    const secrets = {
      Authorization: 'Bearer auth-secret-1',
      'proxy-authorization': 'Basic proxy-secret-3',
      Cookie: 'sid=cookie-secret-4',
      'X-API-KEY': 'key-secret-5',
      'Api-Key': 'key-secret-6',
      apikey: 'key-secret-7',
      'x-auth-token': 'token-secret-8',
      'X-Session-Id': 'session-secret-9',
      session: 'session-secret-10',
      sessionid: 'session-secret-11',
      x_session_user: 'session-secret-12',
      PHPSESSID: 'session-secret-13',
      x_auth: 'auth-secret-14',
    }

    const sent = await tm.call('http.request', {
      url: '/api/tickets',
      headers: { ...secrets, accept: 'application/json', 'x-request-id': 'r-1' },
    })

    expect(sent.status).toBe('ok')
    const span = 'execute_tool http.request'
    const input = String(t.attribute(span, 'toolmark.input'))
    const result = String(t.attribute(span, 'toolmark.result'))
    for (const secret of Object.values(secrets)) expect(input).not.toContain(secret)
    expect(result).not.toContain('cookie-secret-2')
    const headers = (JSON.parse(input) as { headers: Record<string, unknown> }).headers
    for (const name of Object.keys(secrets)) expect(headers[name]).toBe('[redacted]')
    expect(headers.accept).toBe('application/json')
    expect(headers['x-request-id']).toBe('r-1')
    expect(JSON.parse(result).data.headers['content-type']).toBe('application/json')
  })

  it('are flagged by the linter when a tool takes one without marking it sensitive', () => {
    const report = lintManifest({
      tools: [
        {
          name: 'http.request',
          description: 'Sends a request for the page with the headers given',
          sensitive: [],
          inputSchema: {
            type: 'object',
            properties: {
              url: { type: 'string', description: 'Where to' },
              authorization: { type: 'string', description: 'The header' },
              author: { type: 'string', description: 'Who asks' },
            },
          },
        },
      ],
    })
    const unmarked = report.findings.filter((f) => f.rule === 'sensitive-unmarked')
    expect(unmarked.map((f) => f.path)).toEqual(['authorization'])
  })
})
