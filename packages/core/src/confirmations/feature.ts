import type { ConfirmFeature, ConfirmFeatureKind } from '../types'
import type { InternalConfirmationStore } from './confirmationStore'

/** What each genuine feature lends the store it is given to. */
const installers = new WeakMap<object, (store: InternalConfirmationStore) => void>()

/** Makes a feature whose code arrives with the module that calls this, and only with it. */
export function makeFeature<K extends ConfirmFeatureKind>(
  kind: K,
  install: (store: InternalConfirmationStore) => void,
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

/** Lends a feature's code to a registry's store (a second time changes nothing). */
export function installFeature(feature: ConfirmFeature, store: InternalConfirmationStore): void {
  installers.get(feature)?.(store)
}

/**
 * Lends a feature to a registry made elsewhere: what the test registry, a replay and an AG-UI
 * session in `interrupt` mode do for the parts they need.
 */
export const lendFeature = (tm: { confirmations: object }, feature: ConfirmFeature): void =>
  installFeature(feature, tm.confirmations as InternalConfirmationStore)
