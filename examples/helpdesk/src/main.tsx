import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { ToolProvider } from '@toolmark/react'
import { App } from './App.tsx'
import { ToastProvider } from './toast.tsx'
import { tm } from './toolmark.ts'
import './styles.css'

const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: 10_000, retry: 1 } },
})

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <ToolProvider toolmark={tm}>
        <ToastProvider>
          <App />
        </ToastProvider>
      </ToolProvider>
    </QueryClientProvider>
  </StrictMode>,
)
