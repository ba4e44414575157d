import * as aiSdk from '@toolmark/core/ai-sdk'

describe('@toolmark/core/ai-sdk', () => {
  it('exports exactly these runtime values', () => {
    expect(Object.keys(aiSdk).sort()).toEqual([
      'TOOLMARK_BODY_FIELD',
      'callForChat',
      'chatToolList',
      'describeChatTool',
      'readToolmarkTools',
      'toolsFromManifest',
    ])
  })
})
