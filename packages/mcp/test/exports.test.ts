import * as client from '../src/client'

describe('@toolmark/mcp/client', () => {
  it('exports exactly the page side of the pairing', () => {
    expect(Object.keys(client).sort()).toEqual([
      'DEFAULT_MCP_PORT',
      'createMcpPairingObserver',
      'forgetMcpSession',
      'hasMcpSession',
      'mcpPairing',
    ])
  })
})
