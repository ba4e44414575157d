#!/usr/bin/env node
import { HELP, USAGE, parseArgs } from './args'
import { runServer } from './runServer'
import { VERSION } from './version'

// stdout is the MCP channel: anything else printed there would corrupt a frame.
console.log = console.error
console.info = console.error
console.debug = console.error

const parsed = parseArgs(process.argv.slice(2))
switch (parsed.kind) {
  case 'help':
    process.stdout.write(HELP)
    break
  case 'version':
    process.stdout.write(`${VERSION}\n`)
    break
  case 'error':
    process.stderr.write(`toolmark-mcp: ${parsed.message}\n${USAGE}\n`)
    process.exitCode = 2
    break
  case 'run':
    runServer(parsed.options).catch((error: unknown) => {
      process.stderr.write(
        `toolmark-mcp: ${error instanceof Error ? error.message : String(error)}\n`,
      )
      process.exit(1)
    })
    break
}
