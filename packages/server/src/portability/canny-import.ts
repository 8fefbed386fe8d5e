import { ImportInputError } from "./import-errors.js";
import type { ImportRecord, Importer, SourceBoard, SourcePerson, SourceTag } from "./import-records.js";
import { MAX_DESCRIPTION, MAX_TITLE } from "./csv-row.js";
import { object, openJsonFolder, text, type JsonFolder } from "./json-folder.js";
import { isoDate } from "./source-values.js";

/**
 * A folder of the JSON pages Canny's API answers (`boards/list`, `posts/list`, `comments/list`,
 * `votes/list`), saved as `boards*.json`, `posts*.json`, `comments*.json` and `votes*.json`
 * (docs/import.md has the curl loop). Each file is one response (`{"hasMore": …, "posts": [...]}`)
 * or a plain array. Posts keep their board (public or private as `boards*.json` says), category
 * (a public tag: Canny's users see and pick it), tags (team-only tags: only Canny's admins see
 * them), status (mapped to a column), score and dates; comments keep their replies (`parentID`)
 * and are hidden when internal or private; votes keep their voter.
 *
 * @example
 * ```ts
 * const source = await cannyImporter("./canny-export", { columns: {} });
 * ```
 */
export const cannyImporter: Importer = async (dir) => {
  const folder = await openJsonFolder(dir, "a Canny import reads a folder of posts*.json, comments*.json and votes*.json pages");
  if (folder.files("posts").length === 0) throw new ImportInputError(`${dir}: no posts*.json file (see docs/import.md for fetching them from Canny's API)`);
  const boards = new Map<string, { name: string | null; isPrivate: boolean | null }>();
  for (const file of folder.files("boards")) {
    for (const item of await folder.read(file, "boards")) {
      const board = object(item);
      const id = text(board.id);
      if (id !== null) boards.set(id, { name: text(board.name), isPrivate: typeof board.isPrivate === "boolean" ? board.isPrivate : null });
    }
  }
  return { totalBytes: folder.totalBytes, records: (onBytes) => cannyRecords(folder, boards, onBytes) };
};

/** A post's board, private or public as `boards/list` says (null: the folder has no word on it). */
function boardOf(value: unknown, boards: ReadonlyMap<string, { name: string | null; isPrivate: boolean | null }>): SourceBoard | null {
  const board = object(value);
  const listed = boards.get(text(board.id) ?? "");
  const name = (text(board.name) ?? listed?.name ?? "").trim();
  if (name === "") return null;
  // The board's admin URL ends in its slug: https://acme.canny.io/admin/board/feature-requests
  const slug = /\/board\/([^/?#]+)/.exec(text(board.url) ?? "")?.[1] ?? null;
  return { name, slug, private: listed?.isPrivate ?? null };
}

/** A tag or category object (`{id, name, …}`), or a bare name. */
function tagOf(value: unknown, visibility: SourceTag["visibility"]): SourceTag | null {
  const name = (text(object(value).name) ?? text(value) ?? "").trim();
  return name === "" ? null : { name, color: null, visibility };
}

function person(value: unknown): SourcePerson | null {
  const p = object(value);
  const id = text(p.id);
  const email = text(p.email);
  if (id === null && email === null) return null;
  return { sourceId: id, email, name: text(p.name), isTeam: p.isAdmin === true };
}

async function* cannyRecords(folder: JsonFolder, boards: ReadonlyMap<string, { name: string | null; isPrivate: boolean | null }>, onBytes: (n: number) => void): AsyncGenerator<ImportRecord> {
  let bytes = 0;
  const pages = async function* (prefix: string, key: string) {
    for (const file of folder.files(prefix)) {
      const items = await folder.read(file, key);
      for (let i = 0; i < items.length; i++) yield { at: `${file} item ${i + 1}`, item: object(items[i]) };
      bytes += folder.size(file);
      onBytes(bytes);
    }
  };
  for await (const { at, item } of pages("posts", "posts")) {
    const id = text(item.id);
    const title = (text(item.title) ?? "").trim();
    const created = isoDate(item.created);
    if (id === null) yield { kind: "issue", at, message: "a post without an id" };
    else if (title === "" || title.length > MAX_TITLE) yield { kind: "issue", at, message: title === "" ? "the title is empty" : `the title is longer than ${MAX_TITLE} characters` };
    else if ((text(item.details) ?? "").length > MAX_DESCRIPTION) yield { kind: "issue", at, message: `the details are longer than ${MAX_DESCRIPTION} characters` };
    else if (item.created !== undefined && created === null) yield { kind: "issue", at, message: `created "${String(item.created)}" is not a date` };
    else {
      const score = typeof item.score === "number" && Number.isInteger(item.score) && item.score >= 0 ? item.score : null;
      yield {
        kind: "request",
        at,
        sourceId: id,
        title,
        description: text(item.details) ?? "",
        status: text(item.status),
        createdAt: created,
        author: person(item.author),
        votes: score,
        board: boardOf(item.board, boards),
        tags: Array.isArray(item.tags) ? item.tags.map((t) => tagOf(t, "team")).filter((t): t is SourceTag => t !== null) : [],
        category: item.category === null || item.category === undefined ? null : tagOf(item.category, "public"),
        fields: {},
      };
    }
  }
  for await (const { at, item } of pages("comments", "comments")) {
    const id = text(item.id);
    const postId = text(object(item.post).id) ?? text(item.postID);
    const created = isoDate(item.created);
    const body = text(item.value) ?? "";
    if (id === null || postId === null) yield { kind: "issue", at, message: "a comment without an id or a post" };
    else if (created === null) yield { kind: "issue", at, message: `created "${String(item.created)}" is not a date` };
    else if (body.trim() === "") yield { kind: "issue", at, message: "the comment is empty" };
    else {
      yield {
        kind: "comment",
        at,
        sourceId: id,
        requestSourceId: postId,
        parentSourceId: text(item.parentID),
        author: person(item.author),
        body,
        createdAt: created,
        hidden: item.internal === true || item.private === true,
      };
    }
  }
  for await (const { at, item } of pages("votes", "votes")) {
    const postId = text(object(item.post).id) ?? text(item.postID);
    const voter = person(item.voter);
    const created = isoDate(item.created);
    if (postId === null) yield { kind: "issue", at, message: "a vote without a post" };
    else if (voter === null) yield { kind: "issue", at, message: "a vote without a voter id or email" };
    else if (created === null) yield { kind: "issue", at, message: `created "${String(item.created)}" is not a date` };
    else yield { kind: "vote", at, requestSourceId: postId, voter, createdAt: created };
  }
}
