import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import type { LanguageModel } from 'ai'
import { scriptedModel } from './scriptedModel.ts'

/** Which model answers: an OpenAI-compatible endpoint when configured, else the scripted one. */
export function chooseModel(env: NodeJS.ProcessEnv): {
  model: LanguageModel
  label: string
  scripted: boolean
} {
  const baseURL = env.OPENAI_BASE_URL
  const apiKey = env.OPENAI_API_KEY
  if (!baseURL && !apiKey)
    return { model: scriptedModel(), label: 'the scripted model', scripted: true }
  const provider = createOpenAICompatible({
    name: 'openai',
    baseURL: baseURL || 'https://api.openai.com/v1',
    apiKey,
  })
  const modelId = env.OPENAI_MODEL || 'gpt-4o-mini'
  return {
    model: provider(modelId),
    label: `${modelId} at ${baseURL || 'api.openai.com'}`,
    scripted: false,
  }
}
