import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

const here = path.dirname(fileURLToPath(import.meta.url))
const names = [
  'index',
  'bridge',
  'agent',
  'webmcp',
  'protocol',
  'testing',
  'forms',
  'ai-sdk',
  'observers',
  'passkey',
]
const entry = Object.fromEntries(
  names
    .map((name) => [
      name,
      path.join(here, 'src', name === 'index' ? 'index.ts' : `${name}/index.ts`),
    ])
    .filter(([, file]) => existsSync(file)),
)

/** Library build of @toolmark/core: one ESM file per entry, shared chunks, no dependencies. */
export default defineConfig({
  build: {
    lib: { entry, formats: ['es'], fileName: (_format, name) => `${name}.js` },
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    minify: false,
    target: 'es2022',
  },
})
