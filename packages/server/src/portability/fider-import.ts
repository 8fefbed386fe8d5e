import fs from "node:fs";
import { csvImporter } from "./csv-import.js";
import { MAX_DESCRIPTION, MAX_TITLE } from "./csv-row.js";
import { ImportInputError } from "./import-errors.js";
import type { ImportRecord, Importer, SourcePerson, SourceTag } from "./import-records.js";
import { object, openJsonFolder, text, type JsonFolder } from "./json-folder.js";
import { isoDate } from "./source-values.js";

/** Fider's post statuses (its `posts.status` column) by number. */
const FIDER_STATUS: Record<number, string> = { 0: "open", 1: "started", 2: "completed", 3: "declined", 4: "planned", 5: "duplicate", 6: "deleted" };
/** Fider roles (`users.role`): collaborators and administrators are the team. */
const TEAM_ROLES = new Set([2, 3]);

/**
 * A Fider export, either of Fider's two:
 * - its backup (Site settings → Export → backup.zip), unzipped into a folder: one JSON array per
 *   table (`posts.json`, `comments.json`, `post_votes.json`, `users.json`, `tags.json`,
 *   `post_tags.json`). It carries voters and comments, so this is the complete import;
 * - its posts CSV (Export → posts.csv): titles, descriptions, statuses, vote and comment counts
 *   and tags, without voters or comments; vote counts become imported votes.
 *
 * @example
 * ```ts
 * const source = await fiderImporter("./fider-backup", { columns: {} });
 * ```
 */
export const fiderImporter: Importer = async (input, options) => {
  const stat = await fs.promises.stat(input).catch(() => null);
  if (stat === null) throw new ImportInputError(`cannot read ${input}`);
  if (stat.isFile()) {
    if (input.toLowerCase().endsWith(".zip")) throw new ImportInputError(`${input}: unzip Fider's backup first (unzip backup.zip -d fider-backup) and import the folder`);
    return csvImporter(input, options);
  }
  const folder = await openJsonFolder(input, "a Fider backup folder");
  if (!folder.files("posts.json").includes("posts.json")) throw new ImportInputError(`${input}: no posts.json (expected the unzipped Fider backup)`);
  const users = new Map<string, SourcePerson>();
  if (folder.files("users.json").includes("users.json")) {
    for (const u of await folder.read("users.json", "users")) {
      const row = object(u);
      const id = text(row.id);
      if (id === null) continue;
      users.set(id, { sourceId: id, email: text(row.email) || null, name: text(row.name), isTeam: TEAM_ROLES.has(Number(row.role)) });
    }
  }
  return { totalBytes: folder.totalBytes, records: (onBytes) => fiderRecords(folder, users, onBytes) };
};

/** Each post's tags, with their colour (`color`, hex without `#`) and whether the public sees them (`is_public`). */
async function tagsByPost(folder: JsonFolder): Promise<Map<string, SourceTag[]>> {
  const result = new Map<string, SourceTag[]>();
  if (!folder.files("tags.json").includes("tags.json") || !folder.files("post_tags.json").includes("post_tags.json")) return result;
  const tags = new Map<string | null, SourceTag>();
  for (const t of await folder.read("tags.json", "tags")) {
    const row = object(t);
    const name = text(row.name)?.trim() ?? "";
    if (name !== "") tags.set(text(row.id), { name, color: text(row.color), visibility: row.is_public === false ? "team" : "public" });
  }
  for (const pt of await folder.read("post_tags.json", "post_tags")) {
    const postId = text(object(pt).post_id);
    const tag = tags.get(text(object(pt).tag_id));
    if (postId === null || tag === undefined) continue;
    result.set(postId, [...(result.get(postId) ?? []), tag]);
  }
  return result;
}

