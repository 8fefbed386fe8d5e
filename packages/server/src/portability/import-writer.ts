import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { DialectName } from "../db/database.js";
import type { Database, ImportedKind } from "../db/schema.js";
import { ImportedBoards } from "./imported-boards.js";
import { ImportedComments } from "./imported-comments.js";
import { settleCounts } from "./imported-counts.js";
import { ImportedFields } from "./imported-fields.js";
import { ImportedPeople } from "./imported-people.js";
import { writeRequests, type PendingRequest } from "./imported-requests.js";
import { ImportedTags } from "./imported-tags.js";
import { writeVotes } from "./imported-votes.js";
import { ImportMappingError } from "./import-errors.js";
import type { CommentRecord, RequestRecord, SourcePerson, VoteRecord } from "./import-records.js";
import { BATCH, type ImportCounts, type ImportState, type Known, type WriterOptions } from "./import-state.js";
import { hasNul, NUL_MESSAGE } from "./nul-text.js";

/**
 * Writes an import's records in the caller's transaction, in batches, remembering each request's
 * and comment's source id (table `import_sources`) so a second run skips what the first brought.
 * Memory grows with the number of requests and comments, never with votes.
 */
export class ImportWriter {
  readonly counts: ImportCounts = { requests: 0, requestsExisting: 0, comments: 0, commentsExisting: 0, votes: 0, votesExisting: 0, importedVotes: 0, endUsers: 0, boards: 0, tags: 0 };
  readonly #requests = new Map<string, Known>();
  readonly #comments: ImportedComments;
  readonly #people: ImportedPeople;
  readonly #touched = new Set<string>();
  /** Request ids read in this run, so a repeated id is reported on every run alike. */
  readonly #seenRequests = new Set<string>();
  /** Requests of boards that cannot be placed: their comments and votes are not reported one by one. */
  readonly #unplaced = new Set<string>();
  #pendingRequests: PendingRequest[] = [];
  #pendingComments: CommentRecord[] = [];
  #pendingVotes: VoteRecord[] = [];
  readonly #state: ImportState;

