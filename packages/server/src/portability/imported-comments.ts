import { newId } from "../ids.js";
import { displayName } from "./imported-people.js";
import type { CommentRecord } from "./import-records.js";
import { BATCH, type ImportState, type Known } from "./import-state.js";

/** A comment known by its source id, with what a reply to it takes from it. */
export type KnownComment = Known & { authorName: string | null; isTeam: boolean; requestId: string };

/**
 * An import's comments by source id (earlier runs' and this one's) and the replies read before
 * their parent: writes comments in batches, each reply after its parent.
 */
export class ImportedComments {
  readonly #comments = new Map<string, KnownComment>();
  /** Replies read before their parent, by the parent's source id. */
  readonly #orphans = new Map<string, CommentRecord[]>();

  constructor(private readonly state: ImportState) {}

  /** Remembers a comment an earlier run imported. */
  known(sourceId: string, comment: KnownComment): void {
    this.#comments.set(sourceId, comment);
  }

  /** Writes comments whose request and parent are known; holds replies until their parent comes. */
  async write(comments: CommentRecord[]): Promise<void> {
    let batch = comments;
    while (batch.length > 0) {
      const ready: Array<CommentRecord & { requestId: string; parent: { id: string; name: string | null } | null }> = [];
      const seenInBatch = new Set<string>();
      for (const c of batch) {
        if (this.#comments.has(c.sourceId) || seenInBatch.has(c.sourceId)) {
          if (this.#comments.get(c.sourceId)?.fresh === false) this.state.counts.commentsExisting += 1;
          else this.state.options.onIssue(c.at, `duplicate comment id "${c.sourceId}"`);
          continue;
        }
        const request = this.state.requests.get(c.requestSourceId);
        if (request === undefined) {
          if (!this.state.unplaced.has(c.requestSourceId)) this.state.options.onIssue(c.at, `comment on request "${c.requestSourceId}", which is not in the import`);
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
            this.state.options.onIssue(c.at, `reply to comment "${c.parentSourceId}", which is on another request`);
            continue;
          }
          parent = { id: known.id, name: known.authorName ?? (known.isTeam ? "Team" : null) };
        }
        seenInBatch.add(c.sourceId);
        ready.push({ ...c, requestId: request.id, parent });
        // Registered now, so replies later in this batch find their parent.
        this.#comments.set(c.sourceId, { id: newId("cmt", this.state.clock.now()), fresh: true, authorName: displayName(c.author), isTeam: c.author?.isTeam === true, requestId: request.id });
      }
      if (ready.length > 0) {
        const users = await this.state.endUsers(
          ready.map((c) => (c.author?.isTeam === true ? null : c.author)),
          ready.map((c) => c.createdAt),
        );
        const rows = ready.map((c, i) => ({
          id: this.#comments.get(c.sourceId)!.id,
          featureRequestId: c.requestId,
          endUserId: users[i] ?? null,
          teamUserId: null,
          authorName: displayName(c.author),
          authorEmail: this.state.options.keepEmails ? (c.author?.email ?? null) : null,
          body: c.body,
          parentId: c.parent?.id ?? null,
          replyToAuthorName: c.parent?.name ?? null,
          isTeam: c.author?.isTeam === true ? (1 as const) : (0 as const),
          isHidden: c.hidden ? (1 as const) : (0 as const),
          createdAt: c.createdAt,
          updatedAt: c.createdAt,
        }));
        for (let i = 0; i < rows.length; i += BATCH) await this.state.trx.insertInto("featureRequestComments").values(rows.slice(i, i + BATCH)).execute();
        await this.state.remember(
          "comment",
          rows.map((r, i) => ({ sourceId: ready[i]!.sourceId, localId: r.id })),
        );
        for (const r of rows) this.state.touched.add(r.featureRequestId);
        this.state.counts.comments += rows.length;
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

  /** Reports the replies whose parent never came. */
  reportOrphans(): void {
    for (const replies of this.#orphans.values()) {
      for (const reply of replies) this.state.options.onIssue(reply.at, `reply to comment "${reply.parentSourceId ?? ""}", which is not in the import`);
    }
    this.#orphans.clear();
  }
}
