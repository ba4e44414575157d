import * as react from '@toolmark/react'
import * as aiSdk from '@toolmark/react/ai-sdk'
import * as assistantUi from '@toolmark/react/assistant-ui'

describe('@toolmark/react', () => {
  it('exports exactly the public runtime API', () => {
    expect(Object.keys(react).sort()).toEqual([
      'ConfirmDialog',
      'ToolProvider',
      'ToolScope',
      'defaultConfirmDialogLabels',
      'useAgentActivity',
      'useConfirmations',
      'useTool',
      'useToolmark',
      'useWebMCP',
    ])
  })
})

describe('@toolmark/react/ai-sdk', () => {
  it('exports exactly the public runtime API', () => {
    expect(Object.keys(aiSdk).sort()).toEqual(['useToolmarkChat'])
  })
})

describe('@toolmark/react/assistant-ui', () => {
  it('exports exactly the public runtime API', () => {
    expect(Object.keys(assistantUi).sort()).toEqual(['useToolmarkAssistantTools'])
  })
})
