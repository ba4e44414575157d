/**
 * The moves one kind of object may make between its statuses (from → to), and the one check each
 * owner of such a status makes before it moves: a confirmation, a tour, an AG-UI session. A move
 * the table does not have is a bug in that owner, never something a caller can cause, so it
 * throws, naming the move. Staying put is no move where the owner says so (`stays`: a tour or a
 * session may still change the rest of its snapshot); a confirmation that ends twice is a bug.
 * A call's phases keep a table of their own, as bits, since it is read on every call.
 */
export class StatusTable<S extends string> {
  constructor(
    /** Who moves, as the error names it: `A tour`. */
    readonly owner: string,
    readonly moves: { readonly [From in S]: readonly S[] },
    /** Whether `from → from` is allowed, as no move. */
    readonly stays: boolean,
  ) {}

  /** Whether `from → to` is a move of the table (or staying put, where that is allowed). */
  allows(from: S, to: S): boolean {
    return (from === to && this.stays) || this.moves[from].includes(to)
  }

  /** Throws, naming the move, unless the table allows it. */
  check(from: S, to: S): void {
    if (!this.allows(from, to)) {
      throw new Error(
        `[toolmark] ${this.owner} cannot move from ${from} to ${to}: that move is not in its table, so its owner broke its own order`,
      )
    }
  }
}
