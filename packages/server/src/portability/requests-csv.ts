import type { CustomFieldValue } from "@tidings/protocol";
import type { Kysely } from "kysely";
import { companyNamesByRequest, revenueByCurrency, revenueText } from "../companies/request-revenue.js";
import { listFields } from "../custom-fields/field-reads.js";
import { toCustomField } from "../custom-fields/field-rows.js";
import { parseStoredValues } from "../custom-fields/values.js";
import type { Database } from "../db/schema.js";
import { tagsOf } from "../tags/request-tags.js";
import { ExportScopeNotFound } from "./export-scope.js";

/** The columns of the requests CSV, in order. */
export const REQUESTS_CSV_COLUMNS = [
  "id",
  "title",
  "description",
  "status",
  "votes",
  "comments",
  "author_name",
  "author_email",
  "version",
  "moderation",
  "merged_into",
  "created_at",
  "updated_at",
  "companies",
  "company_revenue",
  "company_names",
  "board",
  "tags",
] as const;

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break. A text that a
 * spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first) gets a leading `'`, so
 * opening the export in Excel or Sheets never executes what a user typed into a title.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** A custom field value as one CSV cell: options of a multi select joined by `; `. */
function fieldCell(value: CustomFieldValue | undefined): string | number | null {
  if (value === undefined) return null;
  if (Array.isArray(value)) return value.join("; ");
  return typeof value === "boolean" ? String(value) : value;
}

/**
 * The feature requests of an app as CSV (a header row, then one row per request, oldest first,
 * CRLF line ends): title, Markdown description, column name as status, vote and comment counts,
 * author, version and dates, the voters' companies (how many, their revenue per currency, their
 * names), the board's name and the tags' names (every tag, team-only ones too, joined by `, `),
 * then one `field.<key>` column per custom field of the app (active ones by position, then
 * archived ones, headed `field.<key> (archived)`). `tidings import --format csv` reads it back.
 * Reads page by page.
 *
 * @example
 * ```ts
 * await pipeline(Readable.from(exportRequestsCsv(db.kysely, { appKey })), fs.createWriteStream("requests.csv"));
 * ```
 */
export async function* exportRequestsCsv(
  db: Kysely<Database>,
  scope: { appKey: string },
  onProgress?: (done: number, total?: number) => void,
  pageSize = 500,
): AsyncGenerator<string> {
  const app = await db.selectFrom("apps").select("id").where("appKey", "=", scope.appKey).executeTakeFirst();
  if (app === undefined) throw new ExportScopeNotFound(scope);
  const total = Number((await db.selectFrom("featureRequests").select((eb) => eb.fn.countAll<number | string>().as("n")).where("appId", "=", app.id).executeTakeFirst())?.n ?? 0);
  const fields = (await listFields(db, app.id, true)).map(toCustomField);
  const fieldColumns = fields.map((f) => `field.${f.key}${f.archived ? " (archived)" : ""}`);
  yield `${[...REQUESTS_CSV_COLUMNS, ...fieldColumns.map(csvField)].join(",")}\r\n`;
  let after: { createdAt: string; id: string } | undefined;
  let done = 0;
  onProgress?.(0, total);
  for (;;) {
    const last = after;
    const page = await db
      .selectFrom("featureRequests as fr")
      .leftJoin("boardColumns as c", "c.id", "fr.columnId")
      .leftJoin("appVersions as v", "v.id", "fr.versionId")
      .leftJoin("boards as b", "b.id", "fr.boardId")
      .select([
        "fr.id",
        "fr.title",
        "fr.description",
        "c.name as status",
        "fr.voteCount",
        "fr.commentCount",
        "fr.requesterName",
        "fr.requesterEmail",
        "v.label as version",
        "fr.moderation",
        "fr.mergedIntoId",
        "fr.createdAt",
        "fr.updatedAt",
        "b.name as board",
        "fr.customFields",
      ])
      .where("fr.appId", "=", app.id)
      .$if(last !== undefined, (q) =>
        q.where((eb) => eb.or([eb("fr.createdAt", ">", last!.createdAt), eb.and([eb("fr.createdAt", "=", last!.createdAt), eb("fr.id", ">", last!.id)])])),
      )
      .orderBy("fr.createdAt")
      .orderBy("fr.id")
      .limit(pageSize)
      .execute();
    const ids = page.map((r) => r.id);
    const [revenue, companies, tags] = await Promise.all([revenueByCurrency(db, ids), companyNamesByRequest(db, ids), tagsOf(db, ids, false)]);
    for (const r of page) {
      const values = parseStoredValues(r.customFields);
      const names = companies.get(r.id) ?? [];
      const tagNames = (tags.get(r.id) ?? []).map((t) => t.name).join(", ");
      const cells = [
        ...[r.id, r.title, r.description, r.status, r.voteCount, r.commentCount, r.requesterName, r.requesterEmail, r.version, r.moderation, r.mergedIntoId, r.createdAt, r.updatedAt],
        ...[names.length, revenueText(revenue.get(r.id) ?? []), names.join("; ")],
        ...[r.board, tagNames === "" ? null : tagNames],
        ...fields.map((f) => fieldCell(values[f.id])),
      ];
      yield `${cells.map(csvField).join(",")}\r\n`;
      onProgress?.(++done, Math.max(total, done));
    }
    if (page.length < pageSize) return;
    after = page[page.length - 1];
  }
}
