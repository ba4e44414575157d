import { vi } from 'vitest'
import type { FormAdapter, FormField, FormSubmitOutcome } from '../../src/forms'
import { setIn } from '../../src/forms/values/paths'

/**
 * A form held in memory, the way a form library would hold it: values, defaults, the paths the
 * user changed (`type` marks them, like a library's dirty tracking) and the registered fields.
 */
export function memoryForm<T extends Record<string, unknown>>(
  defaults: T,
  options: {
    fields?: FormField[]
    submit?: (values: T) => FormSubmitOutcome | Promise<FormSubmitOutcome>
  } = {},
) {
  let values: Record<string, unknown> = structuredClone(defaults)
  const dirty = new Set<string>()
  const fields: FormField[] = options.fields ?? []
  const adapter = {
    getValues: vi.fn(() => values),
    defaultValues: () => defaults,
    setValues: vi.fn((map: ReadonlyMap<string, unknown>, _options: { source: string }) => {
      for (const [path, value] of map) values = setIn(values, path.split('.'), value) as T
    }),
    dirtyPaths: () => [...dirty],
    submit: vi.fn(async () =>
      options.submit ? options.submit(values as T) : { ok: true as const, data: values },
    ),
    fields: () => fields,
  } satisfies FormAdapter<Record<string, unknown>>
  return {
    adapter,
    fields,
    get values(): any {
      return values
    },
    /** The user types `value` into the field at `path`. */
    type(path: string, value: unknown) {
      values = setIn(values, path.split('.'), value) as T
      dirty.add(path)
    },
    /** The user focuses and leaves a field without changing it. */
    touch(path: string) {
      dirty.add(path)
    },
  }
}
