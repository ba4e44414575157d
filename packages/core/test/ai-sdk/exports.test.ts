import * as aiSdk from '@toolmark/core/ai-sdk'

describe('@toolmark/core/ai-sdk', () => {
  it('exports exactly these runtime values', () => {
    expect(Object.keys(aiSdk).sort()).toEqual([
      'DEFAULT_CHAT_TOOL_LIST_LIMITS',
      'TOOLMARK_BODY_FIELD',
      'callForChat',
      'chatToolList',
      'describeChatTool',
      'readToolmarkTools',
      'toolsFromManifest',
    ])
  })
})
