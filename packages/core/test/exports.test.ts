import * as core from '../src/index'
import * as agUi from '../src/ag-ui'
import * as observers from '../src/observers'
import * as lint from '../src/lint'
import * as otel from '../src/otel'
import * as passkey from '../src/passkey'
import * as testing from '../src/testing'
import * as tour from '../src/tour'

describe('public entry points', () => {
  it('exports exactly these runtime values from @toolmark/core', () => {
    expect(Object.keys(core).sort()).toEqual(
      [
        'CALLERS',
        'DEFAULT_LIMITS',
        'REDACTED',
        'addAnchor',
        'addAnchorSource',
        'cancelled',
        'createToolmark',
        'enableGrants',
        'enableQuestions',
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
      'MAX_STEP_TEXT',
      'MAX_STEP_TITLE',
      'MAX_TOUR_STEPS',
      'currentTour',
      'registerTourTool',
      'startTour',
      'subscribeCurrentTour',
      'tourStepIssues',
    ])
  })

  it('exports exactly these runtime values from @toolmark/core/ag-ui', () => {
    expect(Object.keys(agUi).sort()).toEqual([
      'AG_UI_APPROVAL_REASON',
      'AG_UI_APPROVAL_SCHEMA',
      'AG_UI_METADATA_KEY',
      'AG_UI_QUESTION_REASON',
      'agUiTools',
      'createAgUiSession',
    ])
  })

  it('exports exactly these runtime values from @toolmark/core/testing', () => {
    expect(Object.keys(testing).sort()).toEqual([
      'MissingSecretError',
      'RECORDING_VERSION',
      'ReplayError',
      'TEST_HOOK_GLOBAL',
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
        'IDLE',
        'Registration',
        'Subscribable',
        'createActivityStore',
        'createRegistration',
        'createSubscribable',
        'createToolBinding',
        'createToolCallStore',
        'grantsEnabled',
        'hintsKey',
        'questionFormOf',
        'questionsEnabled',
        'keyToHints',
        'latestSchema',
        'sameJsonSchema',
        'sameSchema',
        'sensitiveKey',
      ].sort(),
    )
  })

  it('exports exactly these runtime values from @toolmark/core/passkey', () => {
    expect(Object.keys(passkey).sort()).toEqual([
      'approvalChallenge',
      'canonicalJson',
      'checkAssertion',
      'passkeyVerifier',
      'registerPasskey',
      'webauthnVerifier',
    ])
  })

  it('exports exactly these runtime values from @toolmark/core/lint', () => {
    expect(Object.keys(lint).sort()).toEqual([
      'LINT_RULES',
      'LINT_RULE_IDS',
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

  it('lists the callers in a stable, frozen order', () => {
    expect(core.CALLERS).toEqual(['inapp', 'webmcp', 'mcp', 'test', 'human', 'tour'])
    expect(Object.isFrozen(core.CALLERS)).toBe(true)
    expect(Object.isFrozen(core.DEFAULT_LIMITS)).toBe(true)
  })
})
