/**
 * The name a person reads for a form control, taken from its label's own words: the controls a
 * label wraps (a `<select>` and its options, a textarea, nested inputs, buttons) and decorations
 * hidden from assistive technology (a "*") are left out, so a wrapped select reads "Priority",
 * never "PriorityLowNormalHigh".
 */

/** Elements whose text is a value or a choice, not part of the label's words. */
const NOT_LABEL_TEXT =
  'select, option, optgroup, datalist, textarea, input, button, output, meter, progress, [aria-hidden="true"], [hidden], script, style, template'

/** The label's own words of `node`, whitespace collapsed; `undefined` when nothing is left. */
export function labelText(node: Element | null | undefined): string | undefined {
  if (!node) return undefined
  const copy = node.cloneNode(true) as Element
  for (const inner of copy.querySelectorAll(NOT_LABEL_TEXT)) inner.remove()
  return copy.textContent?.replace(/\s+/g, ' ').trim() || undefined
}

/** The words of the elements named by an `aria-labelledby` list, in order. */
function labelledByText(element: Element): string | undefined {
  const ids = element.getAttribute('aria-labelledby')
  if (!ids) return undefined
  const text = ids
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => labelText(element.ownerDocument.getElementById(id)))
    .filter(Boolean)
    .join(' ')
  return text || undefined
}

/** `aria-labelledby`, then `aria-label`, the precedence of the accessible name. */
function ariaName(element: Element): string | undefined {
  return labelledByText(element) ?? (element.getAttribute('aria-label')?.trim() || undefined)
}

/** The name of a radio group: its group's aria name, or its fieldset's legend. */
function groupLabel(element: Element): string | undefined {
  const group = element.closest('fieldset, [role="radiogroup"], [role="group"]')
  if (!group) return undefined
  const aria = ariaName(group)
  if (aria) return aria
  const legend = group.tagName === 'FIELDSET' ? group.querySelector(':scope > legend') : null
  return labelText(legend)
}

/** The `<label>`s of a control: `for=` and wrapping ones, also where `.labels` is missing. */
function labelsOf(element: Element): Element[] {
  const own = (element as HTMLInputElement).labels
  if (own && own.length > 0) return [...own]
  const found: Element[] = []
  const wrapping = element.closest('label')
  if (wrapping) found.push(wrapping)
  const id = element.getAttribute('id')
  if (id) {
    for (const label of element.ownerDocument.querySelectorAll('label[for]')) {
      if (label.getAttribute('for') === id && !found.includes(label)) found.push(label)
    }
  }
  return found
}

/**
 * The label of a form field as a person reads it: a radio by its group (its own label names one
 * choice), anything else by `aria-labelledby`, `aria-label`, then its `<label>`s.
 */
export function fieldLabel(element: Element): string | undefined {
  if (element.getAttribute('type') === 'radio') return groupLabel(element)
  const aria = ariaName(element)
  if (aria) return aria
  const words = labelsOf(element)
    .map((label) => labelText(label))
    .filter(Boolean)
    .join(' ')
  return words || undefined
}
