import { bodyOf, type InstalledFeatures } from '../base/registryBody'
import type { ConfirmFeature, ConfirmFeatureKind } from '../types'
import type { InternalConfirmationStore } from './confirmationStore'

/** What a feature installs into: the registry's store, and its body's installed features. */
export type FeatureInstall = (store: InternalConfirmationStore, features: InstalledFeatures) => void

/**
 * What each genuine feature lends the registry it is given to. Keyed by the feature object (what
 * `grants()` or `questions()` made), never by a registry: it tells a genuine feature from a copy.
 */
const installers = new WeakMap<object, FeatureInstall>()

/** Makes a feature whose code arrives with the module that calls this, and only with it. */
export function makeFeature<K extends ConfirmFeatureKind>(
  kind: K,
  install: FeatureInstall,
): ConfirmFeature<K> {
  const feature: ConfirmFeature<K> = Object.freeze({ kind })
  installers.set(feature, install)
  return feature
}

/** Whether `value` is a feature of that kind, made by its own function. */
export const isFeature = (value: unknown, kind: ConfirmFeatureKind): value is ConfirmFeature =>
  typeof value === 'object' &&
  value !== null &&
  installers.has(value) &&
  (value as ConfirmFeature).kind === kind

/** Lends a feature's code to a registry's store and body (a second time changes nothing). */
export function installFeature(
  feature: ConfirmFeature,
  store: InternalConfirmationStore,
  features: InstalledFeatures,
): void {
  installers.get(feature)?.(store, features)
}

/**
 * Lends a feature to a registry made elsewhere: only a replay does (`replaySession` replays a
 * recording's questions and grants into the registry a test made). Everything else gives its
 * features at creation. An object not made by `createToolmark` keeps nothing in a body it lacks.
 */
export const lendFeature = (tm: { confirmations: object }, feature: ConfirmFeature): void =>
  installFeature(feature, tm.confirmations as InternalConfirmationStore, bodyOf(tm)?.features ?? {})
