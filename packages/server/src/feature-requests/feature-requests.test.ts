import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../apps/apps.js";
import { FakeClock } from "@tidings/testing/fake-clock";
import { openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { createWorkspace } from "../workspaces/workspaces.js";
import { createFeatureRequests, importedRequest } from "./feature-requests.js";
import { listFeatureRequests } from "./listing.js";

describe.each(testDialects())("creating requests in bulk on %s", (dialect) => {
  let t: TestDatabase;
  const clock = new FakeClock();
  let appId: string;
  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    const { workspace } = await createWorkspace(t.db.kysely, clock, { name: "W", slug: "w" }, null);
    appId = (await createApp(t.db.kysely, clock, workspace.id, { name: "Bulk app" })).row.id;
  });
  afterAll(() => t.cleanup());

  it("stores, indexes and logs every request, in batches past the statement size", async () => {
    const inputs = Array.from({ length: 1001 }, (_, i) => importedRequest(appId, i % 2 === 0 ? `Dark mode ${i}` : `Export ${i}`, "Imported", i !== 5));
    const rows = await t.db.kysely.transaction().execute((trx) => createFeatureRequests(trx, clock, t.db.dialect, appId, inputs));
    expect(rows).toHaveLength(1001);
    const list = (q?: string) =>
      listFeatureRequests(t.db.kysely, t.db.dialect, clock, { appId, viewerEndUserId: null, limit: 5, offset: 0, cursor: undefined, versionId: undefined, q, sort: "newest" });
    expect((await list()).total).toBe(1000);
    expect((await list("dark")).total).toBe(501);
    expect((await list("under review")).total).toBe(1000);
    const events = await t.db.kysely.selectFrom("featureRequestEvents").select((eb) => eb.fn.countAll<number>().as("n")).where("appId", "=", appId).executeTakeFirstOrThrow();
    expect(Number(events.n)).toBe(1001);
  });

  it("refuses requests of another app", async () => {
    await expect(
      createFeatureRequests(t.db.kysely, clock, t.db.dialect, appId, [
        importedRequest("app_other", "x", ""),
      ]),
    ).rejects.toThrow(/appId/);
  });
});
