import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { DialectName } from "../db/database.js";
import type { Database, ImportedKind } from "../db/schema.js";
import { createFeatureRequests, type NewFeatureRequest } from "../feature-requests/feature-requests.js";
import { newId } from "../ids.js";
import type { StoredFieldValues } from "../custom-fields/values.js";
import { ImportedBoards, type BoardPlacement } from "./imported-boards.js";
import { settleCounts } from "./imported-counts.js";
import { ImportedFields } from "./imported-fields.js";
import { displayName, ImportedPeople } from "./imported-people.js";
import { ImportedTags } from "./imported-tags.js";
import { ImportMappingError, type CommentRecord, type RequestRecord, type SourcePerson, type VoteRecord } from "./import-records.js";
import type { StatusTarget } from "./status-columns.js";

/** What an import created, and what it found already there. */
export interface ImportCounts {
  requests: number;
  requestsExisting: number;
  comments: number;
  commentsExisting: number;
  votes: number;
  votesExisting: number;
  /** Votes counted without a voter (a CSV's `votes`, a Canny score above its voter list). */
  importedVotes: number;
  endUsers: number;
  /** Boards and tags the import created (the source's that the app did not have). */
  boards: number;
  tags: number;
}

export interface WriterOptions {
  appId: string;
  /** The format: `csv`, `canny`, `fider`. */
  source: string;
  /** Keep authors' email addresses on requests and comments (otherwise only a hash keys them). */
  keepEmails: boolean;
  resolveStatus(status: string | null): StatusTarget;
  /** Where requests go: `--board` and `--board-map`. */
  boards: BoardPlacement;
  /** `--tag-map`: a source tag's name → the tag it becomes (empty: left off). */
  tagMap: Record<string, string>;
  /** The custom field keys the input has columns for. */
  fieldKeys: readonly string[];
  /** A record that cannot be placed (unknown request, duplicate id): reported by the caller. */
  onIssue(at: string, message: string): void;
  /** Something the operator should know that skips nothing (a board created private). */
  onNote(message: string): void;
}

/** A request read and placed, waiting for its batch. */
interface PendingRequest {
  record: RequestRecord;
  boardId: string;
  tagIds: string[];
  fields: StoredFieldValues;
}

/** Rows per multi-row statement: well under SQLite's limit of bound parameters. */
const BATCH = 400;

interface Known {
  id: string;
  /** Created by this run (its counts are settled at the end). */
  fresh: boolean;
}

/**
 * Writes an import's records in the caller's transaction, in batches, remembering each request's
 * and comment's source id (table `import_sources`) so a second run skips what the first brought.
 * Memory grows with the number of requests and comments, never with votes.
 */
