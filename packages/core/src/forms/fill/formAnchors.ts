import { addAnchorSource, type AnchorCheck, type AnchorSource } from '../../anchors/anchors'
import { validateWith } from '../../schema/standardSchema'
import type { StandardSchemaV1, Toolmark } from '../../types'
import { getIn, isAtOrBelow, isEmptyValue, setIn, splitPath } from '../values/paths'
import type { FormAdapter, FormField } from '../values/types'

const isElement = (value: unknown): value is Element =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Element).contains === 'function' &&
  typeof (value as Element).closest === 'function'

/**
 * Where a form's tools live on the page, read from its adapter's fields: each field by its path,
 * the form (or, for `submit`, its submit button) for the tool itself. A guided tour's step is done
 * when its field holds a value the form's schema accepts, or, for the tool, when the whole form
 * would submit.
 */
function formAnchorSource(
  adapter: FormAdapter<unknown>,
  schema: StandardSchemaV1,
  kind: 'fill' | 'submit',
): AnchorSource {
  const fields = (): readonly FormField[] => {
    try {
      return adapter.fields()
    } catch {
      return []
    }
  }
  const elementOf = (path: string) => {
    const element = fields().find((field) => field.path === path)?.element
    return isElement(element) ? element : undefined
  }
  const root = (): Element | undefined => {
    for (const field of fields()) {
      if (isElement(field.element)) return field.element.closest('form') ?? field.element
    }
    return undefined
  }
  const button = (form: Element): Element | null =>
    form.querySelector('button[type="submit"], input[type="submit"], button:not([type])')
  return {
    element(param) {
      if (param !== undefined) return elementOf(param)
      const form = root()
      if (kind === 'fill' || !form) return form
      return button(form) ?? form
    },
    locate(target) {
      for (const field of fields()) {
        const element = field.element
        if (isElement(element) && (element === target || element.contains(target))) {
          return field.path
        }
      }
      const form = root()
      if (!form?.contains(target)) return undefined
      // The fill is the whole form; the submit only its button, or the form when it submits.
      if (kind === 'fill' || target === form) return ''
      return button(form)?.contains(target) ? '' : undefined
    },
    check: (param) => checkForm(adapter, schema, param),
    ...(kind === 'fill'
      ? {
          inputFor: (param: string, value: unknown) => ({
            values: setIn({}, splitPath(param), value),
          }),
        }
      : {}),
  }
}

/** Whether a field holds a value the schema accepts (no `param`: whether the form would submit). */
async function checkForm(
  adapter: FormAdapter<unknown>,
  schema: StandardSchemaV1,
  param: string | undefined,
): Promise<AnchorCheck> {
  const values = adapter.getValues()
  if (param !== undefined) {
    const value = getIn(values, splitPath(param))
    if (isEmptyValue(value)) {
      return { done: false, message: 'This field is still empty.' }
    }
  }
  const validated = await validateWith(schema, values)
  if (!('issues' in validated)) return { done: true }
  const issues = validated.issues.filter(
    (issue) => param === undefined || isAtOrBelow(issue.path, param),
  )
  if (issues.length === 0) return { done: true }
  const [first] = issues
  return {
    done: false,
    message: param === undefined && first.path ? `${first.path}: ${first.message}` : first.message,
  }
}

/** Anchors a form's `fill` and `submit` tools on its fields; returns the removal. */
export function anchorFormTools(
  tm: Toolmark,
  names: { fill: string; submit: string },
  adapter: FormAdapter<unknown>,
  schema: StandardSchemaV1,
): () => void {
  const removeFill = addAnchorSource(tm, names.fill, formAnchorSource(adapter, schema, 'fill'))
  const removeSubmit = addAnchorSource(
    tm,
    names.submit,
    formAnchorSource(adapter, schema, 'submit'),
  )
  return () => {
    removeFill()
    removeSubmit()
  }
}
