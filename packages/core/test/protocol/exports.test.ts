import { describe, expect, it } from 'vitest'
import * as agent from '@toolmark/core/agent'
import * as bridge from '@toolmark/core/bridge'
import * as protocol from '@toolmark/core/protocol'

// Adding to a public entry is a reviewed change: these lists must be edited with it.
describe('public entries of the bridge protocol', () => {
  it('@toolmark/core/protocol exports exactly these runtime values', () => {
    expect(Object.keys(protocol).sort()).toEqual([
      'DEFAULT_MESSAGE_LIMITS',
      'MESSAGE_TYPES',
      'PROTOCOL_VERSION',
      'decodeMessage',
      'directionSchemas',
      'encodeMessage',
      'messageSchemas',
      'validateMessage',
    ])
  })

  it('@toolmark/core/bridge exports exactly these runtime values', () => {
    expect(Object.keys(bridge).sort()).toEqual([
      'bridge',
      'createInPageChannel',
      'postMessageTransport',
      'websocketTransport',
    ])
  })

  it('@toolmark/core/agent exports exactly these runtime values', () => {
    expect(Object.keys(agent).sort()).toEqual([
      'CLIENT_SCHEMA_CHECK',
      'PAGE_TEXT_NOTE',
      'createInPageChannel',
      'createPageClient',
      'fencePageText',
      'jsonSchemaCheck',
      'pageTools',
      'postMessageTransport',
      'renderSummary',
      'websocketTransport',
    ])
  })

  it('exports frozen schemas and limits', () => {
    expect(Object.isFrozen(protocol.messageSchemas.call)).toBe(true)
    expect(
      Object.isFrozen((protocol.messageSchemas.call as { properties: object }).properties),
    ).toBe(true)
    expect(Object.isFrozen(protocol.DEFAULT_MESSAGE_LIMITS.toPage)).toBe(true)
    expect(protocol.MESSAGE_TYPES).toEqual({
      toAgent: ['manifest', 'result', 'confirmed', 'progress'],
      toPage: ['hello', 'call', 'describe', 'cancel'],
    })
  })
})
