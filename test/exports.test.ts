import * as react from '@toolmark/react'
import * as agUi from '@toolmark/react/ag-ui'
import * as aiSdk from '@toolmark/react/ai-sdk'
import * as assistantUi from '@toolmark/react/assistant-ui'
import * as devtools from '@toolmark/react/devtools'
import * as mcp from '@toolmark/react/mcp'
import * as tour from '@toolmark/react/tour'
import { CALLERS } from '../packages/core/src/types'

describe('@toolmark/react', () => {
  it('exports exactly the public runtime API', () => {
    expect(Object.keys(react).sort()).toEqual([
      'ConfirmDialog',
      'ToolProvider',
      'ToolScope',
      'UnstyledConfirmDialog',
      'defaultConfirmDialogLabels',
      'questionForm',
      'useAgentActivity',
      'useConfirmations',
      'useDomFormTool',
      'useTool',
      'useToolAnchor',
      'useToolmark',
      'useWebMCP',
    ])
  })

  it("names every caller in its default labels, in core's order (the devtools list callers from them)", () => {
    expect(Object.keys(react.defaultConfirmDialogLabels.callers)).toEqual([...CALLERS])
  })

  it('exports exactly <McpPairing> from @toolmark/react/mcp', () => {
    expect(Object.keys(mcp).sort()).toEqual(['McpPairing'])
  })

  it('exports exactly <ToolmarkDevtools> and its production variant from @toolmark/react/devtools', () => {
    expect(Object.keys(devtools).sort()).toEqual([
      'ToolmarkDevtools',
      'ToolmarkDevtoolsInProduction',
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
    expect(Object.keys(assistantUi).sort()).toEqual([
      'useToolmarkAssistantTools',
      'useToolmarkSendAutomaticallyWhen',
    ])
  })
})

describe('@toolmark/react/ag-ui', () => {
  it('exports exactly the public runtime API', () => {
    expect(Object.keys(agUi).sort()).toEqual(['useAgUiSession'])
  })
})

describe('@toolmark/react/tour', () => {
  it('exports exactly the public runtime API', () => {
    expect(Object.keys(tour).sort()).toEqual(['TourOverlay', 'defaultTourLabels', 'useTour'])
  })
})
