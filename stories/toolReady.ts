import { expect, waitFor } from 'storybook/test'
import type { Toolmark } from '@toolmark/core'

/** Waits until the story's components have registered the tool `name`. */
export const ready = (tm: Toolmark, name: string) =>
  waitFor(() => expect(tm.describe(name)).toBeDefined())
