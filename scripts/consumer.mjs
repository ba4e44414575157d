// A throwaway app that installs the packed tarballs the way a user would, for the bundle gate
// (bench/size.mjs) and the consumer checks (scripts/check-consumers.mjs).
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { root } from './pack.mjs'

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

/** The version this repository pins for a dependency (root devDependencies), for consumers. */
export function pinned(name) {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))
  const version = manifest.devDependencies?.[name] ?? manifest.dependencies?.[name]
  if (version === undefined) throw new Error(`consumer: ${name} is not a dependency of the root`)
  return `${name}@${version}`
}

/**
 * Creates `dir` as an ESM app and installs `specs` (tarball paths and `name@version`) with npm,
 * preferring the local cache. `peers: false` leaves peer dependencies to the caller.
 * @param {string} dir
 * @param {string[]} specs
 * @param {{ peers?: boolean, manifest?: object }} [options]
 */
export function createConsumer(dir, specs, { peers = true, manifest = {} } = {}) {
  mkdirSync(dir, { recursive: true })
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module', ...manifest }, null, 2),
  )
  const flags = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error']
  if (!peers) flags.push('--legacy-peer-deps')
  execFileSync(npm, ['install', ...flags, ...specs], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
}
