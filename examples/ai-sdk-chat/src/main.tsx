import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createToolmark } from '@toolmark/core'
import { ToolProvider } from '@toolmark/react'
import { App } from './App.tsx'
import './styles.css'

const tm = createToolmark()

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ToolProvider toolmark={tm}>
      <App />
    </ToolProvider>
  </StrictMode>,
)
