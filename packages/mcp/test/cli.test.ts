import { spawn, spawnSync } from 'node:child_process'
import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import pkg from '../package.json'
import { CLI, ORIGIN, until } from './harness'

function run(args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 10_000 })
}

describe('toolmark-mcp command line', () => {
  it('prints help and version on stdout and exits 0', () => {
    const help = run(['--help'])
    expect(help.status).toBe(0)
    expect(help.stdout).toContain(
      'Usage: toolmark-mcp --allow-origin <origin>... [--port 17840] [--call-timeout 600000] [--progress-interval 10000]',
    )
    expect(help.stdout).toContain('--call-timeout <ms>')
    expect(help.stdout).toContain('--progress-interval <ms>')
    const version = run(['--version'])
    expect(version.status).toBe(0)
    expect(version.stdout).toBe(`${pkg.version}\n`)
  })

  it.each([
    [['--allow-origin', ORIGIN, '--verbose'], 'unknown option --verbose'],
    [[], '--allow-origin is required'],
    [['--allow-origin', 'localhost'], 'is not an origin'],
    [['--allow-origin', ORIGIN, '--port', 'x'], '--port needs a number'],
    [['--allow-origin', ORIGIN, '--call-timeout', '0'], '--call-timeout needs'],
  ])('exits 2 with a usage line for %j', (args, message) => {
    const result = run(args)
    expect(result.status).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain(message)
    expect(result.stderr).toMatch(/^Usage: toolmark-mcp --allow-origin/m)
  })

  it('exits 1 with a clear message when the port is taken', async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const port = (blocker.address() as { port: number }).port
    try {
      const result = run(['--allow-origin', ORIGIN, '--port', String(port)])
      expect(result.status).toBe(1)
      expect(result.stdout).toBe('')
      expect(result.stderr).toContain(`port ${port} on 127.0.0.1 is in use`)
    } finally {
      blocker.close()
    }
  })

  it('writes only MCP frames on stdout and diagnostics on stderr', async () => {
    const child = spawn(process.execPath, [CLI, '--allow-origin', ORIGIN, '--port', '0'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`)
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'raw', version: '1' },
      },
    })
    send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' })
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'toolmark_pairing' } })
    await until(() => stdout.split('\n').filter(Boolean).length >= 3, 'three responses')

    // A refused upgrade and its log line must not reach stdout either.
    const port = Number(/ws:\/\/127\.0\.0\.1:(\d+)/.exec(stderr)![1])
    const refused = await new Promise<number | undefined>((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}`, { origin: 'http://evil.test' })
      socket.once('unexpected-response', (_req, res) => resolve(res.statusCode))
      socket.once('error', () => resolve(undefined))
    })
    expect(refused).toBe(403)
    await until(() => stderr.includes('refused a WebSocket upgrade'), 'the refusal log line')

    child.stdin.end()
    expect(await exited).toBe(0)
    const lines = stdout.split('\n').filter(Boolean)
    expect(lines).toHaveLength(3)
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' })
    expect(lines.map((line) => JSON.parse(line).id)).toEqual([1, 2, 3])
    const code = JSON.parse(lines[2]).result.structuredContent.code
    expect(stderr).toContain(`pairing code ${code}`)
    expect(stderr).toContain('Origin http://evil.test is not allowed')
  })
})