export class ImportWriter {
  readonly counts: ImportCounts = { requests: 0, requestsExisting: 0, comments: 0, commentsExisting: 0, votes: 0, votesExisting: 0, importedVotes: 0, endUsers: 0, boards: 0, tags: 0 };
  readonly #requests = new Map<string, Known>();
  readonly #comments = new Map<string, Known & { authorName: string | null; isTeam: boolean; requestId: string }>();
  readonly #people: ImportedPeople;
  readonly #touched = new Set<string>();
  /** Request ids read in this run, so a repeated id is reported on every run alike. */
  readonly #seenRequests = new Set<string>();
  /** Requests of boards that cannot be placed: their comments and votes are not reported one by one. */
  readonly #unplaced = new Set<string>();
  #pendingRequests: PendingRequest[] = [];
  #pendingComments: CommentRecord[] = [];
  #pendingVotes: VoteRecord[] = [];
  /** Replies read before their parent, by the parent's source id. */
  readonly #orphans = new Map<string, CommentRecord[]>();

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
      writer.#comments.set(c.sourceId, { id: c.id, fresh: false, authorName: c.authorName, isTeam: c.isTeam === 1, requestId: c.featureRequestId });
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
    for (const replies of this.#orphans.values()) {
      for (const reply of replies) this.options.onIssue(reply.at, `reply to comment "${reply.parentSourceId ?? ""}", which is not in the import`);
    }
    this.#orphans.clear();
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
    const users = await this.#endUsers(
      batch.map((p) => p.record.author),
      batch.map((p) => p.record.createdAt ?? isoNow(this.clock)),
    );
    const inputs = batch.map(({ record: r, boardId, fields }, i): NewFeatureRequest => {
      const target = this.options.resolveStatus(r.status);
      return {
        appId: this.options.appId,
        boardId,
        customFields: fields,
        title: r.title,
        description: r.description,
        approved: true,
        declined: target.declined,
        columnId: target.columnId,
        requesterEndUserId: users[i] ?? null,
        requesterName: displayName(r.author),
        requesterEmail: this.options.keepEmails ? (r.author?.email ?? null) : null,
        createdByAdmin: r.author?.isTeam === true,
        actor: null,
        ...(r.createdAt === null ? {} : { createdAt: r.createdAt }),
        importedVotes: r.votes ?? 0,
        // What the source said, as it said it, whatever the app made of it.
        eventData: {
          importedFrom: this.options.source,
          sourceId: r.sourceId,
          ...(r.board === null ? {} : { board: r.board.name }),
          ...(r.category === null ? {} : { category: r.category.name }),
          ...(r.tags.length > 0 ? { tags: r.tags.map((t) => t.name) } : {}),
        },
      };
    });
    const rows = await createFeatureRequests(this.trx, this.clock, this.dialect, this.options.appId, inputs);
    rows.forEach((row, i) => {
      this.#requests.set(batch[i]!.record.sourceId, { id: row.id, fresh: true });
      this.#touched.add(row.id);
    });
    this.counts.requests += rows.length;
    const now = isoNow(this.clock);
    const tagged = rows.flatMap((row, i) => batch[i]!.tagIds.map((tagId) => ({ featureRequestId: row.id, tagId, createdAt: now })));
    for (let i = 0; i < tagged.length; i += BATCH) await this.trx.insertInto("featureRequestTags").values(tagged.slice(i, i + BATCH)).execute();
    await this.#remember(
      "request",
      rows.map((row, i) => ({ sourceId: batch[i]!.record.sourceId, localId: row.id })),
    );
  }

  async #flushComments(): Promise<void> {
    await this.#flushRequests();
    let batch = this.#pendingComments;
    this.#pendingComments = [];
    while (batch.length > 0) {
      const ready: Array<CommentRecord & { requestId: string; parent: { id: string; name: string | null } | null }> = [];
      const seenInBatch = new Set<string>();
      for (const c of batch) {
        if (this.#comments.has(c.sourceId) || seenInBatch.has(c.sourceId)) {
          if (this.#comments.get(c.sourceId)?.fresh === false) this.counts.commentsExisting += 1;
          else this.options.onIssue(c.at, `duplicate comment id "${c.sourceId}"`);
          continue;
        }
        const request = this.#requests.get(c.requestSourceId);
        if (request === undefined) {
          if (!this.#unplaced.has(c.requestSourceId)) this.options.onIssue(c.at, `comment on request "${c.requestSourceId}", which is not in the import`);
          continue;
        }
        let parent: { id: string; name: string | null } | null = null;
        if (c.parentSourceId !== null) {
          const known = this.#comments.get(c.parentSourceId);
          if (known === undefined) {
            // The parent may come later in the source: hold the reply until it does.
            const waiting = this.#orphans.get(c.parentSourceId) ?? [];
            waiting.push(c);
            this.#orphans.set(c.parentSourceId, waiting);
            continue;
          }
          if (known.requestId !== request.id) {
            this.options.onIssue(c.at, `reply to comment "${c.parentSourceId}", which is on another request`);
            continue;
          }
          parent = { id: known.id, name: known.authorName ?? (known.isTeam ? "Team" : null) };
        }
        seenInBatch.add(c.sourceId);
        ready.push({ ...c, requestId: request.id, parent });
        // Registered now, so replies later in this batch find their parent.
        this.#comments.set(c.sourceId, { id: newId("cmt", this.clock.now()), fresh: true, authorName: displayName(c.author), isTeam: c.author?.isTeam === true, requestId: request.id });
      }
      if (ready.length > 0) {
        const users = await this.#endUsers(
          ready.map((c) => (c.author?.isTeam === true ? null : c.author)),
          ready.map((c) => c.createdAt),
        );
        const rows = ready.map((c, i) => ({
          id: this.#comments.get(c.sourceId)!.id,
          featureRequestId: c.requestId,
          endUserId: users[i] ?? null,
          teamUserId: null,
          authorName: displayName(c.author),
          authorEmail: this.options.keepEmails ? (c.author?.email ?? null) : null,
          body: c.body,
          parentId: c.parent?.id ?? null,
          replyToAuthorName: c.parent?.name ?? null,
          isTeam: c.author?.isTeam === true ? (1 as const) : (0 as const),
          isHidden: c.hidden ? (1 as const) : (0 as const),
          createdAt: c.createdAt,
          updatedAt: c.createdAt,
        }));
        for (let i = 0; i < rows.length; i += BATCH) await this.trx.insertInto("featureRequestComments").values(rows.slice(i, i + BATCH)).execute();
        await this.#remember(
          "comment",
          rows.map((r, i) => ({ sourceId: ready[i]!.sourceId, localId: r.id })),
        );
        for (const r of rows) this.#touched.add(r.featureRequestId);
        this.counts.comments += rows.length;
      }
      // Replies that were waiting for a comment of this batch go next.
      batch = [];
      for (const c of ready) {
        const waiting = this.#orphans.get(c.sourceId);
        if (waiting !== undefined) {
          this.#orphans.delete(c.sourceId);
          batch.push(...waiting);
        }
      }
    }
  }

  async #flushVotes(): Promise<void> {
    await this.#flushRequests();
    const batch = this.#pendingVotes;
    if (batch.length === 0) return;
    this.#pendingVotes = [];
    const placed: Array<{ record: VoteRecord; requestId: string }> = [];
    for (const v of batch) {
      const request = this.#requests.get(v.requestSourceId);
      if (request === undefined) {
        if (!this.#unplaced.has(v.requestSourceId)) this.options.onIssue(v.at, `vote on request "${v.requestSourceId}", which is not in the import`);
      } else placed.push({ record: v, requestId: request.id });
    }
    const voters = await this.#endUsers(
      placed.map((p) => p.record.voter),
      placed.map((p) => p.record.createdAt),
    );
    const rows = new Map<string, { featureRequestId: string; endUserId: string; shipNotifyEmail: null; createdAt: string }>();
    placed.forEach((p, i) => {
      const endUserId = voters[i];
      if (endUserId === null || endUserId === undefined) {
        this.options.onIssue(p.record.at, "vote without a voter id or email");
        return;
      }
      // The same voter twice on one request counts once, as it would here.
      rows.set(`${p.requestId} ${endUserId}`, { featureRequestId: p.requestId, endUserId, shipNotifyEmail: null, createdAt: p.record.createdAt });
    });
    if (rows.size === 0) return;
    const inserted = await this.trx
      .insertInto("featureRequestVotes")
      .values([...rows.values()])
      .onConflict((oc) => oc.columns(["featureRequestId", "endUserId"]).doNothing())
      .returning("featureRequestId")
      .execute();
    for (const r of inserted) this.#touched.add(r.featureRequestId);
    this.counts.votes += inserted.length;
    this.counts.votesExisting += rows.size - inserted.length;
  }
}

const NUL_MESSAGE = "contains a NUL character (U+0000), which the database cannot store";

function hasNul(...texts: Array<string | null | undefined>): boolean {
  return texts.some((t) => t?.includes("\u0000") === true);
}
