import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import {
  ORIGIN,
  handshakeOn,
  readFrames,
  startServer,
  toolNamesUntil,
  until,
  type RunningServer,
} from './harness'

type Frame = Record<string, any>

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A page written by hand: it speaks the handshake and protocol v1 frame by frame. */
async function rawPage(running: RunningServer) {
  const code = await running.pairingCode()
  const socket = new WebSocket(`ws://127.0.0.1:${running.port}`, { origin: ORIGIN })
  cleanups.push(() => socket.terminate())
  let closeCode: number | undefined
  socket.on('close', (code) => (closeCode = code))
  await new Promise((resolve) => socket.once('open', resolve))
  const reader = readFrames(socket)
  const frames: Frame[] = reader.frames
  const step = await handshakeOn(socket, reader, { mode: 'pair', code }, running.port)
  expect(step).toMatchObject({ kind: 'paired' })
  await until(() => frames.some((frame) => frame.type === 'hello'), "the server's hello")
  return {
    socket,
    frames,
    closeCode: () => closeCode,
    send: (frame: unknown) =>
      socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame)),
    next: async (type: string, from = 0) => {
      await until(() => frames.slice(from).some((frame) => frame.type === type), `a ${type} frame`)
      return frames.slice(from).find((frame) => frame.type === type)!
    },
  }
}

const base = { protocol: 1, clientId: 'page-1' }
const echoEntry = {
  name: 'echo',
  llmName: 'echo',
  description: 'Repeats the text.',
  hints: {},
}
const echoFull = {
  ...echoEntry,
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
}
const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema'
/** How toolmark-mcp lists echo's input schema: with its dialect named. */
const listedEchoSchema = { $schema: DRAFT_2020_12, ...echoFull.inputSchema }

describe('toolmark-mcp against a hostile or sloppy page', () => {
  it('ignores a result for an unknown id and a second result for the same id', async () => {
    const running = await startServer()
    cleanups.push(() => running.close())
    const page = await rawPage(running)
    page.send({ ...base, type: 'manifest', rev: 1, tools: [echoEntry] })

    const listing = running.client.listTools()
    const describe = await page.next('describe')
    expect(describe).toMatchObject({ ...base, tool: 'echo' })
    page.send({
      ...base,
      type: 'result',
      id: describe.id,
      result: { status: 'ok', data: echoFull },
    })
    const { tools } = await listing
    expect(tools).toEqual([
      expect.objectContaining({ name: 'echo', inputSchema: listedEchoSchema }),
    ])

    const from = page.frames.length
    const calling = running.client.callTool({ name: 'echo', arguments: { text: 'hi' } })
    const call = await page.next('call', from)
    expect(call).toMatchObject({ ...base, tool: 'echo', input: { text: 'hi' }, rev: 1 })
    page.send({
      ...base,
      type: 'result',
      id: 'call_forged',
      result: { status: 'ok', data: 'forged' },
    })
    page.send({ ...base, type: 'result', id: call.id, result: { status: 'ok', data: 'real' } })
    page.send({ ...base, type: 'result', id: call.id, result: { status: 'ok', data: 'again' } })
    const result = await calling
    expect(result.structuredContent).toEqual({ status: 'ok', data: 'real' })

    // The server is still in business after the stray results.
    const second = page.frames.length
    const again = running.client.callTool({ name: 'echo', arguments: { text: 'two' } })
    const call2 = await page.next('call', second)
    page.send({ ...base, type: 'result', id: call2.id, result: { status: 'ok', data: 'two' } })
    expect((await again).structuredContent).toEqual({ status: 'ok', data: 'two' })
  })

  it('drops malformed frames without answering them', async () => {
    const running = await startServer()
    cleanups.push(() => running.close())
    const page = await rawPage(running)
    page.send('not json')
    page.send({ protocol: 2, type: 'manifest', clientId: 'page-1', rev: 1, tools: [] })
    page.send({ ...base, type: 'manifest', rev: 'one', tools: [] })
    page.send({ ...base, type: 'manifest', rev: 1, tools: [{ name: 'bad name!' }] })
    page.send({ ...base, type: 'manifest', rev: 2, tools: [echoEntry] })

    const listing = running.client.listTools()
    const describe = await page.next('describe')
    page.send({
      ...base,
      type: 'result',
      id: describe.id,
      result: { status: 'ok', data: echoFull },
    })
    expect((await listing).tools.map((tool) => tool.name)).toEqual(['echo'])
    expect(page.socket.readyState).toBe(WebSocket.OPEN)
    expect(running.clientErrors).toEqual([])
  })

  it('lists a tool it could not describe with a loose schema, and asks again next time', async () => {
    const running = await startServer()
    cleanups.push(() => running.close())
    const page = await rawPage(running)
    page.send({ ...base, type: 'manifest', rev: 1, tools: [echoEntry] })

    const first = running.client.listTools()
    const describe = await page.next('describe')
    page.send({
      ...base,
      type: 'result',
      id: describe.id,
      result: { status: 'refused', code: 'unknown_tool', message: 'No tool', rev: 1 },
    })
    expect((await first).tools).toEqual([
      expect.objectContaining({
        name: 'echo',
        inputSchema: { $schema: DRAFT_2020_12, type: 'object' },
      }),
    ])
    expect(running.stderr()).toContain('could not describe echo')

    const from = page.frames.length
    const second = running.client.listTools()
    const again = await page.next('describe', from)
    page.send({ ...base, type: 'result', id: again.id, result: { status: 'ok', data: echoFull } })
    expect((await second).tools[0].inputSchema).toEqual(listedEchoSchema)
  })

  it('closes a page that sends a frame larger than 1 MiB and goes back to pairing', async () => {
    const running = await startServer()
    cleanups.push(() => running.close())
    const page = await rawPage(running)
    page.send({ ...base, type: 'manifest', rev: 1, tools: [echoFull] })
    await toolNamesUntil(running.client, (names) => names.includes('echo'), 'the page tools')
    const before = running.listChanged()

    page.send({ ...base, type: 'manifest', rev: 2, tools: [], padding: 'x'.repeat(1_048_577) })
    await until(() => page.closeCode() !== undefined, 'the socket to close')
    expect(page.closeCode()).toBe(1009)
    await until(() => running.listChanged() > before, 'list_changed after the close')
    await toolNamesUntil(
      running.client,
      (names) => names.join() === 'toolmark_pairing',
      'the pairing tool to come back',
    )
  })

  it('tells the agent when the page disconnects in the middle of a call', async () => {
    const running = await startServer()
    cleanups.push(() => running.close())
    const page = await rawPage(running)
    page.send({ ...base, type: 'manifest', rev: 1, tools: [echoFull] })
    const calling = running.client.callTool({ name: 'echo', arguments: { text: 'hi' } })
    await page.next('call')
    page.socket.close()
    const result = await calling
    expect(result.isError).toBe(true)
    expect(result.structuredContent).toEqual({
      status: 'error',
      message: 'The page disconnected before the call finished',
    })
  })
})
