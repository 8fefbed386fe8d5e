/** The input as a whole cannot be read (missing file, not the format); nothing is written. */
export class ImportInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ImportInputError";
  }
}

/**
 * The input cannot be placed in the app as asked: a board, tag or custom field it names (or that
 * an option maps it to) is not the app's, or would pass a limit. Nothing is written; exit 2.
 */
export class ImportMappingError extends Error {
  /** Each problem found, one sentence each (an import reports every unplaceable board and tag at once). */
  readonly problems: readonly string[];
  constructor(problems: string | readonly string[]) {
    const list = typeof problems === "string" ? [problems] : problems;
    super(list.join("\n"));
    this.name = "ImportMappingError";
    this.problems = list;
  }
}
