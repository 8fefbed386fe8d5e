import fs from "node:fs";
import path from "node:path";
import { ErrorCodes } from "@tidings/protocol";
import { sql } from "kysely";
import type { Db } from "../../../server/src/db/database.js";
import { nameStatement } from "../../../server/src/db/named-statements.js";

/** What came back from `app.inject`, as far as the invariants look. */
export interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

/**
 * Answers the wire contract fixes to another shape than the envelope, by route: the SDKs compare
 * these 404 bodies byte for byte (docs/errors.md; wire-contract §2.1, §2.17).
 */
const CONTRACT_BODIES: ReadonlyArray<{ method: string; path: string; status: number; body: string }> = [
  { method: "GET", path: "/api/v1/public/config/{appKey}", status: 404, body: JSON.stringify({ error: "App not found" }) },
  { method: "GET", path: "/api/v1/users/{userId}/profile", status: 404, body: JSON.stringify({ error: "User profile not found" }) },
];

/**
 * Pages a person opens from a mail: their refusals may be HTML, but only to a caller whose
 * `Accept` names `text/html` (a browser); any other client gets the envelope.
 */
const MAIL_LINK_PAGES = /^\/api\/v1\/public\/apps\/\{appKey\}\/(changelog\/confirm|ship-notifications\/confirm|request-updates\/confirm|changelog\/unsubscribe|notifications)$/;

function asksForHtml(headers: Record<string, string>): boolean {
  return (headers.accept ?? "").toLowerCase().includes("text/html");
}

/**
 * What is wrong with an answer: a 5xx, or a 4xx that is not `{error, code, details?}` with a
 * code of the registry and that code's status.
 */
export function answerProblems(route: { method: string; path: string }, request: { method: string; headers: Record<string, string> }, answer: Answer): string[] {
  const status = answer.statusCode;
  if (status >= 500) return [`answered ${status}: ${answer.body.slice(0, 300)}`];
  // A HEAD answer has no body to judge.
  if (status < 400 || request.method === "HEAD") return [];
  if (CONTRACT_BODIES.some((c) => c.method === request.method && c.path === route.path && c.status === status && c.body === answer.body)) return [];
  const type = String(answer.headers["content-type"] ?? "");
  if (MAIL_LINK_PAGES.test(route.path) && type.startsWith("text/html") && asksForHtml(request.headers)) return [];
  if (!type.startsWith("application/json")) return [`${status} with content-type ${JSON.stringify(type)}: ${answer.body.slice(0, 200)}`];
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return [`${status} whose body is not JSON: ${answer.body.slice(0, 200)}`];
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) return [`${status} whose body is not an object: ${answer.body.slice(0, 200)}`];
  const problems: string[] = [];
  const envelope = body as Record<string, unknown>;
  const extra = Object.keys(envelope).filter((key) => key !== "error" && key !== "code" && key !== "details");
  if (extra.length > 0) problems.push(`envelope has fields ${extra.join(", ")}`);
  if (typeof envelope.error !== "string" || envelope.error === "") problems.push("envelope has no error message");
  const code = envelope.code;
  if (typeof code !== "string" || !Object.hasOwn(ErrorCodes, code)) {
    problems.push(`code ${JSON.stringify(code)} is not in the registry`);
  } else if (ErrorCodes[code as keyof typeof ErrorCodes].status !== status) {
    problems.push(`code ${code} is registered as ${ErrorCodes[code as keyof typeof ErrorCodes].status} but came with ${status}`);
  }
  return problems.map((p) => `${p}: ${answer.body.slice(0, 200)}`);
}

/** Row count and content digest of every table, plus the stored files: what a write would change. */
export type Snapshot = ReadonlyMap<string, string>;

/** Columns (`table.column`, as stored) a snapshot leaves out, or whole tables (`table`). */
export type Unwatched = ReadonlySet<string>;

/** Takes {@link Snapshot}s of one database (and its uploads folder) with one query each. */
export async function snapshotter(db: Db, uploadsDir: string | undefined, unwatched: Unwatched = new Set()): Promise<() => Promise<Snapshot>> {
  const statement = db.dialect === "sqlite" ? await sqliteDigest(db, unwatched) : await postgresDigest(db, unwatched);
  return async () => {
    const result = await statement.execute(db.kysely);
    const snapshot = new Map<string, string>();
    for (const row of result.rows) snapshot.set(row.t, `${row.n} rows, ${row.h ?? ""}`);
    if (uploadsDir !== undefined) snapshot.set("files in uploads/", listFiles(uploadsDir).join("\n"));
    return snapshot;
  };
}

type DigestRow = { t: string; n: number | string; h: string | null };

async function sqliteDigest(db: Db, unwatched: Unwatched) {
  const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(db.kysely);
  const parts: string[] = [];
  for (const { name } of tables.rows.filter((t) => !unwatched.has(t.name))) {
    const columns = await sql<{ name: string }>`select name from pragma_table_info(${name})`.execute(db.kysely);
    const row = columns.rows
      .filter((c) => !unwatched.has(`${name}.${c.name}`))
      .map((c) => `quote("${c.name}")`)
      .join(" || ',' || ");
    parts.push(`select '${name}' as t, count(*) as n, group_concat(${row === "" ? "''" : row}, char(30)) as h from "${name}"`);
  }
  return sql.raw<DigestRow>(parts.join(" union all "));
}

async function postgresDigest(db: Db, unwatched: Unwatched) {
  const columns = await sql<{ t: string; c: string }>`select table_name as t, column_name as c from information_schema.columns
    where table_schema = current_schema() order by table_name, ordinal_position`.execute(db.kysely);
  const tables = await sql<{ name: string }>`select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db.kysely);
  const parts = tables.rows
    .filter(({ name }) => !unwatched.has(name))
    .map(({ name }) => {
      const row = columns.rows.filter((c) => c.t === name && !unwatched.has(`${name}.${c.c}`)).map((c) => `x."${c.c}"`);
      const text = row.length === 0 ? "''" : `row(${row.join(", ")})::text`;
      return `select '${name}' as t, count(*)::int as n, md5(coalesce(string_agg(${text}, chr(30) order by ${text}), '')) as h from "${name}" x`;
    });
  const text = parts.join(" union all ");
  // Prepared once per connection: parsing and planning the union of every table was a third of
  // each digest, and the fuzz test takes two after every refused request.
  nameStatement(text);
  return sql.raw<DigestRow>(text);
}

function listFiles(dir: string, prefix = ""): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? listFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`)
        : [`${prefix}${entry.name} ${fs.statSync(path.join(dir, entry.name)).size}`],
    )
    .sort();
}

/** The tables (or `files in uploads/`) whose content differs between two snapshots. */
export function changedTables(before: Snapshot, after: Snapshot): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((name) => before.get(name) !== after.get(name)).sort();
}
