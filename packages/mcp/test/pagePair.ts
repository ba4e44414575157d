import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { Toolmark } from '@toolmark/core'
import { bridge, createInPageChannel } from '@toolmark/core/bridge'
import { createMcpServer, type McpServerOptions } from '../src/mcpServer'
import { createPageLink } from '../src/pageLink'
import type { PairedPage } from '../src/pairingServer'

/**
 * A registry served by the MCP server as a paired page would be: the page's bridge (caller `mcp`)
 * and the server's page link speak protocol v1 over an in-page channel, and the SDK's own
 * `Client` talks to the server over its in-memory transport.
 */
export async function servePage(
  tm: Toolmark,
  options: {
    capabilities?: ClientCapabilities
    server?: Partial<McpServerOptions>
    deadlineMs?: number
  } = {},
) {
  const channel = createInPageChannel()
  const detach = tm.use(bridge({ transport: channel.page, caller: 'mcp' }))
  let closed = false
  channel.agent.onClose!(() => (closed = true))
  const paired: PairedPage = {
    origin: 'http://localhost:5173',
    send: (text) => channel.agent.send(text),
    onMessage: (listener) => channel.agent.onMessage((message) => listener(String(message))),
    onClose: (listener) => channel.agent.onClose!(listener),
    close: () => channel.close(),
    get closed() {
      return closed
    },
  }
  const link = createPageLink(paired, { deadlineMs: options.deadlineMs ?? 120_000 })
  const server = createMcpServer({
    name: 'toolmark-test',
    version: '0.0.0',
    pairingInfo: () => {
      throw new Error('not used')
    },
    log: () => {},
    ...options.server,
  })
  server.setPage(link)
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  const client = new Client(
    { name: 'test-client', version: '0.0.0' },
    { capabilities: options.capabilities ?? {} },
  )
  await server.mcp.connect(serverSide)
  await client.connect(clientSide)
  return {
    client,
    server,
    async close() {
      await client.close()
      detach()
      channel.close()
    },
  }
}
