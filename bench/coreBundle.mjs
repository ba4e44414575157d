// @toolmark/core as an app ships it, for the benchmarks that run it in plain Node.
//
// Node 20 cannot import the TypeScript sources directly, so the core entry is bundled in memory
// with Vite's own build API, in production mode (development checks and output validation off),
// unminified. Core has no dependencies, so the bundle is self-contained.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'vite'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/**
 * The source of a bundled core entry (default the root; `'ai-sdk'`, `'agent'`… for a subpath; a
 * path ending in `.ts` for one source module, such as `'schema/jsonSchemaCheck.ts'`), as one ES
 * module. `from` is the checkout whose sources are bundled (default this one).
 */
export async function buildCore(entry = '', from = root) {
  const [output] = await build({
    configFile: false,
    logLevel: 'silent',
    mode: 'production',
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      write: false,
      minify: false,
      lib: {
        entry: entry.endsWith('.ts')
          ? path.join(from, 'packages/core/src', entry)
          : path.join(from, 'packages/core/src', entry, 'index.ts'),
        formats: ['es'],
        fileName: 'core',
      },
    },
  })
  return output.output.find((item) => item.type === 'chunk' && item.isEntry).code
}

/** Imports a bundle's source from a temporary file, removed once it is loaded. */
export async function importSource(code) {
  const dir = mkdtempSync(path.join(tmpdir(), 'toolmark-bench-'))
  const file = path.join(dir, 'core.mjs')
  writeFileSync(file, code)
  try {
    return await import(pathToFileURL(file).href)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
