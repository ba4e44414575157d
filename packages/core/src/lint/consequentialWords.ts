/**
 * Acts a person should approve: data destroyed, money moved, messages sent, things made public,
 * commitments ended. Each is a verb in its base form; descriptions also match its third person
 * (`deletes`, `publishes`). Past forms never match: "Lists deleted tickets" only reads.
 */
const ACTS = new Set(
  'delete remove purge erase destroy wipe truncate drop pay refund charge transfer withdraw purchase buy send email post publish broadcast cancel revoke terminate ban'.split(
    ' ',
  ),
)

/** Words before a tool name's verb that do not change it (`bulkDelete`, `forceRemove`). */
const MODIFIERS = new Set('bulk batch mass force hard soft permanently auto'.split(' '))

/** Words before a description's verb that do not change it ("Permanently deletes…"). */
const isAdverb = (word: string) =>
  /^[a-z]{3,}ly$/.test(word) || ['also', 'then', 'only', 'just'].includes(word)

const isNegation = (word: string) =>
  word === 'not' ||
  word === 'never' ||
  word === 'no' ||
  word === 'without' ||
  word === 'nor' ||
  word === 'cannot' ||
  word.endsWith("n't")

/** `delete` → `deletes`, `publish` → `publishes`, `pay` → `pays`. */
const thirdPerson = (verb: string) => (/(s|sh|ch|x|z)$/.test(verb) ? `${verb}es` : `${verb}s`)

const THIRD_PERSON = new Map<string, string>([...ACTS].map((verb) => [thirdPerson(verb), verb]))

/** The act a word names (`deletes` → `delete`), or undefined. */
const actOf = (word: string): string | undefined => (ACTS.has(word) ? word : THIRD_PERSON.get(word))

/** Name words: `tickets.bulkDelete` → tickets, bulk, delete; `delete_user` → delete, user. */
const nameWords = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)

/**
 * The act a tool name is named after: the verb of its last segment (`users.delete`,
 * `deleteUser`, `delete_user`, `users.bulkDelete`), where tool names keep their verb. Whole words
 * only, so `tickets.undelete` and `payments.list` name no act.
 */
export function actInName(name: string): string | undefined {
  const last = name.split('.').pop() ?? ''
  const words = nameWords(last)
  let i = 0
  while (i < words.length - 1 && MODIFIERS.has(words[i])) i++
  const verb = words[i]
  return verb !== undefined && ACTS.has(verb) ? verb : undefined
}

/**
 * The first act a description says the tool does, as written (`deletes`), or undefined. Only
 * where a verb stands: the first word of a sentence or clause (after adverbs, "Permanently
 * deletes…") or a word after "to" ("Use to refund an order"). Elsewhere the words are mostly
 * nouns or about something else: "Lists refunds", "Searches blog posts", and the description a
 * generated form tool shares with its form ("The contact form; submit sends the message").
 */
export function actInDescription(description: string): string | undefined {
  const clauses = description
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .split(/[.!?;:\n\u2013\u2014()]+/)
  for (const clause of clauses) {
    const words = clause.match(/[a-z0-9]+(?:'[a-z]+)?/g) ?? []
    let first = 0
    while (first < words.length && isAdverb(words[first])) first++
    for (let i = first; i < words.length; i++) {
      const act = actOf(words[i])
      if (act === undefined) continue
      if (i !== first && words[i - 1] !== 'to') continue
      // "Asks whether not to delete": a negated act is not done.
      if (isNegation(words[i - 1] ?? '') || isNegation(words[i - 2] ?? '')) continue
      return words[i]
    }
  }
  return undefined
}
