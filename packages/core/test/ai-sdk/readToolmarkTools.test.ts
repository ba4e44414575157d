import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readToolmarkTools } from '@toolmark/core/ai-sdk'

const fill = {
  name: 'ticket.fill',
  llmName: 'ticket__fill',
  description: 'Fills the ticket form.',
  hints: { untrustedContent: true },
  inputSchema: { type: 'object', properties: { title: { type: 'string' } } },
}

const post = (body: unknown, init: RequestInit = {}) =>
  new Request('http://localhost/api/chat', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  })

const body = (tools: unknown) => ({ id: 'chat-1', messages: [], toolmark: tools })

describe('readToolmarkTools', () => {
  it('reads a request and checks the tools it carries', async () => {
    const read = await readToolmarkTools(post(body({ tools: [fill] })))
    expect(read).toEqual({
      ok: true,
      body: { id: 'chat-1', messages: [], toolmark: { tools: [fill] } },
      manifest: { tools: [fill] },
    })
  })

  it('reads a body the server already parsed', async () => {
    const read = await readToolmarkTools(body({ tools: [fill] }))
    expect(read).toMatchObject({ ok: true, manifest: { tools: [fill] } })
  })

  it('treats a body without the field as carrying no tools', async () => {
    expect(await readToolmarkTools(post({ messages: [] }))).toMatchObject({
      ok: true,
      manifest: { tools: [] },
    })
  })

  it('drops hints that are false and copies schemas', async () => {
    const posted = { ...fill, hints: { readOnly: false, untrustedContent: true } }
    const read = await readToolmarkTools(body({ tools: [posted] }))
    if (!read.ok) throw new Error(read.error.message)
    expect(read.manifest.tools[0].hints).toEqual({ untrustedContent: true })
    expect(read.manifest.tools[0].inputSchema).not.toBe(posted.inputSchema)
  })

  it('answers 400 body_too_large from the declared length without reading the body', async () => {
    const request = post(body({ tools: [fill] }), {
      headers: { 'content-type': 'application/json', 'content-length': '99999999' },
    })
    const read = await readToolmarkTools(request, { maxBodyBytes: 1_000 })
    expect(read).toEqual({
      ok: false,
      status: 400,
      error: { code: 'body_too_large', message: 'The body is over 1000 bytes' },
    })
    expect(request.bodyUsed).toBe(false)
  })

  it('stops reading a streamed body once it passes the limit', async () => {
    let pulled = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++
        controller.enqueue(new TextEncoder().encode('['.repeat(1_000)))
        if (pulled > 10_000) controller.close()
      },
    })
    const request = new Request('http://localhost/api/chat', {
      method: 'POST',
      body: stream,
      duplex: 'half',
    } as RequestInit)
    const read = await readToolmarkTools(request, { maxBodyBytes: 50_000 })
    expect(read).toMatchObject({ ok: false, status: 400, error: { code: 'body_too_large' } })
    expect(pulled).toBeLessThan(100)
  })

  it('answers 400 body_too_deep before parsing', async () => {
    const deep = '{"a":'.repeat(100) + '1' + '}'.repeat(100)
    expect(await readToolmarkTools(post(deep))).toMatchObject({
      ok: false,
      status: 400,
      error: { code: 'body_too_deep' },
    })
    let value: unknown = 1
    for (let i = 0; i < 100; i++) value = { a: value }
    expect(await readToolmarkTools(value)).toMatchObject({ error: { code: 'body_too_deep' } })
  })

  it('answers 400 not_json for text that is not JSON or not an object', async () => {
    for (const text of ['{"messages": [', 'hello', '[1,2]', '"text"', 'null', '']) {
      expect(await readToolmarkTools(post(text))).toMatchObject({
        ok: false,
        status: 400,
        error: { code: 'not_json' },
      })
    }
    expect(await readToolmarkTools({ at: new Date() })).toMatchObject({
      error: { code: 'not_json' },
    })
    expect(await readToolmarkTools(undefined)).toMatchObject({ error: { code: 'not_json' } })
  })

  it.each([
    ['a list that is not an object', 'tools', 'toolmark: expected an object'],
    ['an unknown key beside tools', { tools: [], extra: 1 }, 'toolmark.extra: unexpected key'],
    ['tools that are not an array', { tools: {} }, 'toolmark.tools: expected an array'],
    [
      'an unknown key in a tool',
      { tools: [{ ...fill, run: 'x' }] },
      'toolmark.tools.0.run: unexpected key',
    ],
    [
      'a bad name',
      { tools: [{ ...fill, name: 'a b' }] },
      'toolmark.tools.0.name: expected a tool name',
    ],
    [
      'an llmName other than the derived one',
      { tools: [{ ...fill, llmName: 'other' }] },
      'toolmark.tools.0.llmName: expected "ticket__fill"',
    ],
    [
      'a missing description',
      { tools: [{ ...fill, description: 3 }] },
      'toolmark.tools.0.description: expected a string',
    ],
    [
      'an unknown hint',
      { tools: [{ ...fill, hints: { admin: true } }] },
      'toolmark.tools.0.hints.admin: unknown hint',
    ],
    [
      'a hint that is not a boolean',
      { tools: [{ ...fill, hints: { readOnly: 'yes' } }] },
      'toolmark.tools.0.hints.readOnly: expected a boolean',
    ],
    [
      'a schema that is not an object',
      { tools: [{ ...fill, inputSchema: [] }] },
      'toolmark.tools.0.inputSchema: expected an object',
    ],
    ['the same tool twice', { tools: [fill, fill] }, 'toolmark.tools.1.name: listed twice'],
  ])('answers 400 invalid_tools for %s', async (_label, tools, message) => {
    expect(await readToolmarkTools(post(body(tools)))).toEqual({
      ok: false,
      status: 400,
      error: { code: 'invalid_tools', message },
    })
  })

  it('bounds the tool list: count, bytes, depth and description length', async () => {
    const many = Array.from({ length: 129 }, (_, i) => ({
      ...fill,
      name: `t${i}`,
      llmName: `t${i}`,
    }))
    expect(await readToolmarkTools(body({ tools: many }))).toMatchObject({
      error: { code: 'invalid_tools', message: 'toolmark.tools: more than 128 tools' },
    })
    expect(
      await readToolmarkTools(body({ tools: many.slice(0, 10) }), { maxTools: 5 }),
    ).toMatchObject({ error: { message: 'toolmark.tools: more than 5 tools' } })

    const long = { ...fill, description: 'x'.repeat(4_097) }
    expect(await readToolmarkTools(body({ tools: [long] }))).toMatchObject({
      error: { message: 'toolmark.tools.0.description: longer than 4096 characters' },
    })

    const big = { ...fill, inputSchema: { type: 'object', description: 'x'.repeat(300_000) } }
    expect(await readToolmarkTools(body({ tools: [big] }))).toMatchObject({
      error: { code: 'invalid_tools', message: 'toolmark: tool list too large' },
    })

    let schema: Record<string, unknown> = { type: 'string' }
    for (let i = 0; i < 40; i++) schema = { type: 'array', items: schema }
    expect(
      await readToolmarkTools(body({ tools: [{ ...fill, inputSchema: schema }] })),
    ).toMatchObject({
      error: { code: 'invalid_tools', message: 'toolmark: tool list too deep' },
    })
  })

  it('accepts tools named like Object.prototype keys without touching prototypes', async () => {
    const tools = ['constructor', '__proto__', 'toString'].map((name) => ({
      name,
      llmName: name,
      description: 'A tool.',
      hints: {},
    }))
    const read = await readToolmarkTools(post(body({ tools })))
    expect(read).toMatchObject({ ok: true })
    expect(({} as Record<string, unknown>).description).toBeUndefined()
  })

  it('never throws and answers ok or a typed 400 for any JSON value', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 6 }), async (value) => {
        const asBody = await readToolmarkTools(value)
        const asField = await readToolmarkTools(post({ messages: [], toolmark: value }))
        for (const read of [asBody, asField]) {
          if (read.ok) continue
          expect(read.status).toBe(400)
          expect(['body_too_large', 'body_too_deep', 'not_json', 'invalid_tools']).toContain(
            read.error.code,
          )
        }
      }),
      { numRuns: 300 },
    )
  })
})
