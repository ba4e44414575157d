import { describe, expect, it } from 'vitest'
import * as agent from '@toolmark/core/agent'
import * as bridge from '@toolmark/core/bridge'
import * as protocol from '@toolmark/core/protocol'
import { DEFAULT_MESSAGE_LIMITS } from '../../src/protocol/bounds'
import { MESSAGE_TYPES } from '../../src/protocol/messages'

// Adding to a public entry is a reviewed change: these lists must be edited with it.
describe('public entries of the bridge protocol', () => {
  it('@toolmark/core/protocol exports exactly these runtime values', () => {
    expect(Object.keys(protocol).sort()).toEqual([
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
      'PAGE_TEXT_NOTE',
      'createPageClient',
      'fencePageText',
      'jsonSchemaCheck',
      'pageTools',
      'renderSummary',
    ])
  })

  it('exports frozen schemas, and keeps its limits and message types frozen', () => {
    expect(Object.isFrozen(protocol.messageSchemas.call)).toBe(true)
    expect(
      Object.isFrozen((protocol.messageSchemas.call as { properties: object }).properties),
    ).toBe(true)
    expect(Object.isFrozen(DEFAULT_MESSAGE_LIMITS.toPage)).toBe(true)
    expect(MESSAGE_TYPES).toEqual({
      toAgent: ['manifest', 'result', 'confirmed', 'progress'],
      toPage: ['hello', 'call', 'describe', 'cancel'],
    })
  })
})
