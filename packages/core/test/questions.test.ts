import { z } from 'zod'
import {
  createToolmark,
  questions,
  grants,
  ok,
  type ConfirmEvent,
  type ErrorEvent,
  type JsonSchema,
  type QuestionAnswer,
  type StandardSchemaV1,
  type Toolmark,
} from '../src/index'
import { questionFormOf, questionsEnabled } from '../src/observers/questionsEnabled'
import { createTestToolmark } from '../src/testing'

const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve()
}

const printer = z.object({
  floor: z.number().int().min(0),
  model: z.enum(['laser', 'inkjet']),
  urgent: z.boolean(),
  note: z.string().trim().optional(),
})

/** A tool that asks one question in its run and returns what it heard. */
const registerAsking = (
  tm: Toolmark,
  schema: StandardSchemaV1 | JsonSchema = printer,
  extra: Record<string, unknown> = {},
) => {
  const answers: QuestionAnswer[] = []
  tm.register({
    name: 'tickets.file',
    title: 'File ticket',
    description: 'Files a ticket, asking for what it lacks',
    run: async (_input, ctx) => {
      const answer = await ctx.ask({ prompt: 'Which printer is it?', schema })
      answers.push(answer)
      return ok(answer.answered ? { filed: answer.value } : { skipped: answer.reason })
    },
    ...extra,
  })
  return answers
}

describe('questions()', () => {
  it('brings the question code: without it, no presenter answers no_presenter', async () => {
    const tm = createToolmark()
    const answers = registerAsking(tm)
    expect(await tm.call('tickets.file', {}, { caller: 'webmcp' })).toMatchObject({
      status: 'ok',
      data: { skipped: 'no_presenter' },
    })
    expect(answers).toEqual([{ answered: false, reason: 'no_presenter' }])
  })

  it('with a raw presenter and no questions(): development rejects naming the fix, production fails closed', async () => {
    const tm = createToolmark()
    const thrown: ErrorEvent[] = []
    tm.events.on('error', (e) => thrown.push(e))
    tm.confirmations.attachPresenter()
    registerAsking(tm)
    expect(await tm.call('tickets.file', {}, { caller: 'mcp' })).toMatchObject({
      status: 'error',
    })
    expect(thrown.map((e) => e.code)).toEqual(['tool_threw'])
    expect(String((thrown[0].cause as Error).message)).toMatch(
      /confirm: \{ questions: questions\(\) \}/,
    )
    const errors: ErrorEvent[] = []
    const prod = createToolmark({ dev: false })
    prod.events.on('error', (e) => errors.push(e))
    prod.confirmations.attachPresenter()
    const answers = registerAsking(prod)
    expect(await prod.call('tickets.file', {}, { caller: 'mcp' })).toMatchObject({
      status: 'ok',
      data: { skipped: 'invalid_question' },
    })
    expect(answers).toEqual([{ answered: false, reason: 'invalid_question' }])
    expect(errors.map((e) => [e.code, e.tool])).toEqual([['question_invalid', 'tickets.file']])
    expect(prod.confirmations.list()).toEqual([])
  })

  it('is given at creation and holds the form a presenter draws with', async () => {
    const form = { drawn: 'by the dialog' }
    const tm = createToolmark({ confirm: { questions: questions({ form }) } })
    expect(questionsEnabled(tm)).toBe(true)
    expect(questionFormOf(tm)).toBe(form)
    expect(questionsEnabled(createToolmark())).toBe(false)
    expect(questionFormOf(createToolmark({ confirm: { questions: questions() } }))).toBeUndefined()
    expect(() => createToolmark({ confirm: { questions: grants() as never } })).toThrow(
      /confirm\.questions must come from questions\(\) of @toolmark\/core/,
    )
  })
})

