import type { ToolmarkMatchers } from '../src/testing'

// The augmentation docs/testing.md shows: no type parameters, so it merges with Vitest 4's
// `Matchers<T>` and Vitest 5's `Matchers<R, T>` alike.
declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Matchers extends ToolmarkMatchers {}
}
