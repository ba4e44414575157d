import type { InstalledFeatures, RegistryBody } from '../base/registryBody'
import type { ToolRecord } from '../tool/toolRecord'
import type { ErrorEvent, InteractionEvent } from '../types'
import { definitionsOf } from './definitions'

/** What `createToolmark` has made when it assembles a registry's body. */
export interface BodyParts {
  readonly report: (event: ErrorEvent) => void
  readonly tools: ReadonlyMap<string, ToolRecord>
  /** The call pipeline's wrappers (`call/runWrappers.ts`). */
  readonly runWrappers: RegistryBody['runWrappers']
  readonly interaction: (event: InteractionEvent) => void
  /** What the optional parts given at creation installed. */
  readonly features: InstalledFeatures
}

/** A registry's body: one record of all it carries beyond its public shape (DESIGN §11). */
export function createRegistryBody({
  report,
  tools,
  runWrappers,
  interaction,
  features,
}: BodyParts): RegistryBody {
  return {
    report,
    definitions: definitionsOf(tools),
    tools,
    runWrappers,
    anchors: undefined,
    interaction,
    currentTour: undefined,
    declarativeForms: new Map(),
    features,
    caches: {},
  }
}
