import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toErrorResponse } from "../http/errors.js";
import { openTestDatabase, testDialects, type TestDatabase } from "../testing/test-database.js";
import { isForeignKeyViolation } from "./constraint-violations.js";

const NOW = "2026-01-01T00:00:00.000Z";

/** The error a statement throws, or a failure when it succeeds. */
async function thrownBy(work: () => Promise<unknown>): Promise<Error> {
  try {
    await work();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the statement to fail");
}

describe.each(testDialects())("constraint violations on %s", (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    await t.db.kysely
      .insertInto("workspaces")
      .values({ id: "ws_1", name: "Acme", slug: "acme", plan: "free", subscriptionStatus: "active", monthlySubmissionQuota: null, createdAt: NOW, updatedAt: NOW })
      .execute();
  });
  afterAll(() => t.cleanup());

  it("answers a write naming a missing row with 409 referenced_record_missing and writes nothing", async () => {
    const error = await thrownBy(() =>
      t.db.kysely.transaction().execute(async (trx) => {
        await trx.updateTable("workspaces").set({ name: "Renamed" }).where("id", "=", "ws_1").execute();
        await trx.insertInto("memberships").values({ id: "m_1", workspaceId: "ws_gone", userId: "u_gone", role: "owner", createdAt: NOW, updatedAt: NOW }).execute();
      }),
    );
    expect(isForeignKeyViolation(error)).toBe(true);
    expect(toErrorResponse(error)).toEqual({
      status: 409,
      body: { error: "A record this request refers to does not exist (any more)", code: "referenced_record_missing" },
    });
    const row = await t.db.kysely.selectFrom("workspaces").select("name").where("id", "=", "ws_1").executeTakeFirstOrThrow();
    expect(row.name).toBe("Acme");
  });

  it("leaves other constraint failures as 500 internal_error", async () => {
    const error = await thrownBy(() =>
      t.db.kysely
        .insertInto("workspaces")
        .values({ id: "ws_1", name: "Twin", slug: "twin", plan: "free", subscriptionStatus: "active", monthlySubmissionQuota: null, createdAt: NOW, updatedAt: NOW })
        .execute(),
    );
    expect(isForeignKeyViolation(error)).toBe(false);
    expect(toErrorResponse(error).status).toBe(500);
  });
});
