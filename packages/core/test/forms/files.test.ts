import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createToolmark, type FilesOptions } from '../../src/index'
import { createFormTools, fileFields, filePreview, type FileFieldRules } from '../../src/forms'
import { memoryForm } from './memoryForm'

const ticketSchema = z.object({
  title: z.string(),
  attachment: z.any(),
  photos: z.any(),
})

const png = (name = 'screen.png', bytes = 10) =>
  new File([new Uint8Array(bytes)], name, { type: 'image/png', lastModified: 1 })

function setup(
  files: FilesOptions | undefined,
  rules: Record<string, FileFieldRules> = {
    attachment: { accept: ['image/*', '.pdf'], maxBytes: 1000 },
    photos: { multiple: true, maxFiles: 2, accept: 'image/png' },
  },
) {
  const tm = createToolmark({ files })
  const form = memoryForm({ title: '', attachment: null as unknown, photos: [] as unknown[] })
  const tools = createFormTools(tm, form.adapter, {
    name: 'ticket',
    description: 'The new-ticket form.',
    schema: ticketSchema,
    files: fileFields(rules),
  })
  return { tm, form, tools }
}

// A real HTTP server on 127.0.0.1: every rule of the URL fetch meets real sockets.
let server: Server
let origin = ''
const hits: string[] = []
const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  '/receipt.pdf': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': '5' })
    res.end('%PDF-')
  },
  '/named': (_req, res) => {
    res.writeHead(200, {
      'content-type': 'image/png',
      'content-disposition': 'attachment; filename="../../etc/.pass|wd.png"',
    })
    res.end('png!')
  },
  '/hidden-name': (_req, res) => {
    // A zero-width space, a word joiner and a right-to-left override, percent-encoded.
    res.writeHead(200, {
      'content-type': 'application/pdf',
      'content-disposition':
        "attachment; filename*=UTF-8''re%E2%80%8Bceipt%E2%81%A0%E2%80%AEfdp.pdf",
    })
    res.end('%PDF-')
  },
  '/redirect': (_req, res) => {
    res.writeHead(302, { location: `${origin}/receipt.pdf` })
    res.end()
  },
  '/big-declared': (_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': '5000' })
    res.end(Buffer.alloc(5000))
  },
  '/big-streamed': (_req, res) => {
    // No Content-Length: chunked, so only counting while streaming can stop it.
    res.writeHead(200, { 'content-type': 'image/png' })
    let sent = 0
    const tick = () => {
      if (sent >= 100_000 || res.destroyed) return res.end()
      sent += 500
      res.write(Buffer.alloc(500), () => setTimeout(tick, 1))
    }
    tick()
  },
  '/page.html': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end('<html></html>')
  },
  '/slow': (_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png' })
    res.write('a')
    const timer = setTimeout(() => res.end('b'), 5_000)
    res.on('close', () => clearTimeout(timer))
  },
  '/missing': (_req, res) => {
    res.writeHead(404)
    res.end()
  },
}

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(
      `${req.url} cookie=${req.headers.cookie ?? ''} auth=${req.headers.authorization ?? ''}`,
    )
    const route = routes[req.url ?? '']
    if (route) route(req, res)
    else {
      res.writeHead(404)
      res.end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

describe('file fields: { ref }', () => {
  it('attaches a file the app resolves and shows only its name, size and type', async () => {
    const file = png()
    const resolve = vi.fn(async (ref: string) => (ref === 'paste-1' ? file : undefined))
    const { tm, form } = setup({ resolve })

    const result = await tm.call('ticket.fill', {
      values: { title: 'Broken screen', attachment: { ref: 'paste-1' } },
    })

    expect(result).toEqual({
      status: 'ok',
      data: {
        changes: [
          {
            path: 'attachment',
            after: { file: { name: 'screen.png', size: 10, type: 'image/png' } },
          },
          { path: 'title', after: 'Broken screen' },
        ],
        skipped: [],
      },
    })
    expect(form.values.attachment).toBe(file)
    expect(resolve).toHaveBeenCalledWith('paste-1', { signal: expect.any(AbortSignal) })
  })

  it('undo puts the previous file back', async () => {
    const first = png('first.png')
    const second = png('second.png', 20)
    const { tm, form } = setup({ resolve: (ref) => (ref === 'a' ? first : second) })

    await tm.call('ticket.fill', { values: { attachment: { ref: 'a' } } })
    const events: unknown[] = []
    tm.events.on('result', (e) => events.push(e.result))
    const ids: string[] = []
    tm.events.on('call', (e) => ids.push(e.callId))
    const replaced = await tm.call('ticket.fill', { values: { attachment: { ref: 'b' } } })
    expect(replaced).toMatchObject({
      data: {
        changes: [
          {
            path: 'attachment',
            before: { file: { name: 'first.png', size: 10, type: 'image/png' } },
            after: { file: { name: 'second.png', size: 20, type: 'image/png' } },
          },
        ],
      },
    })
    expect(form.values.attachment).toBe(second)

    const undone = await tm.undo(ids[0])
    expect(undone).toMatchObject({
      status: 'ok',
      data: {
        changes: [
          {
            path: 'attachment',
            before: { file: { name: 'second.png' } },
            after: { file: { name: 'first.png' } },
          },
        ],
      },
    })
    expect(form.values.attachment).toBe(first)
    // Events carry the descriptions too, never a File.
    expect(JSON.stringify(events)).toContain('"second.png"')
    expect(events.every((e) => !JSON.stringify(e).includes('{}'))).toBe(true)
  })

  it('refuses a ref the resolver rejects, naming the field and the rule, and writes nothing', async () => {
    const { tm, form } = setup({
      resolve: async (ref) => {
        if (ref === 'gone') return undefined
        throw new Error('network down')
      },
    })

    const unknown = await tm.call('ticket.fill', {
      values: { title: 'Keep out', attachment: { ref: 'gone' } },
    })
    expect(unknown).toEqual({
      status: 'refused',
      code: 'file_rejected',
      message: 'File field "attachment" rejected (ref): the app has no file "gone"',
    })
    const thrown = await tm.call('ticket.fill', { values: { attachment: { ref: 'boom' } } })
    expect(thrown).toMatchObject({
      code: 'file_rejected',
      message: expect.stringContaining('(ref)'),
    })
    expect(form.adapter.setValues).not.toHaveBeenCalled()
    expect(form.values.title).toBe('')
  })

  it('refuses an oversize or wrongly typed file, and a list for a single field', async () => {
    const files: Record<string, File> = {
      big: png('big.png', 2000),
      text: new File(['hi'], 'notes.txt', { type: 'text/plain' }),
      ok: png(),
    }
    const { tm, form } = setup({ resolve: (ref) => files[ref] })

    const big = await tm.call('ticket.fill', { values: { attachment: { ref: 'big' } } })
    expect(big).toMatchObject({
      code: 'file_rejected',
      message: 'File field "attachment" rejected (maxBytes): the file is 2 KB; at most 1000 B',
    })
    const text = await tm.call('ticket.fill', { values: { attachment: { ref: 'text' } } })
    expect(text).toMatchObject({
      code: 'file_rejected',
      message: expect.stringMatching(/"attachment" rejected \(accept\): text\/plain/),
    })
    const list = await tm.call('ticket.fill', {
      values: { attachment: [{ ref: 'ok' }, { ref: 'ok' }] },
    })
    expect(list).toMatchObject({
      code: 'file_rejected',
      message: expect.stringContaining('(multiple)'),
    })
    expect(form.adapter.setValues).not.toHaveBeenCalled()
  })

  it('takes a list for a multiple field, up to maxFiles, and rejects one bad file of several', async () => {
    const files: Record<string, File> = { a: png('a.png'), b: png('b.png'), c: png('c.jpg') }
    files.c = new File(['x'], 'c.jpg', { type: 'image/jpeg' })
    const { tm, form } = setup({ resolve: (ref) => files[ref] })

    const three = await tm.call('ticket.fill', {
      values: { photos: [{ ref: 'a' }, { ref: 'b' }, { ref: 'a' }] },
    })
    expect(three).toMatchObject({
      code: 'file_rejected',
      message: 'File field "photos" rejected (maxFiles): 3 files given; at most 2',
    })
    const oneBad = await tm.call('ticket.fill', {
      values: { title: 'x', photos: [{ ref: 'a' }, { ref: 'c' }] },
    })
    expect(oneBad).toMatchObject({
      code: 'file_rejected',
      message: expect.stringContaining('"photos" rejected (accept)'),
    })
    expect(form.adapter.setValues).not.toHaveBeenCalled()

    const two = await tm.call('ticket.fill', { values: { photos: [{ ref: 'a' }, { ref: 'b' }] } })
    expect(two).toMatchObject({
      status: 'ok',
      data: {
        changes: [
          {
            path: 'photos',
            after: [
              { file: { name: 'a.png', size: 10, type: 'image/png' } },
              { file: { name: 'b.png', size: 10, type: 'image/png' } },
            ],
          },
        ],
      },
    })
    expect(form.values.photos).toEqual([files.a, files.b])
    const cleared = await tm.call('ticket.fill', { values: { photos: null } })
    expect(cleared).toMatchObject({ status: 'ok' })
    expect(form.values.photos).toEqual([])
  })

  it('rejects values that are not { ref } or { url } as invalid input', async () => {
    const { tm } = setup({ resolve: () => png() })
    const result = await tm.call('ticket.fill', {
      values: { attachment: { ref: 'a', url: 'https://x.example/a' } },
    })
    expect(result).toMatchObject({
      status: 'invalid',
      issues: [{ path: 'values.attachment', message: expect.stringContaining('{ "ref": "…" }') }],
    })
    const text = await tm.call('ticket.fill', { values: { attachment: 'C:/secret.png' } })
    expect(text).toMatchObject({ status: 'invalid' })
  })

  it('refuses { ref } when the app resolves none, and { url } when no origin is allowed', async () => {
    const { tm } = setup(undefined)
    expect(await tm.call('ticket.fill', { values: { attachment: { ref: 'a' } } })).toMatchObject({
      code: 'file_rejected',
      message: expect.stringContaining('(ref)'),
    })
    expect(
      await tm.call('ticket.fill', { values: { attachment: { url: 'https://a.example/x.png' } } }),
    ).toMatchObject({ code: 'file_rejected', message: expect.stringContaining('(url)') })
  })

  it('advertises exactly the kinds of file values the app takes', () => {
    const schemaOf = (files: FilesOptions | undefined) =>
      (setup(files).tm.describe('ticket.fill')!.inputSchema as any).properties.values.properties
    const refOnly = schemaOf({ resolve: () => undefined })
    expect(refOnly.attachment).toMatchObject({
      type: 'object',
      required: ['ref'],
      additionalProperties: false,
      description: 'A file (types image/*, .pdf, at most 1000 B).',
    })
    expect(refOnly.photos).toMatchObject({
      type: 'array',
      maxItems: 2,
      items: { required: ['ref'] },
    })
    const both = schemaOf({ resolve: () => undefined, allowOrigins: ['https://files.example'] })
    expect(both.attachment.oneOf.map((s: any) => s.required[0])).toEqual(['ref', 'url'])
    const urlOnly = schemaOf({ allowOrigins: ['https://files.example'] })
    expect(urlOnly.attachment.required).toEqual(['url'])
  })

  it('shows files by description in the state tool and in the submit confirmation', async () => {
    const { tm } = setup({ resolve: () => png() })
    await tm.call('ticket.fill', { values: { attachment: { ref: 'x' } } })
    const state = await tm.call('ticket.state', {})
    expect(state).toMatchObject({
      data: {
        values: { attachment: { file: { name: 'screen.png', size: 10, type: 'image/png' } } },
      },
    })
    const confirm = await tm.call('ticket.submit', {}, { caller: 'inapp' })
    expect(confirm).toMatchObject({
      status: 'needs_confirmation',
      changes: [{ path: 'attachment', after: { file: { name: 'screen.png' } } }],
    })
    const [entry] = tm.confirmations.list()
    expect((entry.input as any).attachment).toEqual({
      file: { name: 'screen.png', size: 10, type: 'image/png' },
    })
  })

  it('resolves nothing more and writes nothing when the call is aborted while files resolve', async () => {
    let started!: () => void
    const waiting = new Promise<void>((r) => (started = r))
    const { tm, form } = setup({
      resolve: (_ref, { signal }) =>
        new Promise((_resolve, reject) => {
          started()
          signal.addEventListener('abort', () => reject(signal.reason))
        }),
    })
    const controller = new AbortController()
    const call = tm.call(
      'ticket.fill',
      { values: { title: 't', attachment: { ref: 'a' } } },
      {
        signal: controller.signal,
      },
    )
    await waiting
    controller.abort()
    expect(await call).toEqual({ status: 'cancelled', by: 'signal' })
    expect(form.adapter.setValues).not.toHaveBeenCalled()
  })

  it('runs overlapping fills one after the other, each with its own files', async () => {
    const files: Record<string, File> = { a: png('a.png'), b: png('b.png') }
    const { tm, form } = setup({
      resolve: (ref) => new Promise((r) => setTimeout(() => r(files[ref]), ref === 'a' ? 30 : 1)),
    })
    const [first, second] = await Promise.all([
      tm.call('ticket.fill', { values: { attachment: { ref: 'a' } } }),
      tm.call('ticket.fill', { values: { attachment: { ref: 'b' } } }),
    ])
    expect(first).toMatchObject({ data: { changes: [{ after: { file: { name: 'a.png' } } }] } })
    expect(second).toMatchObject({
      data: {
        changes: [{ before: { file: { name: 'a.png' } }, after: { file: { name: 'b.png' } } }],
      },
    })
    expect(form.values.attachment).toBe(files.b)
    expect(form.adapter.setValues).toHaveBeenCalledTimes(2)
  })

  it('refuses a fill of a form that is gone from the page', async () => {
    const { tm, form } = setup({ resolve: () => png() })
    ;(form.adapter as any).available = () => false
    const result = await tm.call('ticket.fill', { values: { title: 'x' } })
    expect(result).toMatchObject({ status: 'refused', code: 'stale' })
    expect(form.adapter.setValues).not.toHaveBeenCalled()
  })
})

describe('file fields: { url }, fetched from a real server', () => {
  const withUrls = (timeoutMs?: number) =>
    setup({ allowOrigins: [origin], ...(timeoutMs ? { timeoutMs } : {}) })

  it('fetches an allowed file without credentials and names it safely', async () => {
    const { tm, form } = withUrls()
    hits.length = 0
    const pdf = await tm.call('ticket.fill', {
      values: { attachment: { url: `${origin}/receipt.pdf` } },
    })
    expect(pdf).toMatchObject({
      status: 'ok',
      data: {
        changes: [
          {
            path: 'attachment',
            after: { file: { name: 'receipt.pdf', size: 5, type: 'application/pdf' } },
          },
        ],
      },
    })
    expect(await (form.values.attachment as File).text()).toBe('%PDF-')
    expect(hits).toEqual(['/receipt.pdf cookie= auth='])

    await tm.call('ticket.fill', { values: { attachment: { url: `${origin}/named` } } })
    expect((form.values.attachment as File).name).toBe('pass_wd.png')
  })

  it('does not follow a redirect', async () => {
    const { tm, form } = withUrls()
    hits.length = 0
    const result = await tm.call('ticket.fill', {
      values: { title: 'x', attachment: { url: `${origin}/redirect` } },
    })
    expect(result).toMatchObject({
      code: 'file_rejected',
      message: expect.stringContaining('"attachment" rejected (redirect)'),
    })
    expect(hits.map((h) => h.split(' ')[0])).toEqual(['/redirect'])
    expect(form.adapter.setValues).not.toHaveBeenCalled()
  })

  it('stops an oversize file on its Content-Length and, without one, while streaming', async () => {
    const { tm } = withUrls()
    expect(
      await tm.call('ticket.fill', { values: { attachment: { url: `${origin}/big-declared` } } }),
    ).toMatchObject({
      code: 'file_rejected',
      message: expect.stringContaining('(maxBytes): the file is 4.9 KB'),
    })
    expect(
      await tm.call('ticket.fill', { values: { attachment: { url: `${origin}/big-streamed` } } }),
    ).toMatchObject({
      code: 'file_rejected',
      message: 'File field "attachment" rejected (maxBytes): the file is larger than 1000 B',
    })
  })

  it('rejects a MIME type the field does not accept, and an error status', async () => {
    const { tm } = withUrls()
    expect(
      await tm.call('ticket.fill', { values: { attachment: { url: `${origin}/page.html` } } }),
    ).toMatchObject({
      code: 'file_rejected',
      message: expect.stringContaining('(accept): text/html'),
    })
    expect(
      await tm.call('ticket.fill', { values: { attachment: { url: `${origin}/missing` } } }),
    ).toMatchObject({
      code: 'file_rejected',
      message: expect.stringContaining('(status): the server answered 404'),
    })
  })

  it('gives up on a slow server at the deadline', async () => {
    const { tm, form } = withUrls(200)
    const started = Date.now()
    const result = await tm.call('ticket.fill', {
      values: { title: 'x', attachment: { url: `${origin}/slow` } },
    })
    expect(result).toMatchObject({
      code: 'file_rejected',
      message: expect.stringContaining('(timeout)'),
    })
    expect(Date.now() - started).toBeLessThan(3_000)
    expect(form.adapter.setValues).not.toHaveBeenCalled()
  })

  it('refuses other origins, plain http off loopback and URLs with credentials, without a request', async () => {
    const { tm } = setup({ allowOrigins: [origin, 'https://files.example'] })
    hits.length = 0
    const port = origin.split(':').pop()
    const cases: Array<[string, string]> = [
      [`http://localhost:${port}/receipt.pdf`, 'origin'],
      ['http://files.example/x.png', 'protocol'],
      [`http://user:pw@127.0.0.1:${port}/receipt.pdf`, 'credentials'],
      ['ftp://files.example/x.png', 'protocol'],
      ['not a url', 'url'],
    ]
    for (const [url, rule] of cases) {
      const result = await tm.call('ticket.fill', { values: { attachment: { url } } })
      expect(result).toMatchObject({
        code: 'file_rejected',
        message: expect.stringContaining(`(${rule})`),
      })
    }
    expect(hits).toEqual([])
  })
})

describe('file names shown to the person', () => {
  // Every format character (`Cf`) and control is taken out of a name, wherever it is shown.
  const hidden: [string, string][] = [
    ['U+200D zero-width joiner', '\u200d'],
    ['U+200B zero-width space', '\u200b'],
    ['U+2060 word joiner', '\u2060'],
    ['U+FEFF byte order mark', '\ufeff'],
    ['U+00AD soft hyphen', '\u00ad'],
    ['U+E0001 language tag', '\u{e0001}'],
    ['U+E0020 tag space', '\u{e0020}'],
    ['U+E007F cancel tag', '\u{e007f}'],
    ['U+E0041 tag latin capital A', '\u{e0041}'],
    ['U+202E right-to-left override', '\u202e'],
    ['U+2066 left-to-right isolate', '\u2066'],
    ['U+200E left-to-right mark', '\u200e'],
    ['U+061C Arabic letter mark', '\u061c'],
    ['U+180E Mongolian vowel separator', '\u180e'],
    ['U+2064 invisible plus', '\u2064'],
    ['U+FFF9 interlinear annotation anchor', '\ufff9'],
    ['U+1D173 musical symbol begin beam', '\u{1d173}'],
    ['U+0085 next line (a control)', '\u0085'],
  ]

  it.each(hidden)('takes %s out of the name of a file a fill attaches', async (_name, char) => {
    const file = png(`scr${char}een${char}.png`)
    const { tm, form } = setup({ resolve: () => file })

    const result = await tm.call('ticket.fill', { values: { attachment: { ref: 'paste-1' } } })

    expect(result).toEqual({
      status: 'ok',
      data: {
        changes: [
          {
            path: 'attachment',
            after: { file: { name: 'screen.png', size: 10, type: 'image/png' } },
          },
        ],
        skipped: [],
      },
    })
    // The form gets the file under the name the person was shown.
    expect((form.values.attachment as File).name).toBe('screen.png')
  })

  it.each(hidden)(
    'takes %s out of the name of a file the person chose, in state, confirmation and changes',
    async (_name, char) => {
      const { tm, form } = setup({ resolve: () => undefined })
      form.type('attachment', png(`${char}photo${char}.png`))
      const shown = { file: { name: 'photo.png', size: 10, type: 'image/png' } }

      const state = await tm.call('ticket.state', {})
      expect(state).toMatchObject({ data: { values: { attachment: shown } } })
      const confirm = await tm.call('ticket.submit', {}, { caller: 'inapp' })
      expect(confirm).toMatchObject({
        status: 'needs_confirmation',
        changes: [{ path: 'attachment', after: shown }],
      })
      const [entry] = tm.confirmations.list()
      expect((entry.input as Record<string, unknown>).attachment).toEqual(shown)
      expect(entry.changes).toEqual([{ path: 'attachment', after: shown }])
    },
  )

  it('names a file "file" when nothing visible is left of its name, attached or chosen', async () => {
    const invisible = '\u200b\u200d\u2060\ufeff\u00ad\u{e0001}\u{e0020}\u{e007f}'
    const { tm, form } = setup({ resolve: () => png(invisible) })

    const attached = await tm.call('ticket.fill', { values: { attachment: { ref: 'paste-1' } } })
    expect(attached).toMatchObject({
      data: { changes: [{ after: { file: { name: 'file', size: 10, type: 'image/png' } } }] },
    })
    expect((form.values.attachment as File).name).toBe('file')

    form.type('attachment', png(invisible, 20))
    const state = await tm.call('ticket.state', {})
    expect(state).toMatchObject({
      data: { values: { attachment: { file: { name: 'file', size: 20, type: 'image/png' } } } },
    })
  })

  it('cleans the name a server gives a fetched file', async () => {
    const { tm, form } = setup({ allowOrigins: [origin] })

    const result = await tm.call('ticket.fill', {
      values: { attachment: { url: `${origin}/hidden-name` } },
    })

    expect(result).toMatchObject({
      status: 'ok',
      data: { changes: [{ after: { file: { name: 'receiptfdp.pdf', type: 'application/pdf' } } }] },
    })
    expect((form.values.attachment as File).name).toBe('receiptfdp.pdf')
  })

  it('previews an image by the cleaned name the change shows', async () => {
    const file = png('scr\u200deen\u2060.png')
    const { tm } = setup({ resolve: () => file })

    const result = await tm.call('ticket.fill', { values: { attachment: { ref: 'paste-1' } } })

    const after = (result as { data: { changes: { after: unknown }[] } }).data.changes[0].after
    expect(after).toEqual({ file: { name: 'screen.png', size: 10, type: 'image/png' } })
    const preview = filePreview(after)
    expect(preview).toBeInstanceOf(Blob)
    expect(await preview!.arrayBuffer()).toEqual(await file.arrayBuffer())
  })
})

describe('files options', () => {
  it('throws in development on origins that are not exact, and on bad field rules', () => {
    expect(() => createToolmark({ files: { allowOrigins: ['https://a.example/path'] } })).toThrow(
      /not an exact origin/,
    )
    expect(() => createToolmark({ files: { allowOrigins: ['http://a.example'] } })).toThrow(
      /http only for localhost/,
    )
    expect(() => createToolmark({ files: { maxBytes: -1 } })).toThrow(/files.maxBytes/)
    expect(() => setup({ resolve: () => undefined }, { nope: {} })).toThrow(/files\["nope"\]/)
    expect(() => setup({ resolve: () => undefined }, { attachment: { maxBytes: 0 } })).toThrow(
      /files\["attachment"\]/,
    )
  })

  it('in production, an invalid files option is an error event and file fields stay closed', async () => {
    const tm = createToolmark({ dev: false, files: { resolve: 'nope' as any } })
    const errors: string[] = []
    tm.events.on('error', (e) => errors.push(e.code))
    await Promise.resolve()
    expect(errors).toEqual(['invalid_options'])
    expect(tm.files).toBeUndefined()
  })
})
