'use client'
export { useToolmarkChat } from './useToolmarkChat'
export type {
  QueuedMessage,
  UseToolmarkChatHelpers,
  UseToolmarkChatOptions,
} from './useToolmarkChat'
