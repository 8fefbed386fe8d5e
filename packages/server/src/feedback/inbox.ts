import type { SubmissionRecord, TriageStatus } from "@tidings/protocol";
import { sql, type Kysely, type SelectQueryBuilder } from "kysely";
import type { Database, SubmissionsTable } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { fieldCondition, type FieldFilter } from "../custom-fields/filters.js";
import { recordFieldsOf } from "../custom-fields/record-fields.js";

/** Filters of the inbox listing; all optional. */
export interface InboxFilter {
  appId?: string | undefined;
  /** A triage status, or `active` for open and in progress. */
  triageStatus?: TriageStatus | "active" | undefined;
  platform?: string | undefined;
  priority?: string | undefined;
  /** A console user id, or `unassigned`. */
  assignedTo?: string | undefined;
  /** Case-insensitive substring of title, description, reporter name or email. */
  q?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  /** Custom field filters (fields of `appId`); every one must match. */
  fieldFilters?: readonly FieldFilter[] | undefined;
}

type Row = SubmissionsTable & { appKey: string; appName: string; workspaceSlug: string; attachmentCount: number | string; linkedTitle: string | null };

function base(db: Kysely<Database>, workspaceId: string) {
  return db
    .selectFrom("submissions")
    .innerJoin("apps", "apps.id", "submissions.appId")
    .innerJoin("workspaces", "workspaces.id", "submissions.workspaceId")
    .where("submissions.workspaceId", "=", workspaceId);
}

function filtered<O>(db: Kysely<Database>, query: SelectQueryBuilder<Database, "submissions" | "apps" | "workspaces", O>, filter: InboxFilter) {
  let q = query;
  for (const field of filter.fieldFilters ?? []) q = q.where(fieldCondition(db, "submissions.custom_fields", field));
  if (filter.appId !== undefined) q = q.where("submissions.appId", "=", filter.appId);
  if (filter.triageStatus === "active") q = q.where("submissions.triageStatus", "in", ["open", "in_progress"]);
  else if (filter.triageStatus !== undefined) q = q.where("submissions.triageStatus", "=", filter.triageStatus);
  if (filter.platform !== undefined) q = q.where("submissions.platform", "=", filter.platform);
  if (filter.priority !== undefined) q = q.where("submissions.priority", "=", filter.priority);
  if (filter.assignedTo === "unassigned") q = q.where("submissions.assignedTo", "is", null);
  else if (filter.assignedTo !== undefined) q = q.where("submissions.assignedTo", "=", filter.assignedTo);
  if (filter.from !== undefined) q = q.where("submissions.createdAt", ">=", new Date(filter.from).toISOString());
  if (filter.to !== undefined) q = q.where("submissions.createdAt", "<=", new Date(filter.to).toISOString());
  const text = filter.q?.trim().toLowerCase();
  if (text !== undefined && text !== "") {
    // Literal substring: LIKE wildcards in the query are escaped.
    const pattern = `%${text.replace(/[!%_]/g, "!$&")}%`;
    q = q.where(({ eb }) => sql<boolean>`${eb.ref("submissions.searchText")} like ${pattern} escape '!'`);
  }
  return q;
}

function toRecord(row: Row, fields: SubmissionRecord["fields"]): SubmissionRecord {
  return {
    submissionId: row.id,
    appId: row.appId,
    appKey: row.appKey,
    appName: row.appName,
    workspaceSlug: row.workspaceSlug,
    title: row.title,
    description: row.description,
    reporterName: row.reporterName,
    reporterEmail: row.reporterEmail,
    platform: row.platform,
    appVersion: row.appVersion,
    buildNumber: row.buildNumber,
    priority: row.priority,
    status: "received",
    triageStatus: row.triageStatus,
    assignedTo: row.assignedTo,
    internalNote: row.internalNote,
    attachmentCount: Number(row.attachmentCount),
    firstTriagedAt: row.firstTriagedAt,
    resolvedAt: row.resolvedAt,
    fields,
    featureRequest:
      row.featureRequestId === null || row.linkedTitle === null ? null : { featureRequestId: row.featureRequestId, title: row.linkedTitle, linkedAt: row.linkedAt ?? row.createdAt },
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function selectRecord(db: Kysely<Database>, workspaceId: string) {
  return base(db, workspaceId)
    .selectAll("submissions")
    .select(["apps.appKey as appKey", "apps.name as appName", "workspaces.slug as workspaceSlug"])
    .select((eb) => eb.selectFrom("featureRequests as linked").select("linked.title").whereRef("linked.id", "=", "submissions.featureRequestId").as("linkedTitle"))
    .select((eb) =>
      eb
        .selectFrom("uploads")
        .select((u) => u.fn.countAll<number>().as("n"))
        .whereRef("uploads.submissionId", "=", "submissions.id")
        .as("attachmentCount"),
    );
}

/**
 * One page of a workspace's submissions, newest first, and how many match the filter.
 *
 * @example
 * ```ts
 * await listSubmissions(db, wsId, { triageStatus: "open", q: "crash" }, { limit: 50, offset: 0 });
 * ```
 */
export async function listSubmissions(
  db: Kysely<Database>,
  workspaceId: string,
  filter: InboxFilter,
  page: { limit: number; offset: number },
): Promise<{ submissions: SubmissionRecord[]; total: number }> {
  const rows = (await filtered(db, selectRecord(db, workspaceId), filter)
    .orderBy("submissions.createdAt", "desc")
    .orderBy("submissions.id", "desc")
    .limit(page.limit)
    .offset(page.offset)
    .execute()) as Row[];
  const count = await filtered(db, base(db, workspaceId).select((eb) => eb.fn.countAll<number>().as("n")), filter).executeTakeFirstOrThrow();
  const fieldsOf = await recordFieldsOf(db, rows.map((r) => r.appId));
  return { submissions: rows.map((r) => toRecord(r, fieldsOf(r))), total: Number(count.n) };
}

/** One submission of the workspace as an inbox record, or 404 `submission_not_found`. */
export async function findSubmission(db: Kysely<Database>, workspaceId: string, id: string): Promise<{ record: SubmissionRecord; metadata: string }> {
  const row = (await selectRecord(db, workspaceId).where("submissions.id", "=", id).executeTakeFirst()) as Row | undefined;
  if (row === undefined) throw new ApiError("submission_not_found");
  const fieldsOf = await recordFieldsOf(db, [row.appId]);
  return { record: toRecord(row, fieldsOf(row)), metadata: row.metadata };
}
