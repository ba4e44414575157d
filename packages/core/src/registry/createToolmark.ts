import { createCallPipeline } from '../call/callPipeline'
import { installFeature } from '../confirmations/feature'
import { createConfirmationStore } from '../confirmations/confirmationStore'
import { createEmitter } from '../events/emitter'
import { isObject } from '../base/guards'
import { randomId } from '../base/ids'
import { attachBody, type InstalledFeatures } from '../base/registryBody'
import { normalizeResult } from '../base/results'
import type { RegistryInternals, ToolRecord } from '../tool/toolRecord'
import type { CancelledBy, ErrorEvent, Policy, Toolmark, ToolmarkOptions } from '../types'
import { createUndoJournal } from '../undo/undoJournal'
import { createManifests } from './manifest'
import { misconfiguredFor, toolErrorFor } from './misconfiguration'
import { defaultDev, readOptions } from './options'
import { createRevisions } from './revisions'
import { createScopeTree } from './scopeTree'
import { createAccess } from './access'
import { createRegistrar } from './registration'
import { createRegistryBody } from './registryBody'
import { createAttachments } from './attachments'

/**
 * Creates a registry: tools, the call pipeline, policy, confirmations, undo and events.
 * Starts no timer or listener until it is used. Misconfigurations throw in development, naming
 * the fix; in production they become `error` events and the registry fails closed.
 *
 * @example
 * const tm = createToolmark()
 * tm.register({ name: 'greet', description: 'Says hello', run: () => ok('hello') })
 * await tm.call('greet') // { status: 'ok', data: 'hello' }
 */
export function createToolmark(options: ToolmarkOptions = {}): Toolmark {
  const read = readOptions(options)
  const dev = read.dev ?? defaultDev()
  const { limits, converter } = read
  const events = createEmitter()
  const errorEvent = (event: ErrorEvent) => events.emit('error', event)
  const misconfigured = misconfiguredFor(dev, errorEvent)

  // Problems found while creating the registry are reported once listeners can be attached.
  const startup: ErrorEvent[] = []
  const atStartup = (event: ErrorEvent) => startup.push(event)
  for (const problem of read.problems) misconfigured('invalid_options', problem, '', atStartup)
  const tools = new Map<string, ToolRecord>()
  const revisions = createRevisions({
    events,
    errorEvent,
    misconfigured,
    onChange: () => {
      access.stale()
      manifests.clear()
    },
    beforeNotify: () => pipeline.withdraw(),
  })
  const { changed } = revisions
  const confirmations = createConfirmationStore({
    max: () => limits.pendingConfirmations,
    onPresenterChange: changed,
    events,
    report: errorEvent,
  })
  const access = createAccess({
    policy: read.policy as Policy | undefined,
    confirm: read.confirm,
    verification: read.verification,
    hasPresenter: () => confirmations.hasPresenter(),
    misconfigured,
    atStartup,
    tools,
    changed,
  })
  if (startup.length > 0) queueMicrotask(() => startup.splice(0).forEach(errorEvent))
  // The optional parts given at creation lend their code before anything is filed.
  const features: InstalledFeatures = {}
  for (const feature of read.features) installFeature(feature, confirmations, features)

  const scopes = createScopeTree({
    misconfigured,
    changed,
    disposeTool: (record) => registrar.disposeTool(record),
  })
  const toolError = toolErrorFor(errorEvent)
  const internals: RegistryInternals = {
    dev,
    limits,
    events,
    tools,
    rev: revisions.rev,
    access: access.access,
    policyOf: access.policyOf,
    rateLimiter: access.rateLimiter,
    confirmMode: access.confirmMode,
    verification: read.verification,
    verifies: access.verifies,
    misconfigured,
    errorEvent,
    toolError,
    converter,
    // What `normalizeResult` reports is said like every other error about a tool's own code.
    normalize: (raw, source) =>
      normalizeResult(raw, ({ code, cause }, at) => toolError(code, at, cause), source),
    features,
  }
  const manifests = createManifests(internals, converter)
  const journal = createUndoJournal(internals)
  const pipeline = createCallPipeline(internals, journal, confirmations)
  const registrar = createRegistrar({ dev, converter, tools, scopes, misconfigured, changed })
  // A removed tool's undo entries and calls go with it.
  registrar.holders.push(journal, pipeline)
  const attached = createAttachments(() => tm, { dev, events, misconfigured, errorEvent })
  const { runWrappers } = pipeline
  const body = createRegistryBody({
    report: errorEvent,
    tools,
    runWrappers,
    interaction: (event) => events.emit('interaction', event),
    features,
  })

  const tm: Toolmark = attachBody(
    {
      clientId: randomId('page_'),
      dev,
      limits,
      ...(read.files ? { files: read.files } : {}),
      get rev() {
        return revisions.rev()
      },
      register: registrar.register,
      scope: (name, scopeOptions) => scopes.childScope(scopes.root, name, scopeOptions),
      manifest: manifests.manifest,
      describe: manifests.describe,
      call: pipeline.call,
      confirmations,
      undo: journal.undo,
      canUndo: journal.canUndo,
      verifies: access.toolVerifies,
      cancelAll(cancelOptions) {
        const by = isObject(cancelOptions) ? cancelOptions.by : undefined
        pipeline.cancelAll(by === 'policy' || by === 'signal' ? (by as CancelledBy) : 'operator')
      },
      setPolicy: access.setPolicy,
      subscribe: revisions.subscribe,
      events: attached.events,
      anchor: (tool, param) => body.anchors?.element(tool, param),
      use: attached.use,
    } satisfies Toolmark,
    body,
  )
  return tm
}
