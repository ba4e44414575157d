import type { ToolmarkMatchers } from '../src/testing'

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Matchers<T = any> extends ToolmarkMatchers<T> {}
}
