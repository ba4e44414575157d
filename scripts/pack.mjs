#!/usr/bin/env node
// Builds the three packages and packs them as the registry would ship them.
//
//   npm run pack                 # build, then write the tarballs to packed/
//   node scripts/pack.mjs <dir>  # pack what is built into <dir>, without building
//
// An app installs them with `npm i ./packed/toolmark-core-0.1.0.tgz ./packed/toolmark-react-0.1.0.tgz`
// and runs the MCP server with `npx ./packed/toolmark-mcp-0.1.0.tgz`.
import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** The published packages: directory and name, the kit last (it depends on the others). */
export const PACKAGES = [
  { dir: 'packages/core', name: '@toolmark/core' },
  { dir: 'packages/mcp', name: '@toolmark/mcp' },
  { dir: '.', name: '@toolmark/react' },
]

/** `npm` for child processes, the same on every OS. */
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

/** Runs `npm run build` at the root (every workspace, then the kit). */
export function buildPackages() {
  execFileSync(npm, ['run', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
}

/**
 * Packs each package into `dest` (emptied first) and returns `{ name: tarball path }`.
 * @param {string} dest
 * @returns {Record<string, string>}
 */
export function packPackages(dest) {
  rmSync(dest, { recursive: true, force: true })
  mkdirSync(dest, { recursive: true })
  const tarballs = {}
  for (const { dir, name } of PACKAGES) {
    const out = execFileSync(
      npm,
      ['pack', '--json', '--ignore-scripts', '--pack-destination', dest],
      { cwd: path.join(root, dir), encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    )
    const [{ filename }] = JSON.parse(out)
    tarballs[name] = path.join(dest, filename)
  }
  const extra = readdirSync(dest).filter(
    (file) => !Object.values(tarballs).includes(path.join(dest, file)),
  )
  if (extra.length > 0) throw new Error(`pack: unexpected files in ${dest}: ${extra.join(', ')}`)
  return tarballs
}

const isMain =
  process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href
if (isMain) {
  const dest = process.argv[2]
  if (dest === undefined) buildPackages()
  const tarballs = packPackages(path.resolve(dest ?? path.join(root, 'packed')))
  for (const file of Object.values(tarballs)) console.log(path.relative(process.cwd(), file))
}
