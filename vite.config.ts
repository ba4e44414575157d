import { existsSync } from 'node:fs'
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { aliases, entries } from './aliases.ts'

const entry = Object.fromEntries(
  Object.entries(
    entries('src', ['index', 'rhf', 'query', 'devtools', 'mcp', 'ai-sdk', 'assistant-ui', 'ag-ui']),
  ).filter(([, file]) => existsSync(file)),
)

export default defineConfig({
  plugins: [react()],
  resolve: { alias: aliases },
  build: {
    lib: { entry, formats: ['es'], fileName: (_format, name) => `${name}.js` },
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
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
    },
  },
})