describe('ctx.ask', () => {
  it('files a question entry and goes on with the parsed answer, whatever the caller', async () => {
    const tm = createToolmark({ confirm: { questions: questions() } })
    tm.confirmations.attachPresenter()
    const events: ConfirmEvent[] = []
    tm.events.on('confirm', (e) => events.push(e))
    const answers = registerAsking(tm)
    // `inapp` confirmations are deferred by default: a question still waits inline.
    const pending = tm.call('tickets.file', {}, { caller: 'inapp' })
    await flush()
    const [entry] = tm.confirmations.list()
    expect(entry).toMatchObject({
      tool: 'tickets.file',
      title: 'File ticket',
      caller: 'inapp',
      mode: 'inline',
      summary: 'Which printer is it?',
      question: { prompt: 'Which printer is it?' },
    })
    expect(entry.question!.schema).toMatchObject({
      type: 'object',
      properties: { model: { enum: ['laser', 'inkjet'] }, urgent: { type: 'boolean' } },
    })
    expect(Object.isFrozen(entry.question!.schema)).toBe(true)
    const answered = await tm.confirmations.answer(entry.id, {
      floor: 2,
      model: 'laser',
      urgent: false,
      note: '  paper jam  ',
    })
    expect(answered).toEqual({ status: 'ok', data: null })
    expect(await pending).toEqual({
      status: 'ok',
      data: { filed: { floor: 2, model: 'laser', urgent: false, note: 'paper jam' } },
    })
    expect(answers).toHaveLength(1)
    expect(events.map((e) => [e.status, e.by])).toEqual([
      ['pending', undefined],
      ['approved', 'api'],
    ])
    // The answer itself stays out of events.
    expect(events[1].result).toEqual({ status: 'ok', data: null })
    expect(tm.confirmations.list()).toEqual([])
  })

  it('keeps an invalid answer pending with its issues, then takes a valid one', async () => {
    const tm = createToolmark({ confirm: { questions: questions() } })
    tm.confirmations.attachPresenter()
    const answers = registerAsking(tm, {
      type: 'object',
      properties: { floor: { type: 'integer', minimum: 0 }, name: { type: 'string' } },
      required: ['floor'],
      additionalProperties: false,
    })
    const pending = tm.call('tickets.file', {}, { caller: 'mcp' })
    await flush()
    const [entry] = tm.confirmations.list()
    const wrong = await tm.confirmations.answer(entry.id, { floor: -1, extra: true })
    expect(wrong.status).toBe('invalid')
    const paths = (wrong as { issues: { path: string }[] }).issues.map((i) => i.path).sort()
    expect(paths).toEqual(['extra', 'floor'])
    expect(tm.confirmations.list().map((e) => e.id)).toEqual([entry.id])
    expect(await tm.confirmations.answer(entry.id, { floor: 3 })).toEqual({
      status: 'ok',
      data: null,
    })
    expect(await pending).toEqual({ status: 'ok', data: { filed: { floor: 3 } } })
    expect(answers).toEqual([{ answered: true, value: { floor: 3 } }])
  })

  it('asks for a single value with a JSON Schema enum', async () => {
    const tm = createToolmark({ confirm: { questions: questions() } })
    tm.confirmations.attachPresenter()
    const answers = registerAsking(tm, { enum: ['low', 'high'], title: 'Priority' })
    const pending = tm.call('tickets.file')
    await flush()
    const [entry] = tm.confirmations.list()
    expect((await tm.confirmations.answer(entry.id, 'urgent')).status).toBe('invalid')
    await tm.confirmations.answer(entry.id, 'high')
    await pending
    expect(answers).toEqual([{ answered: true, value: 'high' }])
  })

  it('refuses approve on a question and answer on a confirmation, leaving both pending', async () => {
    const tm = createToolmark({ confirm: { questions: questions() } })
    tm.confirmations.attachPresenter()
    registerAsking(tm)
    // Another scope, so the close does not queue behind the run that asks.
    tm.register(
      {
        name: 'close',
        description: 'Closes a ticket',
        hints: { consequential: true },
        summary: () => 'Close it',
        run: () => ok('closed'),
      },
      { scope: tm.scope('desk') },
    )
    const asking = tm.call('tickets.file')
    const closing = tm.call('desk.close', {}, { caller: 'mcp' })
    await flush()
    const [question, confirmation] = tm.confirmations.list()
    expect(question.question).toBeDefined()
    expect(confirmation.question).toBeUndefined()
    expect(await tm.confirmations.approve(question.id)).toMatchObject({
      status: 'refused',
      code: 'answer_required',
    })
    expect(await tm.confirmations.answer(confirmation.id, 'yes')).toMatchObject({
      status: 'refused',
      code: 'not_a_question',
    })
    expect(tm.confirmations.list()).toHaveLength(2)
    await tm.confirmations.approve(confirmation.id)
    await tm.confirmations.answer(question.id, { floor: 1, model: 'inkjet', urgent: true })
    expect(await closing).toEqual({ status: 'ok', data: 'closed' })
    expect((await asking).status).toBe('ok')
  })

  it('is never grantable: a grant asked with it is refused and the question stays', async () => {
    const tm = createToolmark({ confirm: { questions: questions() } })
    tm.confirmations.attachPresenter()
    registerAsking(tm, { enum: ['low', 'high'] })
    const asking = tm.call('tickets.file', {}, { caller: 'mcp' })
    await flush()
    const [question] = tm.confirmations.list()
    expect(question.grantable).toBeUndefined()
    expect(question.verify).toBeUndefined()
    expect(
      await tm.confirmations.approve(question.id, { grant: { for: 'session' } }),
    ).toMatchObject({ status: 'refused', code: 'answer_required' })
    expect(tm.confirmations.grants()).toEqual([])
    expect(tm.confirmations.list()).toHaveLength(1)
    // Approving many with the question among them answers it with the same refusal, per entry.
    expect(await tm.confirmations.approveMany([question.id])).toEqual([
      { id: question.id, result: expect.objectContaining({ code: 'answer_required' }) },
    ])
    await tm.confirmations.answer(question.id, 'low')
    expect(await asking).toEqual({ status: 'ok', data: { filed: 'low' } })
  })

  it('resolves declined when the person rejects, and the run goes on', async () => {
    const tm = createToolmark({ confirm: { questions: questions() } })
    tm.confirmations.attachPresenter()
    const answers = registerAsking(tm)
    const pending = tm.call('tickets.file')
    await flush()
    const id = tm.confirmations.list()[0].id
    expect(await tm.confirmations.reject(id)).toEqual({ status: 'cancelled', by: 'operator' })
    expect(await pending).toEqual({ status: 'ok', data: { skipped: 'declined' } })
    expect(answers).toEqual([{ answered: false, reason: 'declined' }])
  })

  it('takes exactly one of two answers given at once', async () => {
    const tm = createToolmark({ confirm: { questions: questions() } })
    tm.confirmations.attachPresenter()
    const events: ConfirmEvent[] = []
    tm.events.on('confirm', (e) => events.push(e))
    const answers = registerAsking(tm)
    const pending = tm.call('tickets.file')
    await flush()
    const id = tm.confirmations.list()[0].id
    const [first, second, third] = await Promise.all([
      tm.confirmations.answer(id, { floor: 1, model: 'laser', urgent: true }),
      tm.confirmations.answer(id, { floor: 9, model: 'inkjet', urgent: false }),
      tm.confirmations.reject(id),
    ])
    expect(first).toEqual({ status: 'ok', data: null })
    expect(second).toMatchObject({ status: 'refused', code: 'confirmation_expired' })
    expect(third).toMatchObject({ status: 'refused', code: 'confirmation_expired' })
    await pending
    expect(answers).toEqual([{ answered: true, value: { floor: 1, model: 'laser', urgent: true } }])
    expect(events.filter((e) => e.status !== 'pending')).toHaveLength(1)
    // A late answer after the end is refused too.
    expect(
      await tm.confirmations.answer(id, { floor: 1, model: 'laser', urgent: true }),
    ).toMatchObject({
      code: 'confirmation_expired',
    })
  })

  it('lets an invalid and a valid answer given at once settle one after the other', async () => {
    const tm = createToolmark({ confirm: { questions: questions() } })
    tm.confirmations.attachPresenter()
    const answers = registerAsking(tm)
    const pending = tm.call('tickets.file')
    await flush()
    const id = tm.confirmations.list()[0].id
    const [bad, late] = await Promise.all([
      tm.confirmations.answer(id, { floor: 'two' }),
      tm.confirmations.answer(id, { floor: 2, model: 'laser', urgent: true }),
    ])
    // The first is being checked when the second comes: the second is refused, never run twice.
    expect(bad.status).toBe('invalid')
    expect(late).toMatchObject({ code: 'confirmation_expired' })
    expect(tm.confirmations.list()).toHaveLength(1)
    await tm.confirmations.answer(id, { floor: 2, model: 'laser', urgent: true })
    await pending
    expect(answers).toEqual([{ answered: true, value: { floor: 2, model: 'laser', urgent: true } }])
  })

  it('refuses an answer that is not a plain value, and keeps the question', async () => {
    const tm = createToolmark({ confirm: { questions: questions() } })
    tm.confirmations.attachPresenter()
    registerAsking(tm, { type: 'string' })
    void tm.call('tickets.file')
    await flush()
    const id = tm.confirmations.list()[0].id
    expect(await tm.confirmations.answer(id, () => 'x')).toEqual({
      status: 'invalid',
      issues: [{ path: '', message: 'The answer must be a plain value' }],
    })
    expect(tm.confirmations.get(id)).toBeDefined()
    await tm.confirmations.reject(id)
  })

  it('resolves no_presenter at once when nobody can be asked', async () => {
    const tm = createToolmark({ confirm: { questions: questions() } })
    const answers = registerAsking(tm)
    expect(await tm.call('tickets.file')).toEqual({
      status: 'ok',
      data: { skipped: 'no_presenter' },
    })
    expect(answers).toEqual([{ answered: false, reason: 'no_presenter' }])
    expect(tm.confirmations.list()).toEqual([])
  })

  it('ends cancelled on Stop while the person thinks', async () => {
    const tm = createToolmark({ confirm: { questions: questions() } })
    tm.confirmations.attachPresenter()
    const answers = registerAsking(tm)
    const pending = tm.call('tickets.file', {}, { caller: 'webmcp' })
    await flush()
    const id = tm.confirmations.list()[0].id
    tm.cancelAll()
    // The run hears it and reports what it did (here: nothing).
    expect(await pending).toEqual({ status: 'ok', data: { skipped: 'cancelled' } })
    expect(answers).toEqual([{ answered: false, reason: 'cancelled' }])
    expect(tm.confirmations.list()).toEqual([])
    expect(
      await tm.confirmations.answer(id, { floor: 1, model: 'laser', urgent: true }),
    ).toMatchObject({
      code: 'confirmation_expired',
    })
  })

  it('ends no_presenter when the last dialog goes away, and frees the scope at once', async () => {
    const tm = createToolmark({ confirm: { questions: questions() } })
    const detach = tm.confirmations.attachPresenter()
    const answers = registerAsking(tm)
    const heard: unknown[] = []
    tm.register({
      name: 'tickets.merge',
      description: 'Merges tickets, asking first',
      run: async (_input, ctx) => {
        heard.push(await ctx.confirm({ summary: 'Merge them?' }))
        return ok('merged')
      },
    })
    tm.register({ name: 'tickets.count', description: 'Counts', run: () => ok(3) })
    const asking = tm.call('tickets.file', {}, { caller: 'webmcp' })
    await flush()
    expect(tm.confirmations.list()).toHaveLength(1)
    // A remount (StrictMode, a route change) keeps the question.
    detach()
    const again = tm.confirmations.attachPresenter()
    await flush()
    expect(tm.confirmations.list()).toHaveLength(1)

    again()
    expect(await asking).toEqual({ status: 'ok', data: { skipped: 'no_presenter' } })
    expect(answers).toEqual([{ answered: false, reason: 'no_presenter' }])
    expect(tm.confirmations.list()).toEqual([])
    // The scope is free: the next call of the same scope runs now.
    expect(await tm.call('tickets.count', {}, { caller: 'webmcp' })).toEqual({
      status: 'ok',
      data: 3,
    })

    // ctx.confirm the same way.
    const last = tm.confirmations.attachPresenter()
    const merging = tm.call('tickets.merge', {}, { caller: 'webmcp' })
    await flush()
    last()
    expect(await merging).toEqual({ status: 'ok', data: 'merged' })
    expect(heard).toEqual([{ approved: false, reason: 'no_presenter' }])
  })

  it('ends cancelled when the caller aborts its signal', async () => {
    const tm = createToolmark({ confirm: { questions: questions() } })
    tm.confirmations.attachPresenter()
    const answers = registerAsking(tm)
    const abort = new AbortController()
    const pending = tm.call('tickets.file', {}, { caller: 'mcp', signal: abort.signal })
    await flush()
    abort.abort()
    expect(await pending).toEqual({ status: 'ok', data: { skipped: 'cancelled' } })
    expect(answers).toEqual([{ answered: false, reason: 'cancelled' }])
    expect(tm.confirmations.list()).toEqual([])
  })

  it('ends cancelled when the tool goes away', async () => {
    const tm = createToolmark({ confirm: { questions: questions() } })
    tm.confirmations.attachPresenter()
    const answers: QuestionAnswer[] = []
    const handle = tm.register({
      name: 'ask',
      description: 'Asks',
      run: async (_input, ctx) => {
        answers.push(await ctx.ask({ prompt: 'Name?', schema: { type: 'string' } }))
        return ok(null)
      },
    })
    const pending = tm.call('ask')
    await flush()
    handle.dispose()
    await pending
    expect(answers).toEqual([{ answered: false, reason: 'cancelled' }])
  })

  it('counts toward the pending limit: past its share of a full list a question is busy, nothing evicted', async () => {
    const tm = createToolmark({
      confirm: { questions: questions() },
      limits: { pendingConfirmations: 1 },
    })
    tm.confirmations.attachPresenter()
    const answers = registerAsking(tm, { type: 'string' })
    tm.register(
      {
        name: 'other',
        description: 'Asks too',
        run: async (_input, ctx) =>
          ok(await ctx.ask({ prompt: 'Why?', schema: { type: 'string' } })),
      },
      { scope: tm.scope('desk') },
    )
    const first = tm.call('tickets.file')
    await flush()
    // The same caller asks again with the list full: nothing is filed and the first stays.
    expect(await tm.call('desk.other')).toEqual({
      status: 'ok',
      data: { answered: false, reason: 'busy' },
    })
    const [left] = tm.confirmations.list()
    expect(left.summary).toBe('Which printer is it?')
    await tm.confirmations.answer(left.id, 'laser')
    expect(await first).toEqual({ status: 'ok', data: { filed: 'laser' } })
    expect(answers).toEqual([{ answered: true, value: 'laser' }])
  })

  describe('with fake timers', () => {
    beforeEach(() => {
      vi.useFakeTimers()
    })
    afterEach(() => {
      vi.useRealTimers()
    })

    it('expires like a confirmation, and a later answer is refused', async () => {
      const tm = createToolmark({
        confirm: { questions: questions() },
        limits: { confirmationExpiryMs: 1_000 },
      })
      tm.confirmations.attachPresenter()
      const answers = registerAsking(tm)
      const pending = tm.call('tickets.file')
      await vi.advanceTimersByTimeAsync(0)
      const id = tm.confirmations.list()[0].id
      await vi.advanceTimersByTimeAsync(1_000)
      expect(await pending).toEqual({ status: 'ok', data: { skipped: 'expired' } })
      expect(answers).toEqual([{ answered: false, reason: 'expired' }])
      expect(
        await tm.confirmations.answer(id, { floor: 1, model: 'laser', urgent: true }),
      ).toMatchObject({ status: 'refused', code: 'confirmation_expired' })
    })

    it('refuses an answer that comes after the expiry, before the timer swept it', async () => {
      const tm = createToolmark({
        confirm: { questions: questions() },
        limits: { confirmationExpiryMs: 1_000 },
      })
      tm.confirmations.attachPresenter()
      const answers = registerAsking(tm)
      const pending = tm.call('tickets.file')
      await vi.advanceTimersByTimeAsync(0)
      const id = tm.confirmations.list()[0].id
      // The clock moves without the timers firing.
      vi.setSystemTime(Date.now() + 1_500)
      expect(
        await tm.confirmations.answer(id, { floor: 1, model: 'laser', urgent: true }),
      ).toMatchObject({ code: 'confirmation_expired' })
      await pending
      expect(answers).toEqual([{ answered: false, reason: 'expired' }])
    })

    it('does not count the time the person takes toward the deadline', async () => {
      const tm = createToolmark({ confirm: { questions: questions() } })
      tm.confirmations.attachPresenter()
      tm.register({
        name: 'ask',
        description: 'Asks, then works',
        timeoutMs: 1_000,
        run: async (_input, ctx) => {
          const answer = await ctx.ask({ prompt: 'How many?', schema: { type: 'integer' } })
          await new Promise((resolve) => setTimeout(resolve, 600))
          return ok(answer)
        },
      })
      const pending = tm.call('ask')
      await vi.advanceTimersByTimeAsync(5_000)
      const [entry] = tm.confirmations.list()
      await tm.confirmations.answer(entry.id, 4)
      await vi.advanceTimersByTimeAsync(600)
      expect(await pending).toEqual({ status: 'ok', data: { answered: true, value: 4 } })
    })

    it('ends an answer whose check never settles when the question expires', async () => {
      const tm = createToolmark({
        confirm: { questions: questions() },
        limits: { confirmationExpiryMs: 1_000 },
      })
      tm.confirmations.attachPresenter()
      const hanging: StandardSchemaV1 = {
        '~standard': {
          version: 1,
          vendor: 'test',
          validate: () => new Promise(() => {}),
          jsonSchema: { input: () => ({ type: 'string' }) },
        },
      }
      const answers = registerAsking(tm, hanging)
      const pending = tm.call('tickets.file')
      await vi.advanceTimersByTimeAsync(0)
      const answering = tm.confirmations.answer(tm.confirmations.list()[0].id, 'x')
      await vi.advanceTimersByTimeAsync(1_000)
      expect(await answering).toMatchObject({ code: 'confirmation_expired' })
      await pending
      expect(answers).toEqual([{ answered: false, reason: 'expired' }])
    })
  })

  it('reports a question schema that throws, and keeps the question pending', async () => {
    const tm = createToolmark({ confirm: { questions: questions() } })
    tm.confirmations.attachPresenter()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    let calls = 0
    const flaky: StandardSchemaV1 = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: (value) => {
          if (calls++ === 0) throw new Error('boom')
          return { value }
        },
        jsonSchema: { input: () => ({ type: 'string' }) },
      },
    }
    const answers = registerAsking(tm, flaky)
    const pending = tm.call('tickets.file')
    await flush()
    const id = tm.confirmations.list()[0].id
    expect(await tm.confirmations.answer(id, 'x')).toEqual({
      status: 'error',
      message: 'Tool failed',
    })
    expect(errors.map((e) => [e.code, e.tool])).toEqual([['tool_threw', 'tickets.file']])
    expect(await tm.confirmations.answer(id, 'y')).toEqual({ status: 'ok', data: null })
    await pending
    expect(answers).toEqual([{ answered: true, value: 'y' }])
  })

  describe('questions a dialog cannot ask', () => {
    const unsupported: [string, unknown][] = [
      [
        'a nested object',
        { type: 'object', properties: { a: { type: 'object', properties: {} } } },
      ],
      ['an array', { type: 'array', items: { type: 'string' } }],
      ['an anyOf', { anyOf: [{ type: 'string' }, { type: 'number' }] }],
      ['a nullable field', { type: 'object', properties: { a: { type: ['string', 'null'] } } }],
      ['a zod nested object', z.object({ a: z.object({ b: z.string() }) })],
      ['a zod array', z.array(z.string())],
    ]

    it.each(unsupported)('rejects %s in development with the fix', async (_what, schema) => {
      const tm = createToolmark({ confirm: { questions: questions() }, dev: true })
      tm.confirmations.attachPresenter()
      const errors: ErrorEvent[] = []
      tm.events.on('error', (e) => errors.push(e))
      registerAsking(tm, schema as JsonSchema)
      expect(await tm.call('tickets.file')).toEqual({ status: 'error', message: 'Tool failed' })
      expect(errors.map((e) => e.code)).toEqual(['tool_threw'])
      expect(String((errors[0].cause as Error).message)).toMatch(
        /ctx\.ask\(\) in "tickets\.file".*a dialog asks for a string, number, integer or boolean, an enum of those, or a flat object/,
      )
      expect(tm.confirmations.list()).toEqual([])
    })

    it('resolves invalid_question in production, with a question_invalid event', async () => {
      const tm = createToolmark({ confirm: { questions: questions() }, dev: false })
      tm.confirmations.attachPresenter()
      const errors: ErrorEvent[] = []
      tm.events.on('error', (e) => errors.push(e))
      const answers = registerAsking(tm, { type: 'array', items: { type: 'string' } })
      expect(await tm.call('tickets.file')).toEqual({
        status: 'ok',
        data: { skipped: 'invalid_question' },
      })
      expect(answers).toEqual([{ answered: false, reason: 'invalid_question' }])
      expect(errors.map((e) => [e.code, e.tool])).toEqual([['question_invalid', 'tickets.file']])
      expect(tm.confirmations.list()).toEqual([])
    })

    it('rejects a question without a prompt or a schema', async () => {
      const tm = createToolmark({ confirm: { questions: questions() }, dev: false })
      tm.confirmations.attachPresenter()
      const answers: unknown[] = []
      tm.register({
        name: 'ask',
        description: 'Asks badly',
        run: async (_input, ctx) => {
          answers.push(await ctx.ask({ prompt: '', schema: { type: 'string' } }))
          answers.push(await ctx.ask({ prompt: 'Name?' } as never))
          answers.push(await ctx.ask(null as never))
          return ok(null)
        },
      })
      await tm.call('ask')
      expect(answers).toEqual([
        { answered: false, reason: 'invalid_question' },
        { answered: false, reason: 'invalid_question' },
        { answered: false, reason: 'invalid_question' },
      ])
    })
  })

  it('infers the answer type from a Standard Schema', async () => {
    const tm = createToolmark({ confirm: { questions: questions() } })
    tm.confirmations.attachPresenter()
    tm.register({
      name: 'typed',
      description: 'Types its answer',
      run: async (_input, ctx) => {
        const answer = await ctx.ask({ prompt: 'Floor?', schema: z.number() })
        // A number, by inference: `toFixed` exists.
        return ok(answer.answered ? answer.value.toFixed(1) : null)
      },
    })
    const pending = tm.call('typed')
    await flush()
    await tm.confirmations.answer(tm.confirmations.list()[0].id, 3)
    expect(await pending).toEqual({ status: 'ok', data: '3.0' })
  })
})

