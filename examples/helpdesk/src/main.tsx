import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { ToolProvider } from '@toolmark/react'
import { ApiError } from './api.ts'
import { App } from './App.tsx'
import { ToastProvider } from './toast.tsx'
import { tm } from './toolmark.ts'
import './styles.css'

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // A ticket that is not there will not appear on a second try.
      retry: (failures, error) =>
        failures < 1 && !(error instanceof ApiError && error.status === 404),
    },
  },
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
