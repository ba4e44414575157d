import * as forms from '../../src/forms'
import { isSensitiveElement } from '../../src/forms/fill/sensitiveFields'

describe('@toolmark/core/forms', () => {
  it('exports exactly these runtime values', () => {
    expect(Object.keys(forms).sort()).toEqual([
      'createDomFormTools',
      'createFormMemory',
      'createFormTools',
      'createWizardTools',
      'fileFields',
      'filePreview',
      'formProvenance',
      'formSteps',
      'isFileDescription',
      'optionLookups',
    ])
  })

  it('tells secret inputs by type and autocomplete tokens, without a DOM', () => {
    const attributes = (attrs: Record<string, string>) => ({
      getAttribute: (name: string) => attrs[name] ?? null,
    })

    expect(isSensitiveElement(attributes({ type: 'PASSWORD' }))).toBe(true)
    expect(isSensitiveElement(attributes({ autocomplete: 'shipping cc-csc' }))).toBe(true)
    expect(isSensitiveElement(attributes({ autocomplete: 'one-time-code' }))).toBe(true)
    expect(isSensitiveElement(attributes({ autocomplete: 'current-password' }))).toBe(true)
    expect(isSensitiveElement({ type: 'text', autocomplete: 'new-password' })).toBe(true)
    expect(isSensitiveElement(attributes({ type: 'email', autocomplete: 'email' }))).toBe(false)
    expect(isSensitiveElement(attributes({ autocomplete: 'acc-number' }))).toBe(false)
    expect(isSensitiveElement(null)).toBe(false)
  })
})