  private constructor(
    private readonly trx: Kysely<Database>,
    private readonly dialect: DialectName,
    private readonly clock: Clock,
    private readonly options: WriterOptions,
    private readonly boards: ImportedBoards,
    private readonly tags: ImportedTags,
    private readonly fields: ImportedFields,
  ) {
    this.#people = new ImportedPeople(trx, clock, options.appId, options.source);
    this.#state = {
      trx,
      dialect,
      clock,
      options,
      counts: this.counts,
      requests: this.#requests,
      unplaced: this.#unplaced,
      touched: this.#touched,
      endUsers: (people, createdAt) => this.#endUsers(people, createdAt),
      remember: (kind, pairs) => this.#remember(kind, pairs),
    };
    this.#comments = new ImportedComments(this.#state);
  }

  /**
   * A writer that knows what earlier runs of the same source imported into the app. Throws
   * {@link ImportMappingError} when a board, tag or field the options or the input's columns name
   * cannot be the app's.
   */
  static async open(trx: Kysely<Database>, dialect: DialectName, clock: Clock, options: WriterOptions): Promise<ImportWriter> {
    const boards = await ImportedBoards.open(trx, clock, options.appId, options.boards, options.onNote);
    const tags = await ImportedTags.open(trx, clock, options.appId, options.tagMap, options.onNote);
    const fields = await ImportedFields.open(trx, options.appId, options.fieldKeys);
    const writer = new ImportWriter(trx, dialect, clock, options, boards, tags, fields);
    const rows = await trx
      .selectFrom("importSources")
      .select(["kind", "sourceId", "localId"])
      .where("appId", "=", options.appId)
      .where("source", "=", options.source)
      .execute();
    for (const row of rows) {
      if (row.kind === "request") writer.#requests.set(row.sourceId, { id: row.localId, fresh: false });
    }
    const comments = await trx
      .selectFrom("importSources as s")
      .innerJoin("featureRequestComments as c", "c.id", "s.localId")
      .select(["s.sourceId", "c.id", "c.authorName", "c.isTeam", "c.featureRequestId"])
      .where("s.appId", "=", options.appId)
      .where("s.source", "=", options.source)
      .where("s.kind", "=", "comment")
      .execute();
    for (const c of comments) {
      writer.#comments.known(c.sourceId, { id: c.id, fresh: false, authorName: c.authorName, isTeam: c.isTeam === 1, requestId: c.featureRequestId });
    }
    return writer;
  }

  async request(record: RequestRecord): Promise<void> {
    const named = [record.board?.name, record.category?.name, ...record.tags.map((t) => t.name), ...Object.values(record.fields)];
    if (hasNul(record.title, record.description, record.author?.name, record.author?.email, ...named)) {
      this.options.onIssue(record.at, NUL_MESSAGE);
      return;
    }
    if (this.#seenRequests.has(record.sourceId)) {
      this.options.onIssue(record.at, `duplicate request id "${record.sourceId}"`);
      return;
    }
    this.#seenRequests.add(record.sourceId);
    if (this.#requests.has(record.sourceId)) {
      this.counts.requestsExisting += 1;
      return;
    }
    const boardId = await this.boards.resolve(record.board);
    // A board that cannot be placed fails the whole import at the end (see finish), naming them all.
    if (boardId === null) {
      this.#unplaced.add(record.sourceId);
      return;
    }
    const fields = this.fields.values(record.fields, boardId);
    if ("problem" in fields) {
      this.options.onIssue(record.at, fields.problem);
      return;
    }
    const tagIds = await this.tags.resolve(record.category === null ? record.tags : [record.category, ...record.tags], record.at);
    this.counts.boards = this.boards.created.length;
    this.counts.tags = this.tags.created.length;
    this.#pendingRequests.push({ record, boardId, tagIds, fields: fields.values });
    if (this.#pendingRequests.length >= BATCH) await this.#flushRequests();
  }

  async comment(record: CommentRecord): Promise<void> {
    if (hasNul(record.body, record.author?.name, record.author?.email)) {
      this.options.onIssue(record.at, NUL_MESSAGE);
      return;
    }
    this.#pendingComments.push(record);
    if (this.#pendingComments.length >= BATCH) await this.#flushComments();
  }

  async vote(record: VoteRecord): Promise<void> {
    if (hasNul(record.voter.name, record.voter.email, record.voter.sourceId)) {
      this.options.onIssue(record.at, NUL_MESSAGE);
      return;
    }
    this.#pendingVotes.push(record);
    if (this.#pendingVotes.length >= BATCH) await this.#flushVotes();
  }

  /**
   * Writes what is buffered, reports replies whose parent never came, and settles the counts.
   * Throws {@link ImportMappingError} naming every board and tag of the input that could not be
   * placed: the caller's transaction then rolls back.
   */
  async finish(): Promise<ImportCounts> {
    const unplaced = [...this.boards.problems, ...this.tags.problems];
    if (unplaced.length > 0) throw new ImportMappingError(unplaced);
    await this.#flushRequests();
    await this.#flushComments();
    await this.#flushVotes();
    this.#comments.reportOrphans();
    const fresh = new Set([...this.#requests.values()].filter((r) => r.fresh).map((r) => r.id));
    this.counts.importedVotes = await settleCounts(this.trx, fresh, [...this.#touched], BATCH);
    return this.counts;
  }

  async #remember(kind: ImportedKind, pairs: Array<{ sourceId: string; localId: string }>): Promise<void> {
    const now = isoNow(this.clock);
    for (let i = 0; i < pairs.length; i += BATCH) {
      await this.trx
        .insertInto("importSources")
        .values(pairs.slice(i, i + BATCH).map((p) => ({ appId: this.options.appId, source: this.options.source, kind, ...p, createdAt: now })))
        .execute();
    }
  }

  /** End-user ids for people, minted when new; keyed by the hash of their email (or source id). */
  async #endUsers(people: Array<SourcePerson | null>, createdAt: string[]): Promise<Array<string | null>> {
    const { ids, created } = await this.#people.endUsers(people, createdAt);
    this.counts.endUsers += created;
    return ids;
  }

  async #flushRequests(): Promise<void> {
    const batch = this.#pendingRequests;
    if (batch.length === 0) return;
    this.#pendingRequests = [];
    await writeRequests(this.#state, batch);
  }

  async #flushComments(): Promise<void> {
    await this.#flushRequests();
    const batch = this.#pendingComments;
    this.#pendingComments = [];
    await this.#comments.write(batch);
  }

  async #flushVotes(): Promise<void> {
    await this.#flushRequests();
    const batch = this.#pendingVotes;
    if (batch.length === 0) return;
    this.#pendingVotes = [];
    await writeVotes(this.#state, batch);
  }
}
