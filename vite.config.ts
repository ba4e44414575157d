import path from 'node:path'
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { aliases, root } from './aliases.ts'
import { packageEntries } from './scripts/packageEntries.mjs'

const entry = Object.fromEntries(packageEntries(root).map((e) => [e.name, e.source]))

/**
 * Library build of @toolmark/react: the entries of package.json `exports`, one ESM file per source
 * module (no shared chunks), so an app that never renders a dialog bundles no dialog code.
 * Unminified: the app's bundler minifies, and it needs the `process.env.NODE_ENV` guards as written.
 */
export default defineConfig({
  plugins: [react()],
  resolve: { alias: aliases },
  build: {
    lib: { entry, formats: ['es'] },
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    minify: false,
    rolldownOptions: {
      external: [
        /^react($|\/)/,
        /^react-dom($|\/)/,
        /^react-hook-form($|\/)/,
        /^@tanstack\//,
        /^@toolmark\/core($|\/)/,
        /^@toolmark\/mcp($|\/)/,
        /^zod($|\/)/,
        /^@hookform\//,
        /^ai($|\/)/,
        /^@ai-sdk\//,
        /^@assistant-ui\//,
      ],
      output: {
        preserveModules: true,
        preserveModulesRoot: path.join(root, 'src'),
        entryFileNames: '[name].js',
      },
    },
  },
})
