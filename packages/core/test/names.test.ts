import { createToolmark, isToolName, ok, toLlmName, type ErrorEvent } from '../src/index'

const tool = (name: string) => ({ name, description: 'A tool', run: () => ok(null) })

describe('tool names', () => {
  it('accepts segments of letters, digits, "_" and "-" joined by dots', () => {
    for (const name of ['a', 'tickets.close', 'Ticket_2.re-open', 'a.b.c.d', 'x'.repeat(128)]) {
      expect(isToolName(name)).toBe(true)
    }
  })

  it('rejects empty segments, other characters, over-long names and non-strings', () => {
    for (const name of [
      '',
      '.',
      'a.',
      '.a',
      'a..b',
      'a b',
      'a/b',
      'tickets:close',
      'é',
      'x'.repeat(129),
    ]) {
      expect(isToolName(name)).toBe(false)
    }
    for (const name of [undefined, null, 1, {}, ['a']]) expect(isToolName(name)).toBe(false)
  })

  it('throws in development on an invalid name, naming the fix', () => {
    const tm = createToolmark({ dev: true })
    expect(() => tm.register(tool('a b'))).toThrow(
      /Tool name "a b" is invalid: use segments of letters, digits, "_" or "-"/,
    )
  })

  it('rejects an invalid name in production with an invalid_tool event', async () => {
    const tm = createToolmark({ dev: false })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    const handle = tm.register(tool('a b'))
    expect(errors.map((e) => e.code)).toEqual(['invalid_tool'])
    expect(tm.manifest().tools).toEqual([])
    expect(() => handle.dispose()).not.toThrow()
  })
})

describe('llmName', () => {
  it('replaces dots with double underscores', () => {
    expect(toLlmName('tickets.close')).toBe('tickets__close')
    expect(toLlmName('a.b.c')).toBe('a__b__c')
    expect(toLlmName('plain')).toBe('plain')
  })

  it('keeps a name of exactly 64 characters as it is', () => {
    const name = 'x'.repeat(64)
    expect(toLlmName(name)).toBe(name)
  })

  it('cuts a longer name to 64 characters ending in a short stable hash', () => {
    const long = `${'section.'.repeat(12)}action`
    const llm = toLlmName(long)
    expect(llm).toHaveLength(64)
    expect(llm).toMatch(/^[A-Za-z0-9_-]+_[0-9a-f]{8}$/)
    expect(toLlmName(long)).toBe(llm)
    expect(toLlmName(`${long}2`)).not.toBe(llm)
    expect(llm.startsWith('section__section__')).toBe(true)
  })

  it('gives two long names that share their first 64 characters different llmNames', () => {
    const stem = 'a'.repeat(70)
    expect(toLlmName(`${stem}.one`)).not.toBe(toLlmName(`${stem}.two`))
  })

  it('appears in every manifest entry', () => {
    const tm = createToolmark()
    tm.register(tool('tickets.close'))
    expect(tm.manifest().tools[0]).toMatchObject({
      name: 'tickets.close',
      llmName: 'tickets__close',
    })
    expect(tm.describe('tickets.close')?.llmName).toBe('tickets__close')
  })
})

describe('duplicate names', () => {
  it('throws in development when a full name is registered twice, naming the fix', () => {
    const tm = createToolmark({ dev: true })
    tm.register(tool('tickets.close'))
    expect(() => tm.register(tool('tickets.close'))).toThrow(
      /Tool "tickets.close" is already registered.*dispose the first registration or rename one/,
    )
  })

  it('throws in development when two names share an llmName', () => {
    const tm = createToolmark({ dev: true })
    tm.register(tool('a.b'))
    expect(() => tm.register(tool('a__b'))).toThrow(/same llmName "a__b" as "a.b"/)
  })

  it('counts a scoped tool’s full name when looking for duplicates', () => {
    const tm = createToolmark({ dev: true })
    tm.register(tool('tickets.close'))
    const scope = tm.scope('tickets')
    expect(() => tm.register(tool('close'), { scope })).toThrow(/already registered/)
  })

  it('rejects the second registration in production with a duplicate_tool event; the first stays', async () => {
    const tm = createToolmark({ dev: false })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    const first = vi.fn(() => ok('first'))
    const second = vi.fn(() => ok('second'))
    tm.register({ name: 'dup', description: 'First', run: first })
    const handle = tm.register({ name: 'dup', description: 'Second', run: second })
    tm.register(tool('d.up'))
    tm.register(tool('d__up'))
    expect(errors.map((e) => [e.code, e.tool])).toEqual([
      ['duplicate_tool', 'dup'],
      ['duplicate_tool', 'd__up'],
    ])
    expect(await tm.call('dup', {})).toEqual({ status: 'ok', data: 'first' })
    expect(second).not.toHaveBeenCalled()
    handle.dispose()
    expect(await tm.call('dup', {})).toEqual({ status: 'ok', data: 'first' })
    expect(tm.manifest().tools.map((t) => t.name)).toEqual(['d.up', 'dup'])
  })

  it('frees the name when the first registration is disposed', () => {
    const tm = createToolmark({ dev: true })
    tm.register(tool('once')).dispose()
    expect(() => tm.register(tool('once'))).not.toThrow()
    tm.register(tool('x.y')).dispose()
    expect(() => tm.register(tool('x__y'))).not.toThrow()
  })
})
