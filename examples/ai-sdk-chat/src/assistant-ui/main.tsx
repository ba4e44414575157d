import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createToolmark } from '@toolmark/core'
import { ToolProvider } from '@toolmark/react'
import { AssistantUiApp } from './AssistantUiApp.tsx'
import '../styles.css'

const tm = createToolmark()

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ToolProvider toolmark={tm}>
      <AssistantUiApp />
    </ToolProvider>
  </StrictMode>,
)
