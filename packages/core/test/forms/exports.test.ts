import * as forms from '../../src/forms'

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
      'isSensitiveElement',
      'optionLookups',
    ])
  })

  it('tells secret inputs by type and autocomplete tokens, without a DOM', () => {
    const attributes = (attrs: Record<string, string>) => ({
      getAttribute: (name: string) => attrs[name] ?? null,
    })

    expect(forms.isSensitiveElement(attributes({ type: 'PASSWORD' }))).toBe(true)
    expect(forms.isSensitiveElement(attributes({ autocomplete: 'shipping cc-csc' }))).toBe(true)
    expect(forms.isSensitiveElement(attributes({ autocomplete: 'one-time-code' }))).toBe(true)
    expect(forms.isSensitiveElement(attributes({ autocomplete: 'current-password' }))).toBe(true)
    expect(forms.isSensitiveElement({ type: 'text', autocomplete: 'new-password' })).toBe(true)
    expect(forms.isSensitiveElement(attributes({ type: 'email', autocomplete: 'email' }))).toBe(
      false,
    )
    expect(forms.isSensitiveElement(attributes({ autocomplete: 'acc-number' }))).toBe(false)
    expect(forms.isSensitiveElement(null)).toBe(false)
  })
})
