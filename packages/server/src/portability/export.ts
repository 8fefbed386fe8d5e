import type { Readable } from "node:stream";
import type { Kysely, SelectQueryBuilder } from "kysely";
import { isoNow, systemClock, type Clock } from "../clock.js";
import type { Database } from "../db/schema.js";
import type { ObjectStorage } from "../storage/object-storage.js";
import {
  ARCHIVE_TABLES,
  ARCHIVE_VERSION,
  FILE_PART_BYTES,
  OMITTED_COLUMNS,
  TABLE_KEYS,
  loose,
  type ArchiveHeader,
  type ArchiveLine,
  type ArchiveTable,
  type LooseDb,
} from "./archive-format.js";

/** What to export: one app (by its key) or every app of a workspace (by its slug). */
export type ExportScope = { appKey: string } | { workspaceSlug: string };

export interface ExportOptions {
  scope: ExportScope;
  /** Called after every row with the rows written so far and the total counted up front. */
  onProgress?: (done: number, total?: number) => void;
  /** @default systemClock */
  clock?: Clock;
  /** Rows read per query. @default 500 */
  pageSize?: number;
}

/** Thrown when the app or workspace to export does not exist. */
export class ExportScopeNotFound extends Error {
  constructor(readonly scope: ExportScope) {
    super("appKey" in scope ? `No app with key "${scope.appKey}"` : `No workspace with slug "${scope.workspaceSlug}"`);
    this.name = "ExportScopeNotFound";
  }
}

interface Resolved {
  workspaceId: string;
  appIds: string[];
  header: ArchiveHeader["scope"];
}

async function resolveScope(db: Kysely<Database>, scope: ExportScope): Promise<Resolved> {
  if ("appKey" in scope) {
    const app = await db.selectFrom("apps").select(["id", "workspaceId"]).where("appKey", "=", scope.appKey).executeTakeFirst();
    if (app === undefined) throw new ExportScopeNotFound(scope);
    return { workspaceId: app.workspaceId, appIds: [app.id], header: { kind: "app", appKey: scope.appKey } };
  }
  const ws = await db.selectFrom("workspaces").select("id").where("slug", "=", scope.workspaceSlug).executeTakeFirst();
  if (ws === undefined) throw new ExportScopeNotFound(scope);
  const apps = await db.selectFrom("apps").select("id").where("workspaceId", "=", ws.id).orderBy("id").execute();
  return { workspaceId: ws.id, appIds: apps.map((a) => a.id), header: { kind: "workspace", slug: scope.workspaceSlug } };
}

type Query = SelectQueryBuilder<Record<string, Record<string, unknown>>, string, object>;

/** Narrows a table's query to the rows of the exported apps. */
function inScope(db: LooseDb, table: ArchiveTable, query: Query, scope: Resolved): Query {
  // An empty `in ()` is not valid SQL everywhere: a workspace without apps matches nothing.
  const appIds = scope.appIds.length === 0 ? [""] : scope.appIds;
  switch (table) {
    case "workspaces":
      return query.where("id", "=", scope.workspaceId);
    case "apps":
      return query.where("id", "in", appIds);
    case "featureRequestVotes":
    case "featureRequestComments":
    case "featureRequestTags":
      return query.where("featureRequestId", "in", db.selectFrom("featureRequests").select("id").where("appId", "in", appIds));
    case "duplicateDismissals":
      // A pair is of one app: its first request names it.
      return query.where("firstId", "in", db.selectFrom("featureRequests").select("id").where("appId", "in", appIds));
    case "changelogEntryRequests":
      return query.where("entryId", "in", db.selectFrom("changelogEntries").select("id").where("appId", "in", appIds));
    case "uploads":
      // Feedback attachments; uploads not attached to a submission are swept within a day anyway.
      return query.where("appId", "in", appIds).where("submissionId", "is not", null).where("status", "=", "uploaded");
    default:
      return query.where("appId", "in", appIds);
  }
}