describe('createTestToolmark with questions', () => {
  it('answers a question with { answer }, and says approve cannot', async () => {
    const tm = createTestToolmark({
      answer: (entry) =>
        entry.question ? { answer: { floor: 1, model: 'laser', urgent: false } } : 'approve',
    })
    const answers = registerAsking(tm)
    expect(await tm.call('tickets.file', {}, { caller: 'test' })).toEqual({
      status: 'ok',
      data: { filed: { floor: 1, model: 'laser', urgent: false } },
    })
    expect(answers).toHaveLength(1)

    tm.setAnswer('approve')
    const pending = tm.call('tickets.file', {}, { caller: 'test' })
    await vi.waitFor(() => expect(tm.recorder.answers.size).toBe(2))
    const [entry] = tm.confirmations.list()
    expect(tm.recorder.answers.get(entry.id)).toMatchObject({
      status: 'refused',
      code: 'answer_required',
    })
    await tm.confirmations.reject(entry.id)
    expect(await pending).toEqual({ status: 'ok', data: { skipped: 'declined' } })
  })
})

describe('answers to a JSON Schema question', () => {
  it('are checked for type, bounds, enum, required and unknown fields', async () => {
    const tm = createToolmark({ confirm: { questions: questions() } })
    tm.confirmations.attachPresenter()
    const answers = registerAsking(tm, {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 2, maxLength: 5, pattern: '^[a-z]+$' },
        count: { type: 'integer', minimum: 1, exclusiveMaximum: 10 },
        ratio: { type: 'number' },
        ok: { type: 'boolean' },
        size: { enum: ['s', 'm', 1] },
        kind: { const: 'printer' },
      },
      required: ['name', 'count'],
      additionalProperties: false,
    })
    const pending = tm.call('tickets.file')
    await flush()
    const id = tm.confirmations.list()[0].id
    const issuesOf = async (value: unknown) => {
      const result = await tm.confirmations.answer(id, value)
      return result.status === 'invalid' ? result.issues : result
    }
    expect(await issuesOf([])).toEqual([{ path: '', message: 'Expected an object' }])
    expect(await issuesOf({})).toEqual([
      { path: 'name', message: 'Required' },
      { path: 'count', message: 'Required' },
    ])
    expect(
      await issuesOf({
        name: 'x',
        count: 1.5,
        ratio: 'a',
        ok: 'yes',
        size: 2,
        kind: 'scanner',
        more: 1,
      }),
    ).toEqual([
      { path: 'name', message: 'At least 2 characters' },
      { path: 'count', message: 'Expected a whole number' },
      { path: 'ratio', message: 'Expected a number' },
      { path: 'ok', message: 'Expected true or false' },
      { path: 'size', message: 'Choose one of "s", "m", 1' },
      { path: 'kind', message: 'Must be "printer"' },
      { path: 'more', message: 'Not asked for' },
    ])
    expect(await issuesOf({ name: 'Abc', count: 10 })).toEqual([
      { path: 'name', message: 'Not in the expected form' },
      { path: 'count', message: 'Less than 10' },
    ])
    expect(await issuesOf({ name: 'abcdef', count: 0 })).toEqual([
      { path: 'name', message: 'At most 5 characters' },
      { path: 'count', message: 'At least 1' },
    ])
    expect(await issuesOf({ name: 'abc', count: 9, size: 1, ok: true })).toEqual({
      status: 'ok',
      data: null,
    })
    await pending
    expect(answers).toEqual([
      { answered: true, value: { name: 'abc', count: 9, size: 1, ok: true } },
    ])
  })
})
