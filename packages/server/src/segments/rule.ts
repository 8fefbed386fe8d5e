import { MAX_SEGMENT_CONDITIONS, type AttributeCondition, type MrrRange, type SegmentRule } from "@tidings/protocol";
import { PostgresAdapter, sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from "kysely";
import { reportedCurrency } from "../companies/company-report.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";

/** How many conditions a rule holds: each list, flag, range and attribute counts one. */
export function conditionCount(rule: SegmentRule): number {
  const { user = {}, company = {} } = rule;
  return (
    [user.plans, user.isPaying, user.mrr, company.ids, company.plans, company.mrr].filter((c) => c !== undefined).length + (company.attributes?.length ?? 0)
  );
}

const problem = (field: string, message: string) => new ApiError("validation_failed", { details: { formErrors: [], fieldErrors: { [field]: [message] } } });

function checkedRange(range: MrrRange | undefined, field: string): MrrRange | undefined {
  if (range === undefined) return undefined;
  if (range.min !== undefined && range.max !== undefined && range.min > range.max) throw problem(`${field}.max`, "must not be below min");
  return { ...range, currency: reportedCurrency(range.currency) };
}

/**
 * What the schema cannot check of a rule: at most {@link MAX_SEGMENT_CONDITIONS} conditions
 * (`400 validation_failed` naming `rule`), ranges whose `min` is not above `max`, known
 * currencies (`400 unknown_currency`). Answers the rule with currencies upper-cased.
 */
export function checkedRule(rule: SegmentRule): SegmentRule {
  if (conditionCount(rule) > MAX_SEGMENT_CONDITIONS) throw problem("rule", `must hold at most ${MAX_SEGMENT_CONDITIONS} conditions`);
  const out: SegmentRule = {};
  if (rule.user !== undefined) {
    const mrr = checkedRange(rule.user.mrr, "rule.user.mrr");
    out.user = { ...rule.user, ...(mrr === undefined ? {} : { mrr }) };
  }
  if (rule.company !== undefined) {
    const mrr = checkedRange(rule.company.mrr, "rule.company.mrr");
    out.company = { ...rule.company, ...(mrr === undefined ? {} : { mrr }) };
  }
  return out;
}

type Builder = ExpressionBuilder<Database & { u: Database["endUsers"] }, "u">;

const cents = (units: number) => Math.round(units * 100);

function rangeConditions(column: "u" | "c", range: MrrRange): Array<Expression<SqlBool>> {
  const mrr = sql.ref(`${column}.mrr_cents`);
  const out: Array<Expression<SqlBool>> = [sql<SqlBool>`${mrr} is not null`, sql<SqlBool>`${sql.ref(`${column}.currency`)} = ${range.currency}`];
  if (range.min !== undefined) out.push(sql<SqlBool>`${mrr} >= ${cents(range.min)}`);
  if (range.max !== undefined) out.push(sql<SqlBool>`${mrr} <= ${cents(range.max)}`);
  return out;
}

/**
 * A company attribute equal to one of the values, its JSON type included (`"1"`, `1` and `true`
 * differ): SQLite reads `companies.attributes` with `json_type` / `json_extract`, PostgreSQL with
 * jsonb containment, so both engines hold the same companies (a number equals however written).
 */
function attributeCondition(postgres: boolean, condition: AttributeCondition): Expression<SqlBool> {
  const ref = sql.ref("c.attributes");
  const either = condition.in.map((value) => {
    if (postgres) return sql<SqlBool>`(${ref})::jsonb @> ${JSON.stringify({ [condition.key]: value })}::jsonb`;
    // Keys are letters, digits, `_`, `.` and `-` (the schema's pattern): quoted, a safe path.
    const path = `$."${condition.key}"`;
    if (typeof value === "boolean") return sql<SqlBool>`json_type(${ref}, ${path}) = ${value ? "true" : "false"}`;
    if (typeof value === "number") return sql<SqlBool>`(json_type(${ref}, ${path}) in ('integer', 'real') and json_extract(${ref}, ${path}) = ${value})`;
    return sql<SqlBool>`(json_type(${ref}, ${path}) = 'text' and json_extract(${ref}, ${path}) = ${value})`;
  });
  return sql<SqlBool>`(${sql.join(either, sql` or `)})`;
}

/**
 * The rule as one condition on `end_users as u` of the app, for both engines. The user's own
 * conditions read its columns (indexed by app with plan, paying flag and MRR); the company's are
 * one `u.company_id in (…)` over the app's companies, read by 0031's index on `company_id`.
 */
export function ruleCondition(db: Kysely<Database>, appId: string, rule: SegmentRule): (eb: Builder) => Expression<SqlBool> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return (eb) => {
    const { user, company } = rule;
    const byCompany = company !== undefined && Object.keys(company).length > 0;
    // A company condition already keeps to the app (its companies are the app's): naming the app
    // again would let SQLite walk every user of the app by an (app, …) index instead of the
    // members by company.
    const all: Array<Expression<SqlBool>> = byCompany ? [] : [eb("u.appId", "=", appId)];
    if (user?.plans !== undefined) all.push(eb("u.plan", "in", user.plans));
    if (user?.isPaying !== undefined) all.push(eb("u.isPaying", "=", user.isPaying ? 1 : 0));
    if (user?.mrr !== undefined) all.push(...rangeConditions("u", user.mrr));
    if (byCompany) {
      const companies = eb
        .selectFrom("companies as c")
        .select("c.id")
        .where((ceb) => {
          const inner: Array<Expression<SqlBool>> = [ceb("c.appId", "=", appId)];
          if (company.ids !== undefined) inner.push(ceb("c.externalId", "in", company.ids));
          if (company.plans !== undefined) inner.push(ceb("c.plan", "in", company.plans));
          if (company.mrr !== undefined) inner.push(...rangeConditions("c", company.mrr));
          for (const condition of company.attributes ?? []) inner.push(attributeCondition(postgres, condition));
          return ceb.and(inner);
        });
      all.push(eb("u.companyId", "in", companies));
    }
    return all.length === 1 ? all[0]! : eb.and(all);
  };
}
