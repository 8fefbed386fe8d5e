import type { Company } from "@tidings/protocol";
import { sql, type Kysely } from "kysely";
import type { CompaniesTable, Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";

// Counts per company row `c`, computed when read (no counters to keep in step with reports).
const USER_COUNT = sql<number>`(select count(*) from end_users cu where cu.company_id = c.id)`;
const REQUEST_COUNT = sql<number>`(select count(distinct rv.feature_request_id) from feature_request_votes rv join end_users ru on ru.id = rv.end_user_id where ru.company_id = c.id)`;

type CompanyRow = CompaniesTable & { userCount: number; requestCount: number };

function toCompany(row: CompanyRow): Company {
  return {
    id: row.id,
    appId: row.appId,
    externalId: row.externalId,
    name: row.name,
    mrr: row.mrrCents === null ? null : Number(row.mrrCents) / 100,
    currency: row.currency,
    plan: row.plan,
    attributes: JSON.parse(row.attributes) as Company["attributes"],
    userCount: Number(row.userCount),
    requestCount: Number(row.requestCount),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function withCounts(db: Kysely<Database>) {
  return db.selectFrom("companies as c").selectAll("c").select([USER_COUNT.as("userCount"), REQUEST_COUNT.as("requestCount")]);
}

/** Filters and order of an app's company list. */
export interface CompanyListQuery {
  appId: string;
  limit: number;
  offset: number;
  sort: "mrr" | "name" | "users" | "newest";
  q: string | undefined;
  plan: string | undefined;
}

/**
 * One page of an app's companies. `mrr` sorts by the stored amount whatever the currency (no
 * conversion); unknown MRR comes last.
 */
export async function listCompanies(db: Kysely<Database>, query: CompanyListQuery): Promise<{ companies: Company[]; total: number }> {
  let base = db.selectFrom("companies as c").where("c.appId", "=", query.appId);
  if (query.plan !== undefined) base = base.where("c.plan", "=", query.plan);
  const needle = query.q?.trim().toLowerCase() ?? "";
  if (needle !== "") {
    const pattern = `%${needle.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    base = base.where((eb) => eb.or([sql<boolean>`lower(coalesce(c.name, '')) like ${pattern} escape '\\'`, sql<boolean>`lower(c.external_id) like ${pattern} escape '\\'`]));
  }
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  let page = withCounts(db).where("c.id", "in", base.select("c.id"));
  if (query.sort === "mrr") page = page.orderBy((eb) => eb.fn.coalesce("c.mrrCents", eb.lit(-1)), "desc");
  if (query.sort === "name") page = page.orderBy((eb) => eb.fn("lower", [eb.fn.coalesce("c.name", "c.externalId")]));
  if (query.sort === "users") page = page.orderBy(USER_COUNT, "desc");
  const rows = await page.orderBy("c.createdAt", "desc").orderBy("c.id", "desc").limit(query.limit).offset(query.offset).execute();
  return { companies: rows.map(toCompany), total: Number(n) };
}

/** A company of an app of the workspace, or 404 `company_not_found`. */
export async function findCompanyInWorkspace(db: Kysely<Database>, workspaceId: string, companyId: string): Promise<Company> {
  const row = await withCounts(db)
    .innerJoin("apps as a", "a.id", "c.appId")
    .where("a.workspaceId", "=", workspaceId)
    .where("c.id", "=", companyId)
    .executeTakeFirst();
  if (row === undefined) throw new ApiError("company_not_found");
  return toCompany(row);
}
