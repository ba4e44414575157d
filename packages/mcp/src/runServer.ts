import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import type { CliOptions } from './args'
import { createMcpServer } from './mcpServer'
import { createPairing } from './pairing'
import { startPairingServer } from './pairingServer'
import { createPageLink } from './pageLink'
import { VERSION } from './version'

/** Where the server writes its diagnostics (stderr in the CLI). */
export type Log = (line: string) => void

const stderrLog: Log = (line) => {
  process.stderr.write(`${line}\n`)
}

function clock(epochMs: number): string {
  return new Date(epochMs).toTimeString().slice(0, 5)
}

/**
 * Runs `toolmark-mcp`: the pairing WebSocket on 127.0.0.1 and the MCP server on stdio, until
 * stdin ends or the process is told to stop. Rejects when the port cannot be bound.
 */
export async function runServer(options: CliOptions, log: Log = stderrLog): Promise<void> {
  const pairing = createPairing({
    onCode: (code) =>
      log(`toolmark-mcp: pairing code ${code.code} (valid until ${clock(code.expiresAt)})`),
  })

  let boundPort = options.port
  const server = createMcpServer({
    name: 'toolmark-mcp',
    version: VERSION,
    log,
    progressIntervalMs: options.progressIntervalMs,
    pairingInfo: () => ({
      code: pairing.currentCode(),
      port: boundPort,
      allowOrigins: options.allowOrigins,
    }),
  })

  const pairingServer = await startPairingServer({
    port: options.port,
    allowOrigins: options.allowOrigins,
    pairing,
    log,
    onPaired(page) {
      server.setPage(createPageLink(page, { deadlineMs: options.callTimeoutMs }))
      page.onClose(() => {
        log(`toolmark-mcp: page at ${page.origin} disconnected`)
        if (pairingServer.current() === undefined) server.setPage(undefined)
      })
    },
  }).catch((error: NodeJS.ErrnoException) => {
    throw new Error(
      error.code === 'EADDRINUSE'
        ? `port ${options.port} on 127.0.0.1 is in use (is another toolmark-mcp running?); choose another with --port`
        : `cannot listen on 127.0.0.1:${options.port}: ${error.message}`,
    )
  })
  boundPort = pairingServer.port

  log(
    `toolmark-mcp ${VERSION}: waiting for a page on ws://127.0.0.1:${pairingServer.port} (origins: ${options.allowOrigins.join(', ')})`,
  )
  pairing.currentCode()

  let stopping = false
  const stop = async () => {
    if (stopping) return
    stopping = true
    await pairingServer.close().catch(() => {})
    await server.mcp.close().catch(() => {})
    process.exit(0)
  }
  process.stdin.once('end', stop)
  process.stdin.once('close', stop)
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)

  await server.mcp.connect(new StdioServerTransport())
}
