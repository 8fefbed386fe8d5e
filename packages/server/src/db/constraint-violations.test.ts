import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toErrorResponse } from "../http/error-responses.js";
import { openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { isForeignKeyViolation, isUniqueViolation, uniqueViolationColumns } from "./constraint-violations.js";

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

  const workspace = (id: string, slug: string) => ({
    id,
    name: "Twin",
    slug,
    plan: "free",
    subscriptionStatus: "active",
    monthlySubmissionQuota: null,
    createdAt: NOW,
    updatedAt: NOW,
  });

  it("answers a slug written twice with 409 slug_taken", async () => {
    const error = await thrownBy(() => t.db.kysely.insertInto("workspaces").values(workspace("ws_2", "acme")).execute());
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(error, "slug")).toBe(true);
    expect(uniqueViolationColumns(error)).toEqual(["slug"]);
    expect(toErrorResponse(error)).toEqual({ status: 409, body: { error: "That slug is already in use", code: "slug_taken" } });
  });

  it("answers any other unique key written twice, primary keys included, with 409 write_conflict", async () => {
    const taken = await thrownBy(() => t.db.kysely.insertInto("workspaces").values(workspace("ws_1", "twin")).execute());
    expect(uniqueViolationColumns(taken)).toEqual(["id"]);
    await t.db.kysely.insertInto("consoleUsers").values({ id: "u_1", email: "a@example.com", displayName: null, passwordHash: null, createdAt: NOW, updatedAt: NOW }).execute();
    const email = await thrownBy(() =>
      t.db.kysely.insertInto("consoleUsers").values({ id: "u_2", email: "a@example.com", displayName: null, passwordHash: null, createdAt: NOW, updatedAt: NOW }).execute(),
    );
    await t.db.kysely.insertInto("memberships").values({ id: "m_1", workspaceId: "ws_1", userId: "u_1", role: "owner", createdAt: NOW, updatedAt: NOW }).execute();
    const member = await thrownBy(() =>
      t.db.kysely.insertInto("memberships").values({ id: "m_2", workspaceId: "ws_1", userId: "u_1", role: "member", createdAt: NOW, updatedAt: NOW }).execute(),
    );
    expect(uniqueViolationColumns(member)).toEqual(["workspace_id", "user_id"]);
    for (const error of [taken, email, member]) {
      expect(isUniqueViolation(error)).toBe(true);
      expect(isUniqueViolation(error, "slug")).toBe(false);
      expect(toErrorResponse(error)).toEqual({
        status: 409,
        body: { error: "Another request changed the same record at the same time; retry", code: "write_conflict" },
      });
    }
  });

  it("leaves other constraint failures as 500 internal_error", async () => {
    const error = await thrownBy(() =>
      t.db.kysely
        .insertInto("workspaces")
        .values({ ...workspace("ws_3", "nameless"), name: null as unknown as string })
        .execute(),
    );
    expect(isForeignKeyViolation(error)).toBe(false);
    expect(isUniqueViolation(error)).toBe(false);
    expect(toErrorResponse(error).status).toBe(500);
  });
});
