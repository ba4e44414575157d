import { afterEach, describe, expect, it } from 'vitest'
import { createToolmark, ok } from '@toolmark/core'
import type { ErrorEvent } from '@toolmark/core'
import { bridge, postMessageTransport } from '@toolmark/core/bridge'
import type { PageClient } from '@toolmark/core/agent'

const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length) cleanups.pop()!()
})

function frameAt(origin: string, params: Record<string, string>): Promise<HTMLIFrameElement> {
  const frame = document.createElement('iframe')
  frame.src = `${origin}/test/browser/bridge.frame.html?${new URLSearchParams(params)}`
  const loaded = new Promise<HTMLIFrameElement>((resolve) =>
    frame.addEventListener('load', () => resolve(frame), { once: true }),
  )
  document.body.append(frame)
  cleanups.push(() => frame.remove())
  return loaded
}

async function until<T>(read: () => T | undefined, timeoutMs = 5_000): Promise<T> {
  const started = Date.now()
  for (;;) {
    const value = read()
    if (value !== undefined) return value
    if (Date.now() - started > timeoutMs) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** The page: a counter tool served over postMessage to `frame`. */
function servePage(frame: HTMLIFrameElement, options: { targetOrigin?: string } = {}) {
  const tm = createToolmark({ dev: true })
  const errors: ErrorEvent[] = []
  tm.events.on('error', (event) => errors.push(event))
  let count = 0
  tm.register({
    name: 'counter.bump',
    description: 'Adds one to the counter',
    run: () => ok(++count),
  })
  const transport = postMessageTransport({
    target: frame.contentWindow!,
    targetOrigin: options.targetOrigin ?? location.origin,
  })
  const stop = tm.use(bridge({ transport }))
  cleanups.push(() => {
    stop()
    transport.close?.()
  })
  return { tm, errors, count: () => count }
}

/** Every raw `message` event this window receives from `source`. */
function recordMessagesFrom(source: () => Window | null) {
  const seen: unknown[] = []
  const listener = (event: MessageEvent) => {
    if (event.source === source()) seen.push(event.data)
  }
  window.addEventListener('message', listener)
  cleanups.push(() => window.removeEventListener('message', listener))
  return seen
}

describe('postMessage bridge between the page and a real iframe', () => {
  it('lets an agent in the iframe read the manifest and call page tools', async () => {
    const frame = await frameAt(location.origin, { mode: 'agent', parentOrigin: location.origin })
    const page = servePage(frame)
    const agent = await until(
      () =>
        (frame.contentWindow as unknown as { bridgeAgent?: { client: PageClient } }).bridgeAgent,
    )
    const manifest = await agent.client.ready
    expect(manifest.tools.map((t) => t.name)).toEqual(['counter.bump'])
    expect(agent.client.clientId).toBe(page.tm.clientId)
    expect(await agent.client.call('counter.bump', {})).toEqual({ status: 'ok', data: 1 })
    expect(await agent.client.describe('counter.bump')).toMatchObject({
      status: 'ok',
      data: { name: 'counter.bump', description: 'Adds one to the counter' },
    })
    expect(page.count()).toBe(1)
    expect(page.errors).toEqual([])
  })

  it('ignores a well-formed call from another window of the same origin', async () => {
    const agentFrame = await frameAt(location.origin, {
      mode: 'agent',
      parentOrigin: location.origin,
    })
    const page = servePage(agentFrame)
    const frames: { stranger?: HTMLIFrameElement } = {}
    const seen = recordMessagesFrom(() => frames.stranger?.contentWindow ?? null)
    frames.stranger = await frameAt(location.origin, {
      mode: 'stranger',
      parentOrigin: location.origin,
      clientId: page.tm.clientId,
    })
    // The stranger's call reached this window...
    const [posted] = await until(() => (seen.length > 0 ? seen : undefined))
    expect(JSON.parse(posted as string)).toMatchObject({ type: 'call', clientId: page.tm.clientId })
    await new Promise((resolve) => setTimeout(resolve, 100))
    // ...but the bridge never ran it, nor counted it as a protocol message.
    expect(page.count()).toBe(0)
    expect(page.errors).toEqual([])
    const agent = await until(
      () =>
        (agentFrame.contentWindow as unknown as { bridgeAgent?: { client: PageClient } })
          .bridgeAgent,
    )
    expect(await agent.client.call('counter.bump', {})).toEqual({ status: 'ok', data: 1 })
  })

  it('ignores the expected frame once it serves another origin, in both directions', async () => {
    // The frame the page trusts, but loaded from 127.0.0.1 instead of the expected origin.
    const otherOrigin = location.origin.replace('localhost', '127.0.0.1')
    expect(otherOrigin).not.toBe(location.origin)
    const placeholder = document.createElement('iframe')
    document.body.append(placeholder)
    cleanups.push(() => placeholder.remove())
    const page = servePage(placeholder)
    const seen = recordMessagesFrom(() => placeholder.contentWindow)
    placeholder.src = `${otherOrigin}/test/browser/bridge.frame.html?${new URLSearchParams({
      mode: 'remote',
      parentOrigin: location.origin,
      clientId: page.tm.clientId,
    })}`
    const report = await until(
      () =>
        seen.find(
          (data): data is { kind: string; manifest: boolean; result: unknown } =>
            typeof data === 'object' && data !== null && 'kind' in data,
        ),
      10_000,
    )
    // Its hello, call and (after its deadline) cancel arrived at this window from the right
    // source but the wrong origin...
    const protocol = seen.filter((data) => typeof data === 'string').map((d) => JSON.parse(d))
    expect(protocol.map((m) => m.type)).toEqual(['hello', 'call', 'cancel'])
    // ...and were ignored: nothing ran, no answer, and the page's manifest (posted to the
    // expected origin only) never reached it.
    expect(page.count()).toBe(0)
    expect(page.errors).toEqual([])
    expect(report.manifest).toBe(false)
    expect(report.result).toEqual({ status: 'cancelled', by: 'policy' })
  })
})
