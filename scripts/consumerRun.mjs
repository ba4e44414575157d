// What the checks that install the packed tarballs in a fresh app share
// (scripts/check-consumers.mjs, scripts/check-getting-started.mjs): the tarballs of this run,
// copied next to the app's package.json as the docs say, named steps that report and go on, and
// child processes whose output is kept for the report.
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { PACKAGES, packPackages, root } from './pack.mjs'

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

/**
 * The tarballs of this run, `{ name: path }`: `npm run pack` (build, then pack into packed/), or
 * with `--no-build` in `argv`, a pack of what dist/ holds.
 * @param {string[]} argv
 * @returns {Record<string, string>}
 */
export function packedTarballs(argv = process.argv) {
  const packed = path.join(root, 'packed')
  if (argv.includes('--no-build')) return packPackages(packed)
  execFileSync(npm, ['run', 'pack'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
  return Object.fromEntries(
    PACKAGES.map(({ name, dir }) => {
      const { version } = JSON.parse(readFileSync(path.join(root, dir, 'package.json'), 'utf8'))
      const file = `${name.slice(1).replace('/', '-')}-${version}.tgz`
      return [name, path.join(packed, file)]
    }),
  )
}

/**
 * Copies the tarballs into `app` and returns how the docs name them there: `{ name: './file' }`.
 * @param {string} app
 * @param {Record<string, string>} tarballs
 */
export function copyTarballs(app, tarballs) {
  mkdirSync(app, { recursive: true })
  for (const file of Object.values(tarballs))
    copyFileSync(file, path.join(app, path.basename(file)))
  return Object.fromEntries(
    Object.entries(tarballs).map(([name, file]) => [name, `./${path.basename(file)}`]),
  )
}

/**
 * Named checks that print `ok` or `FAIL` with the failing output, and go on to the next; the
 * names of the failed ones gather in `failures`.
 */
export function createSteps() {
  const failures = []
  const step = (name, fn) => {
    const started = Date.now()
    try {
      fn()
      console.log(`ok    ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
      return true
    } catch (error) {
      console.log(`FAIL  ${name}`)
      console.log(String(error.stdout ?? '') + String(error.stderr ?? '') || error.message)
      failures.push(name)
      return false
    }
  }
  return { step, failures }
}

/** Runs a command in `cwd` and returns its output; a failure throws with stdout and stderr. */
export const run = (command, args, cwd, env = process.env) =>
  execFileSync(command, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
