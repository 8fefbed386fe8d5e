import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeClock } from "@tidings/testing/fake-clock";
import { recordStatements, sqlitePlan } from "@tidings/testing/statement-recorder";
import { openTestDatabase, type TestDatabase } from "@tidings/testing/test-database";
import { createApp } from "../../apps/apps.js";
import type { Context } from "../../context.js";
import { createFeatureRequests, importedRequest } from "../../feature-requests/feature-requests.js";
import { createWorkspace } from "../../workspaces/workspaces.js";
import { trackerDemandStep } from "./demand-job.js";

describe("the trackers' demand step on SQLite", () => {
  let t: TestDatabase;
  const clock = new FakeClock();
  beforeAll(async () => {
    t = await openTestDatabase("sqlite", { timeQueries: true });
  });
  afterAll(() => t.cleanup());

  it("reads the links and their own requests, not every request, with statistics gathered before any link existed", async () => {
    const db = t.db.kysely;
    const { workspace } = await createWorkspace(db, clock, { name: "Linked", slug: "linked" }, null);
    const appId = (await createApp(db, clock, workspace.id, { name: "Linked app" })).row.id;
    const requests = await createFeatureRequests(
      db,
      clock,
      "sqlite",
      appId,
      Array.from({ length: 300 }, (_, i) => importedRequest(appId, `Request ${i}`, "")),
    );
    // An operator's ANALYZE (or `pragma optimize`) before the app connected a tracker.
    await sql`analyze`.execute(db);
    const now = clock.now().toISOString();
    await db
      .insertInto("trackerConnections")
      .values({ id: "trc_1", provider: "github", appId, target: "acme/notes", credential: "token", credentialHint: "oken", githubAppId: null, githubPrivateKey: null, githubInstallationId: null, webhookSecret: "s", apiUrl: "https://api.github.com", mapping: "{}", status: "active", brokenReason: null, brokenAt: null, pausedUntil: null, createdAt: now, updatedAt: now })
      .execute();
    const link = (i: number, pushedVotes: number | null) => ({
      id: `trl_${i}`,
      provider: "github" as const,
      connectionId: "trc_1",
      appId,
      featureRequestId: requests[i]!.id,
      issueId: String(i),
      issueKey: `#${i}`,
      issueUrl: `https://github.com/acme/notes/issues/${i}`,
      issueTitle: `Request ${i}`,
      issueState: "open",
      pushedVotes,
      pushedComments: 0,
      pushedAt: null,
      syncError: null,
      createdAt: now,
      updatedAt: now,
    });
    // One link never written, one whose issue already shows its request's demand.
    await db.insertInto("trackerIssueLinks").values([link(0, null), link(1, 0)]).execute();

    const ctx = { db: t.db, clock } as unknown as Context;
    const statements = await recordStatements(t.db, () => trackerDemandStep(ctx));
    const read = statements.find((s) => s.sql.includes(`from "tracker_issue_links"`));
    expect(read).toBeDefined();
    expect((await sqlitePlan(db, read!)).join("\n")).not.toMatch(/SCAN fr\b/);
    const queued = await db.selectFrom("jobs").select("refId").where("kind", "like", "%demand%").execute();
    expect(queued.map((j) => j.refId)).toEqual(["trl_0"]);
  });
});
