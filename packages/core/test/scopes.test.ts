import { createToolmark, ok, type ConfirmEvent, type ErrorEvent, type Toolmark } from '../src/index'

const tool = (name: string) => ({ name, description: `The ${name} tool`, run: () => ok(name) })
const names = (tm: Toolmark, caller?: 'inapp' | 'mcp') =>
  tm.manifest({ caller }).tools.map((t) => t.name)

describe('scopes', () => {
  it('prefixes the names of its tools with its path', () => {
    const tm = createToolmark()
    const tickets = tm.scope('tickets')
    expect(tickets.path).toBe('tickets')
    const handle = tm.register(tool('close'), { scope: tickets })
    expect(handle.name).toBe('tickets.close')
    expect(names(tm)).toEqual(['tickets.close'])
  })

  it('nests: a child scope’s path adds its name to the parent’s', async () => {
    const tm = createToolmark()
    const edit = tm.scope('tickets').scope('edit')
    expect(edit.path).toBe('tickets.edit')
    tm.register(tool('save'), { scope: edit })
    expect(names(tm)).toEqual(['tickets.edit.save'])
    expect(await tm.call('tickets.edit.save', {})).toEqual({ status: 'ok', data: 'save' })
  })

  it('groups without adding a name segment when transparent', () => {
    const tm = createToolmark()
    const tickets = tm.scope('tickets')
    const group = tickets.scope('group', { transparent: true })
    expect(group.path).toBe('tickets')
    tm.register(tool('close'), { scope: group })
    expect(names(tm)).toEqual(['tickets.close'])
  })

  it('hides its tools from manifests, describe and calls while when is false', async () => {
    const tm = createToolmark()
    const admin = tm.scope('admin', { when: false })
    tm.register(tool('reset'), { scope: admin })
    tm.register(tool('visible'))
    expect(names(tm)).toEqual(['visible'])
    expect(tm.describe('admin.reset')).toBeUndefined()
    expect(await tm.call('admin.reset', {})).toMatchObject({
      status: 'refused',
      code: 'unknown_tool',
    })
    admin.setWhen(true)
    expect(names(tm)).toEqual(['admin.reset', 'visible'])
    expect(await tm.call('admin.reset', {})).toEqual({ status: 'ok', data: 'reset' })
  })

  it('hides a nested scope’s tools when an ancestor’s when is false', () => {
    const tm = createToolmark()
    const parent = tm.scope('parent')
    const child = parent.scope('child')
    tm.register(tool('x'), { scope: child })
    parent.setWhen(false)
    expect(names(tm)).toEqual([])
    parent.setWhen(true)
    expect(names(tm)).toEqual(['parent.child.x'])
  })

  it('bumps rev when when changes, and not when it is set to the same value', async () => {
    const tm = createToolmark()
    const scope = tm.scope('s')
    tm.register(tool('x'), { scope })
    await Promise.resolve()
    expect(tm.rev).toBe(1)
    scope.setWhen(true)
    await Promise.resolve()
    expect(tm.rev).toBe(1)
    scope.setWhen(false)
    await Promise.resolve()
    expect(tm.rev).toBe(2)
  })

  it('removes its tools and sub-scopes’ tools when disposed', async () => {
    const tm = createToolmark()
    const tickets = tm.scope('tickets')
    tm.register(tool('close'), { scope: tickets })
    tm.register(tool('save'), { scope: tickets.scope('edit') })
    tm.register(tool('other'))
    tickets.dispose()
    tickets.dispose()
    expect(names(tm)).toEqual(['other'])
    expect(await tm.call('tickets.close', {})).toMatchObject({ code: 'unknown_tool' })
    expect(() => tm.register(tool('close'))).not.toThrow()
  })

  it('withdraws pending confirmations of its tools when disposed: deferred and inline end cancelled policy', async () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    const confirms: ConfirmEvent[] = []
    tm.events.on('confirm', (e) => confirms.push(e))
    const scope = tm.scope('tickets')
    const run = vi.fn(() => ok(null))
    tm.register(
      { name: 'close', description: 'Closes', hints: { consequential: true }, run },
      { scope },
    )
    const deferred = await tm.call('tickets.close', {}, { caller: 'inapp' })
    expect(deferred.status).toBe('needs_confirmation')
    const inline = tm.call('tickets.close', {}, { caller: 'mcp' })
    await Promise.resolve()
    expect(tm.confirmations.list()).toHaveLength(2)
    scope.dispose()
    expect(await inline).toEqual({ status: 'cancelled', by: 'policy' })
    expect(tm.confirmations.list()).toEqual([])
    const confirmId = (deferred as { confirmId: string }).confirmId
    expect(await tm.confirmations.approve(confirmId)).toMatchObject({
      code: 'confirmation_expired',
    })
    expect(run).not.toHaveBeenCalled()
    expect(confirms.filter((e) => e.status === 'withdrawn').map((e) => e.result)).toEqual([
      { status: 'cancelled', by: 'policy' },
      { status: 'cancelled', by: 'policy' },
    ])
  })

  it('drops the undo entries of its tools when disposed', async () => {
    const tm = createToolmark()
    const scope = tm.scope('s')
    const restore = vi.fn(() => ok('restored'))
    const callIds: string[] = []
    tm.register(
      {
        name: 'write',
        description: 'Writes',
        run: (_input, ctx) => {
          callIds.push(ctx.callId)
          ctx.registerUndo(restore)
          return ok(null)
        },
      },
      { scope },
    )
    await tm.call('s.write', {})
    expect(tm.canUndo(callIds[0])).toBe(true)
    scope.dispose()
    expect(tm.canUndo(callIds[0])).toBe(false)
    expect(await tm.undo(callIds[0])).toMatchObject({ status: 'refused', code: 'undo_unavailable' })
    expect(restore).not.toHaveBeenCalled()
  })

  it('withdraws a queued call with cancelled policy when its scope’s when turns false', async () => {
    const tm = createToolmark()
    const scope = tm.scope('s')
    let finish!: () => void
    tm.register(
      {
        name: 'slow',
        description: 'Slow',
        run: () => new Promise((r) => (finish = () => r(ok(1)))),
      },
      { scope },
    )
    tm.register(tool('next'), { scope })
    const first = tm.call('s.slow', {})
    const queued = tm.call('s.next', {})
    await new Promise((r) => setTimeout(r, 0))
    scope.setWhen(false)
    expect(await queued).toEqual({ status: 'cancelled', by: 'policy' })
    finish()
    expect(await first).toEqual({ status: 'ok', data: 1 })
  })

  it('keeps a queued call when when flips false and back in the same tick', async () => {
    const tm = createToolmark()
    const scope = tm.scope('s')
    let finish!: () => void
    tm.register(
      {
        name: 'slow',
        description: 'Slow',
        run: () => new Promise((r) => (finish = () => r(ok(1)))),
      },
      { scope },
    )
    tm.register(tool('next'), { scope })
    void tm.call('s.slow', {})
    const queued = tm.call('s.next', {})
    await new Promise((r) => setTimeout(r, 0))
    scope.setWhen(false)
    scope.setWhen(true)
    await Promise.resolve()
    finish()
    expect(await queued).toEqual({ status: 'ok', data: 'next' })
  })

  it('throws in development on an invalid scope name or options, naming the fix', () => {
    const tm = createToolmark({ dev: true })
    expect(() => tm.scope('a.b')).toThrow(/Scope name "a.b" is invalid: use letters, digits/)
    expect(() => tm.scope('')).toThrow(/is invalid/)
    expect(() => tm.scope('s', { when: 'yes' as never })).toThrow(/non-boolean when/)
    expect(() => tm.scope('s').setWhen(1 as never)).toThrow(/setWhen\(\) takes a boolean/)
    const gone = tm.scope('gone')
    gone.dispose()
    expect(() => gone.scope('child')).toThrow(/inside a disposed scope/)
  })

  it('fails closed in production: an invalid scope registers nothing and reports invalid_scope', () => {
    const tm = createToolmark({ dev: false })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    const bad = tm.scope('a b')
    tm.register(tool('x'), { scope: bad })
    expect(names(tm)).toEqual([])
    expect(errors.map((e) => e.code)).toEqual(['invalid_scope', 'invalid_tool'])
  })

  it('refuses registration into a disposed scope', () => {
    const tm = createToolmark({ dev: true })
    const scope = tm.scope('s')
    scope.dispose()
    expect(() => tm.register(tool('x'), { scope })).toThrow(/registered in a disposed scope/)
  })
})
