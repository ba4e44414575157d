/**
 * A misconfiguration: what is wrong, as a short phrase (the message production builds carry), and
 * the words it names (a tool, a key, a caller). `problemMessage` turns it into a message.
 */
export type Problem = readonly [detail: string, ...words: string[]]
