import * as react from '@toolmark/react'

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
