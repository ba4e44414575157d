// @vitest-environment node
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { root } from '../aliases'

const script = path.join(root, 'scripts/check-node.cjs')

const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  engines: { node: string }
  scripts: Record<string, string>
}

/** Runs `file` with `version` standing in for the running Node (none: the real one). */
function check(version?: string, file = script) {
  const env: NodeJS.ProcessEnv = { ...process.env }
  delete env.TOOLMARK_NODE_VERSION
  if (version !== undefined) env.TOOLMARK_NODE_VERSION = version
  const { status, stdout, stderr } = spawnSync(process.execPath, [file], { env, encoding: 'utf8' })
  return { status, stdout, stderr }
}

/** A copy of the script next to a package.json whose `engines.node` is `range`. */
function scriptWithEngines(range: string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'toolmark-check-node-'))
  mkdirSync(path.join(dir, 'scripts'))
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ engines: { node: range } }))
  const copy = path.join(dir, 'scripts/check-node.cjs')
  copyFileSync(script, copy)
  return copy
}

describe('scripts/check-node.cjs', () => {
  it('stops an older Node with exit 1 and one line naming Node 22.13 and `nvm use`', () => {
    expect(manifest.engines.node).toBe('>=22.13.0')
    for (const version of ['v20.11.1', '18.20.4', 'v21.7.3', 'v22.12.9', 'v22.0.0']) {
      const { status, stdout, stderr } = check(version)
      expect(status, version).toBe(1)
      expect(stdout, version).toBe('')
      expect(stderr, version).toBe(
        `toolmark: Node 22.13 or newer is needed (found ${version.replace(/^v?/, 'v')}); ` +
          'run `nvm use` (it reads .nvmrc) or install Node 22, then try again\n',
      )
    }
  })

  it('passes the running Node and any version from the minimum on, silently', () => {
    for (const version of [undefined, 'v22.13.0', 'v22.23.5', 'v23.0.0', 'v24.1.0']) {
      expect(check(version), String(version)).toEqual({ status: 0, stdout: '', stderr: '' })
    }
  })

  it('takes the minimum from package.json `engines.node`', () => {
    const copy = scriptWithEngines('>=24.1.2')

    expect(check('v24.1.2', copy)).toEqual({ status: 0, stdout: '', stderr: '' })
    const older = check('v24.1.1', copy)
    expect(older.status).toBe(1)
    expect(older.stderr).toMatch(/^toolmark: Node 24\.1\.2 or newer is needed \(found v24\.1\.1\);/)
    expect(older.stderr.trimEnd().split('\n')).toHaveLength(1)
  })

  it('stops with one line when `engines.node` is not of the form >=X.Y.Z', () => {
    const { status, stdout, stderr } = check('v22.13.0', scriptWithEngines('^22.13.0'))

    expect(status).toBe(1)
    expect(stdout).toBe('')
    expect(stderr).toBe(
      'toolmark: package.json engines.node must read ">=X.Y.Z" (it reads "^22.13.0")\n',
    )
  })
})

describe('package.json', () => {
  it.each(['start', 'test'])('`npm %s` runs the Node check before anything else', (name) => {
    expect(manifest.scripts[name]).toMatch(/^node scripts\/check-node\.cjs && \S/)
  })
})