async function* fiderRecords(folder: JsonFolder, users: Map<string, SourcePerson>, onBytes: (n: number) => void): AsyncGenerator<ImportRecord> {
  let bytes = 0;
  const done = (file: string) => {
    bytes += folder.size(file);
    onBytes(bytes);
  };
  const user = (id: unknown): SourcePerson | null => users.get(text(id) ?? "") ?? null;
  const tags = await tagsByPost(folder);
  const posts = await folder.read("posts.json", "posts");
  const responses: ImportRecord[] = [];
  for (let i = 0; i < posts.length; i++) {
    const row = object(posts[i]);
    const at = `posts.json item ${i + 1}`;
    const id = text(row.id);
    const title = (text(row.title) ?? "").trim();
    const created = isoDate(row.created_at);
    const status = FIDER_STATUS[Number(row.status)] ?? null;
    if (id === null) yield { kind: "issue", at, message: "a post without an id" };
    else if (status === "deleted") continue;
    else if (title === "" || title.length > MAX_TITLE) yield { kind: "issue", at, message: title === "" ? "the title is empty" : `the title is longer than ${MAX_TITLE} characters` };
    else if ((text(row.description) ?? "").length > MAX_DESCRIPTION) yield { kind: "issue", at, message: `the description is longer than ${MAX_DESCRIPTION} characters` };
    else if (created === null) yield { kind: "issue", at, message: `created_at "${String(row.created_at)}" is not a date` };
    else {
      yield {
        kind: "request",
        at,
        sourceId: id,
        title,
        description: text(row.description) ?? "",
        status,
        createdAt: created,
        author: user(row.user_id),
        votes: null,
        // Fider has one list of posts per site: they go to the import's board.
        board: null,
        tags: tags.get(id) ?? [],
        category: null,
        fields: {},
      };
      // The team's answer shown with a status change becomes the team's comment at that time.
      const response = text(row.response);
      const respondedAt = isoDate(row.response_date);
      if (response !== null && response.trim() !== "" && respondedAt !== null) {
        const author = user(row.response_user_id);
        responses.push({
          kind: "comment",
          at,
          sourceId: `response:${id}`,
          requestSourceId: id,
          parentSourceId: null,
          author: author === null ? { sourceId: null, email: null, name: null, isTeam: true } : { ...author, isTeam: true },
          body: response,
          createdAt: respondedAt,
          hidden: false,
        });
      }
    }
  }
  done("posts.json");
  const comments = folder.files("comments.json").includes("comments.json") ? await folder.read("comments.json", "comments") : [];
  const merged = [...responses, ...comments.map((c, i) => ({ c: object(c), at: `comments.json item ${i + 1}` }))];
  // Fider lists a post's comments by time; keep that order whatever order the table had.
  const timeOf = (r: (typeof merged)[number]) => ("kind" in r ? (r.kind === "comment" ? r.createdAt : "") : (isoDate(r.c.created_at) ?? ""));
  merged.sort((a, b) => (timeOf(a) < timeOf(b) ? -1 : timeOf(a) > timeOf(b) ? 1 : 0));
  for (const entry of merged) {
    if ("kind" in entry) {
      yield entry;
      continue;
    }
    const { c, at } = entry;
    if (c.deleted_at !== null && c.deleted_at !== undefined) continue;
    const id = text(c.id);
    const postId = text(c.post_id);
    const created = isoDate(c.created_at);
    const body = text(c.content) ?? "";
    if (id === null || postId === null) yield { kind: "issue", at, message: "a comment without an id or a post" };
    else if (created === null) yield { kind: "issue", at, message: `created_at "${String(c.created_at)}" is not a date` };
    else if (body.trim() === "") yield { kind: "issue", at, message: "the comment is empty" };
    else yield { kind: "comment", at, sourceId: id, requestSourceId: postId, parentSourceId: null, author: user(c.user_id), body, createdAt: created, hidden: false };
  }
  if (comments.length > 0) done("comments.json");
  if (folder.files("post_votes.json").includes("post_votes.json")) {
    const votes = await folder.read("post_votes.json", "post_votes");
    for (let i = 0; i < votes.length; i++) {
      const v = object(votes[i]);
      const at = `post_votes.json item ${i + 1}`;
      const postId = text(v.post_id);
      const voter = user(v.user_id);
      const created = isoDate(v.created_at);
      if (postId === null) yield { kind: "issue", at, message: "a vote without a post" };
      else if (voter === null) yield { kind: "issue", at, message: `a vote by user ${String(v.user_id)}, who is not in users.json` };
      else if (created === null) yield { kind: "issue", at, message: `created_at "${String(v.created_at)}" is not a date` };
      else yield { kind: "vote", at, requestSourceId: postId, voter, createdAt: created };
    }
    done("post_votes.json");
  }
}
