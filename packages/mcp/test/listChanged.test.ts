import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it, vi } from 'vitest'
import type { Manifest, ManifestEntry } from '@toolmark/core'
import { createMcpServer, type PageLink } from '../src/mcpServer'
import { until } from './harness'

const entry = (name: string): ManifestEntry => ({
  name,
  llmName: name,
  description: `Tool ${name}.`,
  hints: { readOnly: true },
  signature: '{ id: string }',
})

const schema = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] }
const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema'
/** How toolmark-mcp lists `schema`: with its dialect named. */
const listedSchema = { $schema: DRAFT_2020_12, ...schema }

/** A paired page driven by the test: it sends manifests and answers describes. */
function fakePage() {
  let current: Manifest | undefined
  const listeners = new Set<(manifest: Manifest) => void>()
  const pendingDescribes: (() => void)[] = []
  let holdDescribes = false
  const describe = vi.fn(async (name: string): Promise<ManifestEntry | undefined> => {
    if (holdDescribes) await new Promise<void>((resolve) => pendingDescribes.push(resolve))
    const found = current?.tools.find((tool) => tool.name === name)
    return found ? { ...found, inputSchema: schema } : undefined
  })
  const link: PageLink = {
    origin: 'http://localhost:5173',
    manifest: () => current,
    onManifest(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    describe,
    call: async () => ({ status: 'ok', data: null }),
  }
  return {
    link,
    describe,
    /** Sends a manifest, as the page does on every revision and on every hello. */
    send(rev: number, names: string[]) {
      current = { rev, tools: names.map(entry) }
      for (const listener of [...listeners]) listener(current)
    },
    hold() {
      holdDescribes = true
    },
    release() {
      holdDescribes = false
      for (const resolve of pendingDescribes.splice(0)) resolve()
    },
  }
}

async function connect() {
  const server = createMcpServer({
    name: 'toolmark-test',
    version: '0.0.0',
    pairingInfo: () => {
      throw new Error('not used')
    },
    log: () => {},
  })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  const client = new Client({ name: 'test-client', version: '0.0.0' })
  let changes = 0
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes++
  })
  await server.mcp.connect(serverSide)
  await client.connect(clientSide)
  return { server, client, changes: () => changes }
}

/** Lets notifications cross the in-memory transport. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20))

describe('MCP list_changed', () => {
  it('sends one list_changed per revision, not one per manifest message', async () => {
    const { server, changes } = await connect()
    const page = fakePage()
    page.send(1, ['a'])
    server.setPage(page.link)
    await settle()
    const afterPairing = changes()

    // The page answers every hello with its manifest again: same revision, nothing new.
    page.send(1, ['a'])
    page.send(1, ['a'])
    await settle()
    expect(changes()).toBe(afterPairing)

    page.send(2, ['a', 'b'])
    page.send(2, ['a', 'b'])
    await settle()
    expect(changes()).toBe(afterPairing + 1)

    page.send(3, ['b'])
    await until(() => changes() === afterPairing + 2, 'list_changed for revision 3')
  })

  it('builds the tool list once per revision however often and concurrently it is listed', async () => {
    const { server, client } = await connect()
    const page = fakePage()
    page.send(1, ['a', 'b', 'c'])
    server.setPage(page.link)

    page.hold()
    const lists = Promise.all([client.listTools(), client.listTools(), client.listTools()])
    await settle()
    page.release()
    const [first, second, third] = await lists
    expect(first.tools.map((tool) => tool.name)).toEqual(['a', 'b', 'c'])
    expect(second).toEqual(first)
    expect(third).toEqual(first)
    expect(page.describe).toHaveBeenCalledTimes(3)

    await client.listTools()
    expect(page.describe).toHaveBeenCalledTimes(3)

    // A revision that adds one tool describes that tool only.
    page.send(2, ['a', 'b', 'c', 'd'])
    const next = await client.listTools()
    expect(next.tools.map((tool) => tool.name)).toEqual(['a', 'b', 'c', 'd'])
    expect(page.describe.mock.calls.map(([name]) => name)).toEqual(['a', 'b', 'c', 'd'])
    expect(next.tools[3].inputSchema).toEqual(listedSchema)
  })

  it('lists a tool the page could not describe loosely, and describes it again next time', async () => {
    const { server, client } = await connect()
    const page = fakePage()
    page.send(1, ['a'])
    server.setPage(page.link)
    page.describe.mockResolvedValueOnce(undefined)

    const loose = await client.listTools()
    expect(loose.tools[0].inputSchema).toEqual({ $schema: DRAFT_2020_12, type: 'object' })

    const described = await client.listTools()
    expect(described.tools[0].inputSchema).toEqual(listedSchema)
    expect(page.describe).toHaveBeenCalledTimes(2)
  })
})