/** Every row of `table` in scope, read page by page in key order. */
async function* rowsOf(db: LooseDb, table: ArchiveTable, scope: Resolved, pageSize: number): AsyncGenerator<Record<string, unknown>> {
  const keys = TABLE_KEYS[table];
  let after: Record<string, unknown> | undefined;
  for (;;) {
    let query = inScope(db, table, db.selectFrom(table), scope).selectAll();
    const last = after;
    if (last !== undefined) {
      const [first, second] = keys as [string, string | undefined];
      query = query.where((eb) =>
        second === undefined
          ? eb(first, ">", last[first])
          : eb.or([eb(first, ">", last[first]), eb.and([eb(first, "=", last[first]), eb(second, ">", last[second])])]),
      );
    }
    for (const key of keys) query = query.orderBy(key);
    const page = (await query.limit(pageSize).execute()) as Record<string, unknown>[];
    yield* page;
    if (page.length < pageSize) return;
    after = page[page.length - 1];
  }
}

async function countOf(db: LooseDb, table: ArchiveTable, scope: Resolved): Promise<number> {
  const row = await inScope(db, table, db.selectFrom(table), scope)
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

function line(value: ArchiveHeader | ArchiveLine): string {
  return `${JSON.stringify(value)}\n`;
}

/** The bytes of `source` in parts of exactly `size` bytes (the last one shorter). */
async function* parts(source: Readable, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let length = 0;
  for await (const chunk of source as AsyncIterable<Buffer | string>) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    pending.push(buffer);
    length += buffer.length;
    while (length >= size) {
      const all = Buffer.concat(pending);
      yield all.subarray(0, size);
      pending = [all.subarray(size)];
      length -= size;
    }
  }
  if (length > 0) yield Buffer.concat(pending);
}

/**
 * Writes an app or a workspace as a Tidings archive: JSON Lines, a header line, one line per row
 * (workspace, apps, columns, versions, end users, requests, votes, comments, events, changelog,
 * subscribers with their consent state, feedback, attachments), each attachment's bytes in
 * base64 `file` lines right after its row, and an `end` line with the row counts so a cut-short
 * file is told apart from a complete one. Reads page by page: memory stays bounded.
 *
 * @example
 * ```ts
 * await pipeline(Readable.from(exportArchive(db.kysely, storage, { scope: { appKey } })), fs.createWriteStream("app.jsonl"));
 * ```
 */
export async function* exportArchive(db: Kysely<Database>, storage: ObjectStorage, options: ExportOptions): AsyncGenerator<string> {
  const scope = await resolveScope(db, options.scope);
  const pageSize = options.pageSize ?? 500;
  const ldb = loose(db);
  let total = 0;
  for (const table of ARCHIVE_TABLES) total += await countOf(ldb, table, scope);
  yield line({ type: "tidings-archive", version: ARCHIVE_VERSION, exportedAt: isoNow(options.clock ?? systemClock), scope: scope.header });
  const counts: Record<string, number> = {};
  let done = 0;
  options.onProgress?.(0, total);
  for (const table of ARCHIVE_TABLES) {
    const omitted = OMITTED_COLUMNS[table] ?? [];
    counts[table] = 0;
    for await (const row of rowsOf(ldb, table, scope, pageSize)) {
      for (const column of omitted) delete row[column];
      yield line({ type: "row", table, row });
      counts[table] += 1;
      done += 1;
      options.onProgress?.(done, Math.max(total, done));
      if (table === "uploads") yield* fileLines(storage, row);
    }
  }
  yield line({ type: "end", counts });
}

async function* fileLines(storage: ObjectStorage, upload: Record<string, unknown>): AsyncGenerator<string> {
  const stream = await storage.get(String(upload.storageKey));
  // A file lost from storage leaves its row in the archive, as it is in the database.
  if (stream === undefined) return;
  let part = 0;
  let previous: Buffer | undefined;
  for await (const bytes of parts(stream, FILE_PART_BYTES)) {
    if (previous !== undefined) yield line({ type: "file", uploadId: String(upload.id), part: part++, data: previous.toString("base64"), last: false });
    previous = bytes;
  }
  yield line({ type: "file", uploadId: String(upload.id), part, data: (previous ?? Buffer.alloc(0)).toString("base64"), last: true });
}
