'use client'
export { useToolmarkChat } from './useToolmarkChat'
export type { UseToolmarkChatOptions } from './useToolmarkChat'
