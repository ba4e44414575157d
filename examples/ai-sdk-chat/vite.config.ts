import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { aliases } from '../../aliases.ts'
import { chooseModel } from './server/model.ts'
import { chatApi } from './server/plugin.ts'

const here = path.dirname(fileURLToPath(import.meta.url))

// `npm run start:ai-sdk` serves http://localhost:5174 (useChat) and /assistant-ui.html (the same
// app on assistant-ui's AI SDK runtime). Environment: PORT, and OPENAI_BASE_URL / OPENAI_API_KEY /
// OPENAI_MODEL for a real model (read by the server only); without them a scripted model answers.
export default defineConfig({
  root: here,
  plugins: [react(), chatApi(chooseModel(process.env))],
  resolve: { alias: aliases },
  server: {
    port: Number(process.env.PORT) || 5174,
    strictPort: true,
    watch: { ignored: ['**/e2e/**'] },
  },
  optimizeDeps: {
    entries: ['index.html', 'assistant-ui.html'],
    include: [
      'react',
      'react-dom',
      'react-dom/client',
      'react/jsx-runtime',
      'react/jsx-dev-runtime',
      'react-hook-form',
      '@hookform/resolvers/zod',
      'zod',
      'ai',
      '@ai-sdk/react',
      '@assistant-ui/react',
      '@assistant-ui/react-ai-sdk',
    ],
  },
})
