import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import { packageEntries } from '../../scripts/packageEntries.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const entry = Object.fromEntries(packageEntries(here).map((e) => [e.name, e.source]))

/**
 * Library build of @toolmark/core: the entries of package.json `exports`, one ESM file per source
 * module (no shared chunks), so an app's bundler keeps only what an import reaches. Unminified:
 * the app's bundler minifies, and it needs the `process.env.NODE_ENV` guards as written.
 */
export default defineConfig({
  build: {
    lib: { entry, formats: ['es'] },
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    minify: false,
    target: 'es2022',
    rolldownOptions: {
      output: {
        preserveModules: true,
        preserveModulesRoot: path.join(here, 'src'),
        entryFileNames: '[name].js',
      },
    },
  },
})
