// The public entries of a package, read from its package.json `exports`, so the build, the bundle
// gate and the consumer checks pick up a new subpath as soon as it is declared there.
//
// Convention: subpath `.` is built from `src/index.ts` to `dist/index.js`; subpath `./name` from
// `src/name/index.ts` to `dist/name/index.js`, with its declarations in `dist/types/name/index.d.ts`.
// Output keeps the source tree (one file per module), so an app's bundler keeps only the modules
// an import reaches.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'

/**
 * Every subpath of `packageDir/package.json` `exports` that maps to JavaScript, with the source
 * file it is built from (a subpath whose source does not exist yet is skipped with a warning). Throws when a subpath does not follow the layout above, naming the fix.
 * @param {string} packageDir
 * @returns {{ subpath: string, specifier: string, name: string, source: string, output: string, types: string }[]}
 */
export function packageEntries(packageDir) {
  const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'))
  const entries = []
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    if (typeof target !== 'object' || target === null || typeof target.import !== 'string') continue
    const name = subpath === '.' ? 'index' : `${subpath.slice(2)}/index`
    const output = `./dist/${name}.js`
    const types = `./dist/types/${name}.d.ts`
    if (target.import !== output || target.types !== types)
      throw new Error(
        `${manifest.name} exports["${subpath}"] must be { "types": "${types}", "import": "${output}" } ` +
          `(the build writes one file per source module under dist/).`,
      )
    const source = path.join(packageDir, 'src', `${name}.ts`)
    const tsx = path.join(packageDir, 'src', `${name}.tsx`)
    if (!existsSync(source) && !existsSync(tsx)) {
      // Declared before its sources landed: leave it out of the build and the checks, and say so.
      console.warn(
        `[toolmark] ${manifest.name} exports["${subpath}"]: no src/${name}.ts yet, skipped`,
      )
      continue
    }
    entries.push({
      subpath,
      specifier: subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
      name,
      source: existsSync(source) || !existsSync(tsx) ? source : tsx,
      output,
      types,
    })
  }
  return entries
}
