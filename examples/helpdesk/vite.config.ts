import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { aliases } from '../../aliases.ts'
import { readAssistantConfig } from './server/assistant.ts'
import { helpdeskApi } from './server/plugin.ts'

const here = path.dirname(fileURLToPath(import.meta.url))
const dataDir = process.env.HELPDESK_DATA_DIR || path.join(here, 'data')
// Each `npm start` begins from the demo data set, so the suggestions on screen ("close ticket
// 3") always work. HELPDESK_KEEP_DATA=1 keeps the last run's tickets; a directory set with
// HELPDESK_DATA_DIR is kept unless HELPDESK_KEEP_DATA=0. The plugin empties the directory only
// once it knows the port is free and no other helpdesk has the directory open.
const keep = process.env.HELPDESK_KEEP_DATA
const fresh = keep === '0' || (keep !== '1' && !process.env.HELPDESK_DATA_DIR)

// `npm start` serves http://localhost:5173; `npm start -- --port 5174` (Vite's own flag, which
// wins over PORT) or PORT=5174 another port. Environment: PORT, HELPDESK_DATA_DIR (the database
// directory), HELPDESK_KEEP_DATA, OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL (a model for
// the assistant, used by the server only) and VITE_TOOLMARK_MCP_PORT (the port of a local
// toolmark-mcp).
export default defineConfig({
  root: here,
  plugins: [
    react(),
    helpdeskApi({
      dataDir,
      fresh,
      assistant: readAssistantConfig(process.env),
    }),
  ],
  resolve: { alias: aliases },
  server: {
    port: Number(process.env.PORT) || 5173,
    strictPort: true,
    watch: { ignored: ['**/data/**', '**/e2e/**'] },
    warmup: { clientFiles: ['./src/main.tsx'] },
  },
  // Optimized when the server starts rather than on the first visit, so the first page load
  // never reloads itself halfway.
  optimizeDeps: {
    entries: ['index.html'],
    include: [
      'react',
      'react-dom',
      'react-dom/client',
      'react/jsx-runtime',
      'react/jsx-dev-runtime',
      '@tanstack/react-query',
      'react-hook-form',
      '@hookform/resolvers/zod',
      'zod',
    ],
  },
})
