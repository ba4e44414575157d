import * as core from '../src/index'
import * as agUi from '../src/ag-ui'
import * as observers from '../src/observers'
import * as lint from '../src/lint'
import * as otel from '../src/otel'
import * as passkey from '../src/passkey'
import * as testing from '../src/testing'
import * as tour from '../src/tour'
import { DEFAULT_LIMITS } from '../src/registry/options'
import { CALLERS } from '../src/types'

describe('public entry points', () => {
  it('exports exactly these runtime values from @toolmark/core', () => {
    expect(Object.keys(core).sort()).toEqual(
      [
        'REDACTED',
        'addAnchor',
        'cancelled',
        'createToolmark',
        'errorResult',
        'grants',
        'invalid',
        'isToolName',
        'isToolResult',
        'ok',
        'questions',
        'refuse',
        'reportError',
        'toLlmName',
      ].sort(),
    )
  })

  it('exports exactly these runtime values from @toolmark/core/tour', () => {
    expect(Object.keys(tour).sort()).toEqual([
      'currentTour',
      'registerTourTool',
      'startTour',
      'subscribeCurrentTour',
    ])
  })

  it('exports exactly these runtime values from @toolmark/core/ag-ui', () => {
    expect(Object.keys(agUi).sort()).toEqual(['agUiTools', 'createAgUiSession'])
  })

  it('exports exactly these runtime values from @toolmark/core/testing', () => {
    expect(Object.keys(testing).sort()).toEqual([
      'MissingSecretError',
      'ReplayError',
      'createRecordingModelContext',
      'createScriptedAgent',
      'createTestToolmark',
      'installTestHook',
      'pageUnderTest',
      'recordSession',
      'replaySession',
      'toolmarkFixtures',
      'toolmarkMatchers',
    ])
  })

  it('exports exactly these runtime values from @toolmark/core/observers', () => {
    expect(Object.keys(observers).sort()).toEqual(
      [
        'createActivityStore',
        'createRegistration',
        'createSubscribable',
        'createToolBinding',
        'hintsKey',
        'keyToHints',
        'latestSchema',
        'questionFormOf',
        'sameSchema',
        'sensitiveKey',
      ].sort(),
    )
  })

  it('exports exactly these runtime values from @toolmark/core/passkey', () => {
    expect(Object.keys(passkey).sort()).toEqual([
      'approvalChallenge',
      'checkAssertion',
      'passkeyVerifier',
      'registerPasskey',
      'webauthnVerifier',
    ])
  })

  it('exports exactly these runtime values from @toolmark/core/lint', () => {
    expect(Object.keys(lint).sort()).toEqual([
      'LINT_RULES',
      'LintInputError',
      'lintManifest',
      'lintManifestOf',
    ])
  })

  it('exports exactly these runtime values from @toolmark/core/otel', () => {
    expect(Object.keys(otel).sort()).toEqual(['otel'])
  })

  it('exports the five result helpers of the seed as functions', () => {
    for (const name of ['ok', 'invalid', 'refuse', 'cancelled', 'errorResult'] as const) {
      expect(typeof core[name]).toBe('function')
    }
  })

  it('lists the callers in a stable, frozen order, and freezes the default limits', () => {
    expect(CALLERS).toEqual(['inapp', 'webmcp', 'mcp', 'test', 'human', 'tour'])
    expect(Object.isFrozen(CALLERS)).toBe(true)
    expect(Object.isFrozen(DEFAULT_LIMITS)).toBe(true)
  })
})
