import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql, type Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "../apps/apps.js";
import { createBoard } from "../boards/boards.js";
import { createFeatureRequests, importedRequest } from "../feature-requests/feature-requests.js";
import { listFeatureRequests } from "../feature-requests/listing.js";
import { titleMatches } from "../feature-requests/title-matches.js";
import { reindex } from "../search/search-index.js";
import { FakeClock } from "@tidings/testing/fake-clock";
import { openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { ensureEndUser } from "../users/identity.js";
import { createWorkspace } from "../workspaces/workspaces.js";
import { migrateTo, migrateToLatest } from "./migrate.js";
import { openDatabase } from "./database.js";
import { migrations } from "./migrations/index.js";

describe("testDialects", () => {
  it("requires PostgreSQL when CI=true", () => {
    expect(() => testDialects({ CI: "true" })).toThrow(/TEST_DATABASE_URL/);
    expect(testDialects({ CI: "true", TEST_DATABASE_URL: "postgres://x" })).toEqual(["sqlite", "postgres"]);
    expect(testDialects({})).toEqual(["sqlite"]);
  });
});

describe.each(testDialects())("database on %s", (dialect) => {
  let t: TestDatabase;
  const clock = new FakeClock();
  beforeAll(async () => {
    t = await openTestDatabase(dialect);
  });
  afterAll(() => t.cleanup());
  /** Migrations run in the test's own schema (on PostgreSQL). */
  const inSchema = () => (t.schema === undefined ? {} : { schema: t.schema });

  it("applies migrations once; a second run applies nothing", async () => {
    expect(await migrateToLatest(t.db, inSchema())).toEqual([]);
  });

  it("rolls a failed command back whole", async () => {
    await expect(
      t.db.kysely.transaction().execute(async (trx) => {
        const { workspace } = await createWorkspace(trx, clock, { name: "Half", slug: "half" }, null);
        await createApp(trx, clock, workspace.id, { name: "Half app" });
        throw new Error("crash in the middle");
      }),
    ).rejects.toThrow("crash in the middle");
    expect(await t.db.kysely.selectFrom("workspaces").select("id").where("slug", "=", "half").execute()).toEqual([]);
    expect(await t.db.kysely.selectFrom("apps").select("id").where("name", "=", "Half app").execute()).toEqual([]);
  });

  it.runIf(dialect === "postgres")("compiles no statement on PostgreSQL, however dear its estimate, on every pooled connection", async () => {
    // Held at once, so each read is on a connection of its own.
    const settings = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.db.kysely.connection().execute(async (c) => {
          const jit = (await sql<{ jit: string }>`show jit`.execute(c)).rows[0]!.jit;
          const path = (await sql<{ searchPath: string }>`show search_path`.execute(c)).rows[0]!.searchPath;
          await sql`select pg_sleep(0.05)`.execute(c);
          return { jit, path };
        }),
      ),
    );
    expect(settings).toEqual(Array.from({ length: 6 }, () => ({ jit: "off", path: t.schema })));
  });

  it.runIf(dialect === "postgres")("keeps its idle connections open, so the first reads after a quiet spell need no new ones", async () => {
    const backend = () => sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.05)`.execute(t.db.kysely).then((r) => r.rows[0]!.pid);
    // Three reads at once hold three connections; pg's pool closes an idle one after 10 s by default.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const before = new Set(await Promise.all([backend(), backend(), backend()]));
      expect(before.size).toBe(3);
      vi.advanceTimersByTime(60_000);
      const after = new Set(await Promise.all([backend(), backend(), backend()]));
      expect([...after].every((pid) => before.has(pid))).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it.runIf(dialect === "postgres")("applies a URL's own connection options after its own, so they add to them or override them", async () => {
    const settingsWith = async (options: string) => {
      const url = `${t.url}${t.url.includes("?") ? "&" : "?"}options=${encodeURIComponent(options)}`;
      const db = openDatabase(url, { schema: t.schema! });
      try {
        const row = (await sql<{ jit: string; timeout: string; path: string }>`select current_setting('jit') as jit, current_setting('statement_timeout') as timeout, current_setting('search_path') as path`.execute(db.kysely)).rows[0]!;
        return row;
      } finally {
        await db.destroy();
      }
    };
    expect(await settingsWith("-c statement_timeout=4321")).toEqual({ jit: "off", timeout: "4321ms", path: t.schema });
    expect(await settingsWith("-c jit=on")).toMatchObject({ jit: "on", path: t.schema });
  });

  it("enforces foreign keys and cascades app deletion to columns", async () => {
    const { workspace } = await createWorkspace(t.db.kysely, clock, { name: "FK", slug: "fk" }, null);
    const { row } = await createApp(t.db.kysely, clock, workspace.id, { name: "FK app" });
    await expect(
      t.db.kysely
        .insertInto("boardColumns")
        .values({ id: "col_x", appId: "app_missing", name: "x", slug: "x", position: 0, isVisible: 1, isSystem: 0, kind: "normal", color: null, createdAt: "", updatedAt: "" })
        .execute(),
    ).rejects.toThrow();
    await t.db.kysely.deleteFrom("apps").where("id", "=", row.id).execute();
    expect(await t.db.kysely.selectFrom("boardColumns").select("id").where("appId", "=", row.id).execute()).toEqual([]);
  });

  it("turns trust in identified users on for apps that existed before migration 0025", async () => {
    // The app is created by today's code, then the schema goes back to before 0025 under it.
    const { workspace } = await createWorkspace(t.db.kysely, clock, { name: "Trust", slug: "trust-0025" }, null);
    const appId = (await createApp(t.db.kysely, clock, workspace.id, { name: "Older app" })).row.id;
    await migrateTo(t.db, "0024-search-words-table", inSchema());
    expect(await migrateToLatest(t.db, inSchema())).toEqual(["0025-trust-identified-users", "0026-boards", "0027-tags", "0028-custom-fields", "0029-duplicate-dismissals", "0030-tag-and-board-listing-indexes", "0031-companies", "0032-api-token-scopes", "0033-github", "0034-feedback-evidence", "0035-linear", "0036-trackers", "0037-segments", "0038-tag-top-order", "0039-title-word-index", "0040-vote-batch-one-block", "0041-title-words-table", "0042-vote-batch-alone", "0043-spread-usage", "0044-ship-notify-queue", "0045-ship-due-queue", "0046-top-order-table", "0047-vote-plans-use-indexes", "0048-votes-by-voter-and-request", "0049-attribute-indexes-partial", "0050-vote-counts-once-per-batch", "0051-search-app-key", "0052-recent-commenters"]);
    const row = await t.db.kysely.selectFrom("apps").select("verificationTrustIdentified").where("id", "=", appId).executeTakeFirstOrThrow();
    expect(row.verificationTrustIdentified).toBe(1);
  });

  it("gives every app that existed before migration 0026 a public default board holding all its requests", async () => {
    const db = t.db.kysely;
    const { workspace } = await createWorkspace(db, clock, { name: "Boards", slug: "boards-0026" }, null);
    const appId = (await createApp(db, clock, workspace.id, { name: "Boards app" })).row.id;
    const requests = await createFeatureRequests(db, clock, dialect, appId, [importedRequest(appId, "One", ""), importedRequest(appId, "Two", "", false)]);
    await migrateTo(t.db, "0025-trust-identified-users", inSchema());
    expect(await migrateToLatest(t.db, inSchema())).toEqual(["0026-boards", "0027-tags", "0028-custom-fields", "0029-duplicate-dismissals", "0030-tag-and-board-listing-indexes", "0031-companies", "0032-api-token-scopes", "0033-github", "0034-feedback-evidence", "0035-linear", "0036-trackers", "0037-segments", "0038-tag-top-order", "0039-title-word-index", "0040-vote-batch-one-block", "0041-title-words-table", "0042-vote-batch-alone", "0043-spread-usage", "0044-ship-notify-queue", "0045-ship-due-queue", "0046-top-order-table", "0047-vote-plans-use-indexes", "0048-votes-by-voter-and-request", "0049-attribute-indexes-partial", "0050-vote-counts-once-per-batch", "0051-search-app-key", "0052-recent-commenters"]);
    const boards = await db.selectFrom("boards").selectAll().where("appId", "=", appId).execute();
    expect(boards).toHaveLength(1);
    expect(boards[0]).toMatchObject({ name: "Feature requests", slug: "feature-requests", visibility: "public", isDefault: 1, accessRule: null, position: 0 });
    expect(boards[0]!.id).toMatch(/^brd_[0-9a-z]{26}$/);
    const placed = await db.selectFrom("featureRequests").select(["id", "boardId"]).where("appId", "=", appId).orderBy("id").execute();
    expect(placed).toEqual(requests.map((r) => ({ id: r.id, boardId: boards[0]!.id })).sort((a, b) => a.id.localeCompare(b.id)));
  });

  it("gives requests and feedback from before migration 0028 no custom field values, and the fields table its active-key index", async () => {
    const db = t.db.kysely;
    const { workspace } = await createWorkspace(db, clock, { name: "Fields", slug: "fields-0028" }, null);
    const appId = (await createApp(db, clock, workspace.id, { name: "Fields app" })).row.id;
    const [request] = await createFeatureRequests(db, clock, dialect, appId, [{ ...importedRequest(appId, "One", ""), customFields: { fld_gone: "kept?" } }]);
    const now = clock.now().toISOString();
    await db
      .insertInto("submissions")
      .values({ id: "sub_0028", appId, workspaceId: workspace.id, endUserId: null, title: "Old", description: "", reporterName: null, reporterEmail: null, platform: "web", appVersion: null, buildNumber: null, metadata: "{}", searchText: "old", triageStatus: "open", priority: null, assignedTo: null, internalNote: null, firstTriagedAt: null, resolvedAt: null, customFields: '{"fld_gone":true}', createdAt: now, updatedAt: now })
      .execute();
    await migrateTo(t.db, "0027-tags", inSchema());
    expect(await migrateToLatest(t.db, inSchema())).toEqual(["0028-custom-fields", "0029-duplicate-dismissals", "0030-tag-and-board-listing-indexes", "0031-companies", "0032-api-token-scopes", "0033-github", "0034-feedback-evidence", "0035-linear", "0036-trackers", "0037-segments", "0038-tag-top-order", "0039-title-word-index", "0040-vote-batch-one-block", "0041-title-words-table", "0042-vote-batch-alone", "0043-spread-usage", "0044-ship-notify-queue", "0045-ship-due-queue", "0046-top-order-table", "0047-vote-plans-use-indexes", "0048-votes-by-voter-and-request", "0049-attribute-indexes-partial", "0050-vote-counts-once-per-batch", "0051-search-app-key", "0052-recent-commenters"]);
    expect(await db.selectFrom("featureRequests").select(["title", "customFields"]).where("id", "=", request!.id).executeTakeFirst()).toEqual({ title: "One", customFields: "{}" });
    expect(await db.selectFrom("submissions").select(["title", "customFields"]).where("id", "=", "sub_0028").executeTakeFirst()).toEqual({ title: "Old", customFields: "{}" });
    const field = { appId, boardId: null, label: "Plan", description: "", type: "text" as const, required: 0 as const, appliesTo: "[]", options: "[]", limits: "{}", position: 0, createdAt: now, updatedAt: now };
    await db.insertInto("customFields").values({ ...field, id: "fld_a", key: "plan", archived: 1 }).execute();
    await db.insertInto("customFields").values({ ...field, id: "fld_b", key: "plan", archived: 0 }).execute();
    // A second active field with the key is refused by the database itself.
    await expect(db.insertInto("customFields").values({ ...field, id: "fld_c", key: "plan", archived: 0 }).execute()).rejects.toThrow();
  });

  it("gives tags from before migration 0030 their requests' state and time, and keeps them as requests change", async () => {
    const db = t.db.kysely;
    const { workspace } = await createWorkspace(db, clock, { name: "Tags", slug: "tags-0030" }, null);
    const appId = (await createApp(db, clock, workspace.id, { name: "Tags app" })).row.id;
    const [listed, pending, later] = await createFeatureRequests(db, clock, dialect, appId, [importedRequest(appId, "Listed", ""), importedRequest(appId, "Pending", "", false), importedRequest(appId, "Later", "")]);
    const now = clock.now().toISOString();
    await db.insertInto("tags").values({ id: "tag_0030", appId, name: "UI", slug: "ui", color: null, visibility: "public", createdAt: now, updatedAt: now }).execute();
    await migrateTo(t.db, "0028-custom-fields", inSchema());
    await sql`insert into feature_request_tags (feature_request_id, tag_id, created_at) values (${listed!.id}, 'tag_0030', ${now}), (${pending!.id}, 'tag_0030', ${now})`.execute(db);
    const names = Object.keys(migrations);
    expect(await migrateToLatest(t.db, inSchema())).toEqual(names.slice(names.indexOf("0028-custom-fields") + 1));
    const copies = () =>
      db.selectFrom("featureRequestTags").select(["featureRequestId", "listed", "requestCreatedAt"]).where("tagId", "=", "tag_0030").orderBy("requestCreatedAt").orderBy("featureRequestId").execute();
    expect(await copies()).toEqual(
      [
        { featureRequestId: listed!.id, listed: 1, requestCreatedAt: listed!.createdAt },
        { featureRequestId: pending!.id, listed: 0, requestCreatedAt: pending!.createdAt },
      ].sort((a, b) => a.featureRequestId.localeCompare(b.featureRequestId)),
    );
    // A tag put on a request takes its values; an approval, a merge and a new time reach the tag's rows.
    await db.insertInto("featureRequestTags").values({ featureRequestId: later!.id, tagId: "tag_0030", createdAt: now }).execute();
    await db.updateTable("featureRequests").set({ moderation: "approved" }).where("id", "=", pending!.id).execute();
    await db.updateTable("featureRequests").set({ mergedIntoId: listed!.id }).where("id", "=", later!.id).execute();
    await db.updateTable("featureRequests").set({ createdAt: "2020-01-01T00:00:00.000Z" }).where("id", "=", listed!.id).execute();
    const after = new Map((await copies()).map((c) => [c.featureRequestId, c]));
    expect(after.get(listed!.id)).toEqual({ featureRequestId: listed!.id, listed: 1, requestCreatedAt: "2020-01-01T00:00:00.000Z" });
    expect(after.get(pending!.id)).toMatchObject({ listed: 1 });
    expect(after.get(later!.id)).toEqual({ featureRequestId: later!.id, listed: 0, requestCreatedAt: later!.createdAt });
  });

  it("gives tags from before migration 0038 their requests' vote counts, and keeps them as votes change", async () => {
    const db = t.db.kysely;
    const { workspace } = await createWorkspace(db, clock, { name: "Votes", slug: "tags-0038" }, null);
    const appId = (await createApp(db, clock, workspace.id, { name: "Votes app" })).row.id;
    const [popular, quiet, later] = await createFeatureRequests(db, clock, dialect, appId, [importedRequest(appId, "Popular", ""), importedRequest(appId, "Quiet", ""), importedRequest(appId, "Later", "")]);
    const now = clock.now().toISOString();
    await db.insertInto("tags").values({ id: "tag_0038", appId, name: "Sync", slug: "sync", color: null, visibility: "public", createdAt: now, updatedAt: now }).execute();
    await migrateTo(t.db, "0037-segments", inSchema());
    await db.updateTable("featureRequests").set({ voteCount: 12 }).where("id", "=", popular!.id).execute();
    await sql`insert into feature_request_tags (feature_request_id, tag_id, created_at) values (${popular!.id}, 'tag_0038', ${now}), (${quiet!.id}, 'tag_0038', ${now})`.execute(db);
    expect(await migrateToLatest(t.db, inSchema())).toEqual(["0038-tag-top-order", "0039-title-word-index", "0040-vote-batch-one-block", "0041-title-words-table", "0042-vote-batch-alone", "0043-spread-usage", "0044-ship-notify-queue", "0045-ship-due-queue", "0046-top-order-table", "0047-vote-plans-use-indexes", "0048-votes-by-voter-and-request", "0049-attribute-indexes-partial", "0050-vote-counts-once-per-batch", "0051-search-app-key", "0052-recent-commenters"]);
    const copies = async () =>
      Object.fromEntries(
        (await db.selectFrom("featureRequestTags").select(["featureRequestId", "requestVoteCount"]).where("tagId", "=", "tag_0038").execute()).map((c) => [c.featureRequestId, c.requestVoteCount]),
      );
    expect(await copies()).toEqual({ [popular!.id]: 12, [quiet!.id]: 0 });
    // A vote reaches the tag's rows; a tag put on a request takes its count.
    await db.updateTable("featureRequests").set({ voteCount: sql<number>`vote_count + 1` }).where("id", "=", quiet!.id).execute();
    await db.updateTable("featureRequests").set({ voteCount: 3 }).where("id", "=", later!.id).execute();
    await db.insertInto("featureRequestTags").values({ featureRequestId: later!.id, tagId: "tag_0038", createdAt: now }).execute();
    await db.updateTable("featureRequests").set({ voteCount: sql<number>`vote_count - 2` }).where("id", "=", popular!.id).execute();
    expect(await copies()).toEqual({ [popular!.id]: 10, [quiet!.id]: 1, [later!.id]: 3 });
    // The listing's `top` page of the tag follows them.
    const top = await listFeatureRequests(db, dialect, clock, { appId, viewerEndUserId: null, limit: 10, offset: 0, cursor: undefined, versionId: undefined, q: undefined, sort: "top", tagIds: ["tag_0038"] });
    expect(top.requests.map((r) => [r.title, r.voteCount])).toEqual([["Popular", 10], ["Later", 3], ["Quiet", 1]]);
  });

  it("gives public requests from before migration 0041 their title words, and keeps them as requests change and go", async () => {
    const db = t.db.kysely;
    const { workspace } = await createWorkspace(db, clock, { name: "Titles", slug: "titles-0041" }, null);
    const appId = (await createApp(db, clock, workspace.id, { name: "Titles app" })).row.id;
    const [offline] = await createFeatureRequests(db, clock, dialect, appId, [importedRequest(appId, "Offline mode", ""), importedRequest(appId, "Dark theme, waiting for review", "", false)]);
    await migrateTo(t.db, "0040-vote-batch-one-block", inSchema());
    const [dark, kiosk] = await createFeatureRequests(db, clock, dialect, appId, [importedRequest(appId, "Dark mode", ""), importedRequest(appId, "Kiosk mode", "")]);
    expect(await migrateToLatest(t.db, inSchema())).toEqual(["0041-title-words-table", "0042-vote-batch-alone", "0043-spread-usage", "0044-ship-notify-queue", "0045-ship-due-queue", "0046-top-order-table", "0047-vote-plans-use-indexes", "0048-votes-by-voter-and-request", "0049-attribute-indexes-partial", "0050-vote-counts-once-per-batch", "0051-search-app-key", "0052-recent-commenters"]);
    const titles = async (...terms: string[]) => (await titleMatches(db, dialect, { appId }, [{ terms, limit: 10 }])).map((m) => m.title).sort();
    const stored = async (id: string) =>
      dialect === "postgres" ? Number((await sql<{ n: string }>`select count(*) as n from feature_request_title_words where feature_request_id = ${id}`.execute(db)).rows[0]!.n) : 0;
    expect(await titles("mo")).toEqual(["Dark mode", "Kiosk mode", "Offline mode"]);
    expect(await titles("dar")).toEqual(["Dark mode"]);
    expect(await titles("mode", "offl")).toEqual(["Offline mode"]);
    // A new title, a request sent back to review, a request deleted, then its app.
    await db.updateTable("featureRequests").set({ title: "Offline sync" }).where("id", "=", offline!.id).execute();
    await db.updateTable("featureRequests").set({ moderation: "pending" }).where("id", "=", kiosk!.id).execute();
    for (const id of [offline!.id, kiosk!.id]) await reindex(db, dialect, id);
    await db.deleteFrom("featureRequests").where("id", "=", dark!.id).execute();
    expect(await titles("mo")).toEqual([]);
    expect(await titles("sync", "off")).toEqual(["Offline sync"]);
    expect([await stored(dark!.id), await stored(kiosk!.id)]).toEqual([0, 0]);
    // Merged into another request, then split off again.
    await db.updateTable("featureRequests").set({ mergedIntoId: kiosk!.id }).where("id", "=", offline!.id).execute();
    expect(await titles("sync", "off")).toEqual([]);
    expect(await stored(offline!.id)).toBe(0);
    await db.updateTable("featureRequests").set({ mergedIntoId: null }).where("id", "=", offline!.id).execute();
    expect(await titles("sync", "off")).toEqual(["Offline sync"]);
    await db.deleteFrom("apps").where("id", "=", appId).execute();
    expect(await stored(offline!.id)).toBe(0);
  });

  it("moves GitHub and Linear connections, links and deliveries from before migration 0036 into the shared tracker tables", async () => {
    const db = t.db.kysely;
    const { workspace } = await createWorkspace(db, clock, { name: "Trackers", slug: "trackers-0036" }, null);
    const appId = (await createApp(db, clock, workspace.id, { name: "Trackers app" })).row.id;
    const [request] = await createFeatureRequests(db, clock, dialect, appId, [importedRequest(appId, "Dark mode", "")]);
    const frId = request!.id;
    await migrateTo(t.db, "0035-linear", inSchema());
    const at = "2026-01-02T03:04:05.000Z";
    await sql`insert into github_connections (id, app_id, owner, repo, token, token_hint, webhook_secret, api_base_url, closed_column_id, reopened_column_id, label_columns, status, broken_reason, broken_at, paused_until, created_at, updated_at)
      values ('ghc_0036', ${appId}, 'acme', 'notes', 'github_pat_secret1234', '1234', 'whsec', 'https://api.github.com', 'col_done', null, '[{"label":"planned","columnId":"col_planned"}]', 'broken', 'unauthorized', ${at}, ${at}, ${at}, ${at})`.execute(db);
    await sql`insert into github_issue_links (id, connection_id, app_id, feature_request_id, issue_number, issue_url, issue_title, issue_state, pushed_votes, pushed_comments, pushed_at, sync_error, created_at, updated_at)
      values ('ghl_0036', 'ghc_0036', ${appId}, ${frId}, 42, 'https://github.com/acme/notes/issues/42', 'Dark mode', 'closed', 7, 2, ${at}, null, ${at}, ${at})`.execute(db);
    await sql`insert into github_webhook_deliveries (connection_id, delivery_id, event, received_at) values ('ghc_0036', 'dlv-1', 'issues', ${at})`.execute(db);
    await sql`insert into linear_connections (id, app_id, team_id, api_key, key_hint, webhook_secret, api_url, completed_column_id, started_column_id, canceled_column_id, status, broken_reason, broken_at, paused_until, created_at, updated_at)
      values ('lnc_0036', ${appId}, 'team-1', 'lin_api_secret9876', '9876', 'lsec', 'https://api.linear.app/graphql', null, 'col_started', null, 'active', null, null, null, ${at}, ${at})`.execute(db);
    await sql`insert into linear_issue_links (id, connection_id, app_id, feature_request_id, issue_id, issue_identifier, issue_url, issue_title, issue_state, pushed_votes, pushed_comments, pushed_at, sync_error, created_at, updated_at)
      values ('lnl_0036', 'lnc_0036', ${appId}, ${frId}, 'uuid-1', 'ENG-1', 'https://linear.app/acme/issue/ENG-1', 'Dark mode', null, null, null, null, 'issue_not_found', ${at}, ${at})`.execute(db);
    await sql`insert into linear_webhook_deliveries (connection_id, delivery_id, received_at) values ('lnc_0036', 'dlv-2', ${at})`.execute(db);

    expect(await migrateToLatest(t.db, inSchema())).toEqual(["0036-trackers", "0037-segments", "0038-tag-top-order", "0039-title-word-index", "0040-vote-batch-one-block", "0041-title-words-table", "0042-vote-batch-alone", "0043-spread-usage", "0044-ship-notify-queue", "0045-ship-due-queue", "0046-top-order-table", "0047-vote-plans-use-indexes", "0048-votes-by-voter-and-request", "0049-attribute-indexes-partial", "0050-vote-counts-once-per-batch", "0051-search-app-key", "0052-recent-commenters"]);
    const common = { appId, status: "active", brokenReason: null, brokenAt: null, pausedUntil: null, createdAt: at, updatedAt: at, githubAppId: null, githubPrivateKey: null, githubInstallationId: null };
    const connections = await db.selectFrom("trackerConnections").selectAll().where("appId", "=", appId).orderBy("provider").execute();
    expect(connections.map((c) => ({ ...c, mapping: JSON.parse(c.mapping) as unknown }))).toEqual([
      {
        ...common,
        id: "ghc_0036",
        provider: "github",
        target: "acme/notes",
        credential: "github_pat_secret1234",
        credentialHint: "1234",
        webhookSecret: "whsec",
        apiUrl: "https://api.github.com",
        mapping: { closedColumnId: "col_done", reopenedColumnId: null, labelColumns: [{ label: "planned", columnId: "col_planned" }] },
        status: "broken",
        brokenReason: "unauthorized",
        brokenAt: at,
        pausedUntil: at,
      },
      {
        ...common,
        id: "lnc_0036",
        provider: "linear",
        target: "team-1",
        credential: "lin_api_secret9876",
        credentialHint: "9876",
        webhookSecret: "lsec",
        apiUrl: "https://api.linear.app/graphql",
        mapping: { completedColumnId: null, startedColumnId: "col_started", canceledColumnId: null },
      },
    ]);
    expect(await db.selectFrom("trackerIssueLinks").selectAll().where("featureRequestId", "=", frId).orderBy("provider").execute()).toEqual([
      { id: "ghl_0036", provider: "github", connectionId: "ghc_0036", appId, featureRequestId: frId, issueId: "42", issueKey: "#42", issueUrl: "https://github.com/acme/notes/issues/42", issueTitle: "Dark mode", issueState: "closed", pushedVotes: 7, pushedComments: 2, pushedAt: at, syncError: null, createdAt: at, updatedAt: at },
      { id: "lnl_0036", provider: "linear", connectionId: "lnc_0036", appId, featureRequestId: frId, issueId: "uuid-1", issueKey: "ENG-1", issueUrl: "https://linear.app/acme/issue/ENG-1", issueTitle: "Dark mode", issueState: null, pushedVotes: null, pushedComments: null, pushedAt: null, syncError: "issue_not_found", createdAt: at, updatedAt: at },
    ]);
    expect(await db.selectFrom("trackerWebhookDeliveries").selectAll().where("connectionId", "in", ["ghc_0036", "lnc_0036"]).orderBy("deliveryId").execute()).toEqual([
      { connectionId: "ghc_0036", deliveryId: "dlv-1", event: "issues", receivedAt: at },
      { connectionId: "lnc_0036", deliveryId: "dlv-2", event: "Issue", receivedAt: at },
    ]);
    // The old tables are gone; deleting the app takes its tracker rows with it.
    await expect(sql`select 1 from github_connections`.execute(db)).rejects.toThrow();
    await db.deleteFrom("apps").where("id", "=", appId).execute();
    expect(await db.selectFrom("trackerIssueLinks").select("id").where("appId", "=", appId).execute()).toEqual([]);
  });

  it("leaves the API tokens made before migration 0032 read-write and bound to no workspace", async () => {
    const db = t.db.kysely;
    const now = clock.now().toISOString();
    await db.insertInto("consoleUsers").values({ id: "usr_0032", email: "old-token@example.com", displayName: null, passwordHash: null, createdAt: now, updatedAt: now }).execute();
    const names = Object.keys(migrations);
    const scopes = names.indexOf("0032-api-token-scopes");
    await migrateTo(t.db, names[scopes - 1]!, inSchema());
    await (db.withoutPlugins() as Kysely<unknown>)
      .insertInto("api_tokens" as never)
      .values({ id: "tok_0032", user_id: "usr_0032", name: "laptop", token_hash: "h0032", prefix: "tdg_old", created_at: now, last_used_at: null, revoked_at: null } as never)
      .execute();
    expect(await migrateToLatest(t.db, inSchema())).toEqual(names.slice(scopes));
    expect(await db.selectFrom("apiTokens").select(["name", "scope", "workspaceId"]).where("id", "=", "tok_0032").executeTakeFirst()).toEqual({ name: "laptop", scope: "read-write", workspaceId: null });
  });

  it("queues the votes with an address that had no ship subscription before migration 0044, and every such vote after it", async () => {
    const db = t.db.kysely;
    const { workspace } = await createWorkspace(db, clock, { name: "Ship queue", slug: "ship-0044" }, null);
    const appId = (await createApp(db, clock, workspace.id, { name: "Ship app" })).row.id;
    const [first, second] = await createFeatureRequests(db, clock, dialect, appId, [importedRequest(appId, "One", ""), importedRequest(appId, "Two", "")]);
    const [ann, bob, cat, dan] = await Promise.all(["ann", "bob", "cat", "dan"].map(async (token) => (await ensureEndUser(db, clock, appId, token)).id));
    const now = clock.now().toISOString();
    const vote = (featureRequestId: string, endUserId: string, shipNotifyEmail: string | null) =>
      db.insertInto("featureRequestVotes").values({ featureRequestId, endUserId, shipNotifyEmail, createdAt: now }).execute();
    const queued = async () =>
      (await db.selectFrom("shipNotifyQueue").select(["featureRequestId", "endUserId"]).where("featureRequestId", "in", [first!.id, second!.id]).execute())
        .map((q) => `${q.featureRequestId === first!.id ? "one" : "two"}:${q.endUserId}`)
        .sort();

    await migrateTo(t.db, "0043-spread-usage", inSchema());
    await vote(first!.id, ann!, " Ann@Example.com");
    await vote(first!.id, bob!, "Bob@example.com");
    await vote(second!.id, cat!, null);
    // Bob was already asked (the step had handled his vote); Ann was not yet.
    await db
      .insertInto("emailSubscriptions")
      .values({ id: "esub_0044", appId, kind: "ship", featureRequestId: first!.id, email: "bob@example.com", status: "pending", subscriberTokenHash: null, confirmNonce: "n", confirmSentAt: now, confirmedAt: null, unsubscribedAt: null, notifiedAt: null, createdAt: now, updatedAt: now })
      .execute();
    expect(await migrateToLatest(t.db, inSchema())).toEqual(["0044-ship-notify-queue", "0045-ship-due-queue", "0046-top-order-table", "0047-vote-plans-use-indexes", "0048-votes-by-voter-and-request", "0049-attribute-indexes-partial", "0050-vote-counts-once-per-batch", "0051-search-app-key", "0052-recent-commenters"]);
    expect(await queued()).toEqual([`one:${ann}`]);

    // From now on each vote with an address queues itself, whichever path wrote it; one without does not.
    await vote(second!.id, bob!, "bob@example.com");
    await vote(second!.id, dan!, null);
    await db.deleteFrom("featureRequestVotes").where("featureRequestId", "=", second!.id).where("endUserId", "=", bob!).execute();
    await vote(second!.id, bob!, "bob@example.com");
    expect(await queued()).toEqual([`one:${ann}`, `two:${bob}`].sort());
    await db.deleteFrom("apps").where("id", "=", appId).execute();
  });

  it("queues the requests with confirmed ship subscribers not mailed before migration 0045, and each request as it ships after it", async () => {
    const db = t.db.kysely;
    const { workspace } = await createWorkspace(db, clock, { name: "Ship due", slug: "ship-0045" }, null);
    const appId = (await createApp(db, clock, workspace.id, { name: "Due app" })).row.id;
    const [waiting, mailed, asked, later] = await createFeatureRequests(
      db,
      clock,
      dialect,
      appId,
      ["Waiting", "Mailed", "Asked", "Later"].map((title) => importedRequest(appId, title, "")),
    );
    const now = clock.now().toISOString();
    const subscribe = (id: string, featureRequestId: string, status: "pending" | "confirmed", notifiedAt: string | null) =>
      db
        .insertInto("emailSubscriptions")
        .values({ id, appId, kind: "ship", featureRequestId, email: `${id}@example.com`, status, subscriberTokenHash: null, confirmNonce: "n", confirmSentAt: now, confirmedAt: status === "confirmed" ? now : null, unsubscribedAt: null, notifiedAt, createdAt: now, updatedAt: now })
        .execute();
    const queued = async () => {
      const names = new Map([waiting, mailed, asked, later].map((r) => [r!.id, r!.title]));
      return (await db.selectFrom("shipDueQueue").select("featureRequestId").execute()).map((q) => names.get(q.featureRequestId)).filter((n) => n !== undefined).sort();
    };

    await migrateTo(t.db, "0044-ship-notify-queue", inSchema());
    await subscribe("esub_w", waiting!.id, "confirmed", null);
    await subscribe("esub_m", mailed!.id, "confirmed", now);
    await subscribe("esub_a", asked!.id, "pending", null);
    expect(await migrateToLatest(t.db, inSchema())).toEqual(["0045-ship-due-queue", "0046-top-order-table", "0047-vote-plans-use-indexes", "0048-votes-by-voter-and-request", "0049-attribute-indexes-partial", "0050-vote-counts-once-per-batch", "0051-search-app-key", "0052-recent-commenters"]);
    expect(await queued()).toEqual(["Waiting"]);

    // After it: a confirmation, a shipped event, a release published with a request linked.
    await db.updateTable("emailSubscriptions").set({ status: "confirmed" }).where("id", "=", "esub_a").execute();
    await db.insertInto("featureRequestEvents").values({ id: "ev_0045", featureRequestId: later!.id, appId, type: "moved", data: "{}", actor: null, createdAt: now }).execute();
    expect(await queued()).toEqual(["Asked", "Waiting"]);
    await db.insertInto("featureRequestEvents").values({ id: "ev_0045s", featureRequestId: later!.id, appId, type: "shipped", data: "{}", actor: null, createdAt: now }).execute();
    expect(await queued()).toEqual(["Asked", "Later", "Waiting"]);
    await db.deleteFrom("shipDueQueue").execute();
    await db.insertInto("changelogEntries").values({ id: "cle_0045", appId, title: "1.0", body: "", versionLabel: null, versionId: null, status: "draft", scheduledAt: null, publishedAt: null, notifiedAt: null, emailSegmentId: null, createdAt: now, updatedAt: now }).execute();
    await db.insertInto("changelogEntryRequests").values({ entryId: "cle_0045", featureRequestId: mailed!.id, position: 0 }).execute();
    expect(await queued()).toEqual([]);
    await db.updateTable("changelogEntries").set({ status: "published" }).where("id", "=", "cle_0045").execute();
    expect(await queued()).toEqual(["Mailed"]);
    await db.insertInto("changelogEntryRequests").values({ entryId: "cle_0045", featureRequestId: waiting!.id, position: 1 }).execute();
    expect(await queued()).toEqual(["Mailed", "Waiting"]);
    await db.deleteFrom("apps").where("id", "=", appId).execute();
    await db.deleteFrom("shipDueQueue").execute();
  });

  it("copies each request's place in the `top` order from migration 0046 on, and no index of its requests holds a vote count", async () => {
    const db = t.db.kysely;
    const { workspace } = await createWorkspace(db, clock, { name: "Top order", slug: "top-0046" }, null);
    const appId = (await createApp(db, clock, workspace.id, { name: "Top app" })).row.id;
    const other = await createBoard(db, clock, appId, { name: "Other" });
    const made = await createFeatureRequests(
      db,
      clock,
      dialect,
      appId,
      ["Popular", "Waiting", "Merged", "Elsewhere", "Quiet"].map((title) => importedRequest(appId, title, "", title !== "Waiting")),
    );
    const [popular, waiting, merged, elsewhere, quiet] = made.map((r) => r.id);
    const top = async (boardIds?: string[]) =>
      (await listFeatureRequests(db, dialect, clock, { appId, viewerEndUserId: null, limit: 10, offset: 0, cursor: undefined, versionId: undefined, q: undefined, sort: "top", boardIds })).requests.map(
        (r) => `${r.title}:${r.voteCount}`,
      );
    const copies = async () =>
      (await db.selectFrom("featureRequestTop as c").innerJoin("featureRequests as fr", "fr.id", "c.id").select(["fr.title", "c.boardId", "c.listed", "c.voteCount"]).where("c.appId", "=", appId).execute())
        .map((c) => `${c.title}:${c.boardId === other.id ? "other" : "default"}:${c.listed}:${c.voteCount}`)
        .sort();

    await migrateTo(t.db, "0045-ship-due-queue", inSchema());
    await db.updateTable("featureRequests").set({ voteCount: 7 }).where("id", "=", popular!).execute();
    await db.updateTable("featureRequests").set({ voteCount: 9 }).where("id", "=", merged!).execute();
    await db.updateTable("featureRequests").set({ mergedIntoId: popular! }).where("id", "=", merged!).execute();
    await db.updateTable("featureRequests").set({ voteCount: 2, boardId: other.id }).where("id", "=", elsewhere!).execute();
    expect(await migrateToLatest(t.db, inSchema())).toEqual(["0046-top-order-table", "0047-vote-plans-use-indexes", "0048-votes-by-voter-and-request", "0049-attribute-indexes-partial", "0050-vote-counts-once-per-batch", "0051-search-app-key", "0052-recent-commenters"]);
    expect(await copies()).toEqual(["Elsewhere:other:1:2", "Merged:default:0:9", "Popular:default:1:7", "Quiet:default:1:0", "Waiting:default:0:0"]);
    expect(await top()).toEqual(["Popular:7", "Elsewhere:2", "Quiet:0"]);

    // After it, every change to a request reaches its copy in the same statement.
    await db.updateTable("featureRequests").set({ voteCount: 8 }).where("id", "=", quiet!).execute();
    await db.updateTable("featureRequests").set({ moderation: "approved", voteCount: 1 }).where("id", "=", waiting!).execute();
    await db.updateTable("featureRequests").set({ boardId: other.id }).where("id", "=", popular!).execute();
    await db.deleteFrom("featureRequests").where("id", "=", elsewhere!).execute();
    const [late] = await createFeatureRequests(db, clock, dialect, appId, [importedRequest(appId, "Late", "")]);
    await db.updateTable("featureRequests").set({ voteCount: 3 }).where("id", "=", late!.id).execute();
    expect(await copies()).toEqual(["Late:default:1:3", "Merged:default:0:9", "Popular:other:1:7", "Quiet:default:1:8", "Waiting:default:1:1"]);
    expect(await top()).toEqual(["Quiet:8", "Popular:7", "Late:3", "Waiting:1"]);
    expect(await top([other.id])).toEqual(["Popular:7"]);

    // A vote changes no index of the requests (PostgreSQL can then write its row version in place).
    const definitions =
      dialect === "postgres"
        ? (await sql<{ definition: string }>`select indexdef as definition from pg_indexes where tablename = 'feature_requests' and schemaname = current_schema()`.execute(db)).rows
        : (await sql<{ definition: string }>`select sql as definition from sqlite_master where type = 'index' and tbl_name = 'feature_requests' and sql is not null`.execute(db)).rows;
    expect(definitions.length).toBeGreaterThan(5);
    expect(definitions.filter((d) => d.definition.includes("vote_count"))).toEqual([]);
    await db.deleteFrom("apps").where("id", "=", appId).execute();
  });

  it.runIf(dialect === "postgres")("keys the search rows of public requests from before migration 0051 by their app, and every row written after it", async () => {
    const db = t.db.kysely;
    const { workspace } = await createWorkspace(db, clock, { name: "Search keys", slug: "search-0051" }, null);
    const [first, second] = [(await createApp(db, clock, workspace.id, { name: "First" })).row.id, (await createApp(db, clock, workspace.id, { name: "Second" })).row.id];
    // Each row's keys: which app's key it holds ("none" without one), and whether it holds "dark".
    const keys = async () =>
      (
        await sql<{ title: string; own: boolean; other: boolean; dark: boolean }>`select fr.title, s.prefixes @> array['@' || fr.app_id] as own,
            cardinality(array(select k from unnest(s.prefixes) k where k like '@%' and k <> '@' || fr.app_id)) > 0 as other,
            s.prefixes @> array['dark'] as dark
          from feature_request_search s join feature_requests fr on fr.id = s.feature_request_id where fr.app_id in (${first}, ${second})`.execute(db)
      ).rows
        .map((r) => `${r.title}:${r.own ? "own" : "none"}${r.other ? "+other" : ""}${r.dark ? ":dark" : ""}`)
        .sort();
    await migrateTo(t.db, "0050-vote-counts-once-per-batch", inSchema());
    const [old] = await createFeatureRequests(db, clock, dialect, first, [importedRequest(first, "Dark mode", ""), importedRequest(first, "Waiting", "", false)]);
    await createFeatureRequests(db, clock, dialect, second, [importedRequest(second, "Dark theme", "")]);
    expect(await keys()).toEqual(["Dark mode:none:dark", "Dark theme:none:dark"]);
    expect(await migrateToLatest(t.db, inSchema())).toEqual(["0051-search-app-key", "0052-recent-commenters"]);
    expect(await keys()).toEqual(["Dark mode:own:dark", "Dark theme:own:dark"]);

    // New requests, an approval, a new title: each row is written with its app's key alone.
    const [, waiting] = await db.selectFrom("featureRequests").select("id").where("appId", "=", first).orderBy("title").execute().then((rows) => rows.map((r) => r.id));
    await createFeatureRequests(db, clock, dialect, second, [importedRequest(second, "Kiosk", "")]);
    await db.updateTable("featureRequests").set({ moderation: "approved" }).where("id", "=", waiting!).execute();
    await db.updateTable("featureRequests").set({ title: "Offline sync" }).where("id", "=", old!.id).execute();
    await reindex(db, dialect, old!.id);
    expect(await keys()).toEqual(["Dark theme:own:dark", "Kiosk:own", "Offline sync:own", "Waiting:own"]);

    // Back down, the keys go and the triggers write none.
    await migrateTo(t.db, "0050-vote-counts-once-per-batch", inSchema());
    await createFeatureRequests(db, clock, dialect, first, [importedRequest(first, "Dark sky", "")]);
    expect(await keys()).toEqual(["Dark sky:none:dark", "Dark theme:none:dark", "Kiosk:none", "Offline sync:none", "Waiting:none"]);
    await migrateToLatest(t.db, inSchema());
    await db.deleteFrom("apps").where("id", "in", [first, second]).execute();
  });

  it("writes the recent commenters of requests commented before migration 0052, and removes them going back down", async () => {
    const db = t.db.kysely;
    const { workspace } = await createWorkspace(db, clock, { name: "Commenters", slug: "commenters-0052" }, null);
    const appId = (await createApp(db, clock, workspace.id, { name: "Commenters app" })).row.id;
    await migrateTo(t.db, "0051-search-app-key", inSchema());
    const [talked, quiet, hushed] = await createFeatureRequests(db, clock, dialect, appId, [importedRequest(appId, "Talked", ""), importedRequest(appId, "Quiet", ""), importedRequest(appId, "Hushed", "")]);
    const ann = await ensureEndUser(db, clock, appId, "ann");
    const comment = (featureRequestId: string, authorName: string | null, extra: { endUserId?: string; isTeam?: number; isHidden?: number } = {}) => {
      clock.advance(1000);
      return sql`insert into feature_request_comments (id, feature_request_id, end_user_id, author_name, body, is_team, is_hidden, created_at, updated_at)
        values (${`cmt_${clock.now().getTime()}`}, ${featureRequestId}, ${extra.endUserId ?? null}, ${authorName}, 'Text', ${extra.isTeam ?? 0}, ${extra.isHidden ?? 0}, ${clock.now().toISOString()}, ${clock.now().toISOString()})`.execute(db);
    };
    await comment(talked!.id, "Ann", { endUserId: ann.id });
    await comment(talked!.id, "Sam", { isTeam: 1 });
    await comment(talked!.id, "Ann again", { endUserId: ann.id });
    await comment(talked!.id, "Guest");
    await comment(talked!.id, "Rude", { isHidden: 1 });
    await comment(hushed!.id, "Rude", { isHidden: 1 });
    const kept = async () =>
      Object.fromEntries(
        (await sql<{ title: string; recentCommenters: string | null }>`select title, recent_commenters from feature_requests where app_id = ${appId} order by title`.execute(db)).rows.map((r) => [
          r.title,
          r.recentCommenters === null ? null : (JSON.parse(r.recentCommenters) as Array<{ authorName: string }>).map((c) => c.authorName),
        ]),
      );
    expect(await migrateToLatest(t.db, inSchema())).toEqual(["0052-recent-commenters"]);
    // Newest first, each person once under their latest name, hidden comments left out.
    expect(await kept()).toEqual({ Hushed: null, Quiet: null, Talked: ["Guest", "Ann again", "Sam"] });
    const [stored] = (await sql<{ recentCommenters: string }>`select recent_commenters from feature_requests where id = ${talked!.id}`.execute(db)).rows;
    expect(JSON.parse(stored!.recentCommenters)[1]).toEqual({ authorName: "Ann again", clerkUserId: ann.publicId, avatarUrl: null });
    // From then on the triggers keep them.
    await comment(quiet!.id, "Newcomer");
    expect((await kept()).Quiet).toEqual(["Newcomer"]);

    // Back down, the column and its triggers go, and comments are written as before.
    await migrateTo(t.db, "0051-search-app-key", inSchema());
    await expect(sql`select recent_commenters from feature_requests`.execute(db)).rejects.toThrow();
    await comment(quiet!.id, "Later");
    expect(await migrateToLatest(t.db, inSchema())).toEqual(["0052-recent-commenters"]);
    expect((await kept()).Quiet).toEqual(["Later", "Newcomer"]);
    await db.deleteFrom("apps").where("id", "=", appId).execute();
  });

  it("keys votes by request and voter from migration 0010 on, and keeps every vote across it both ways", async () => {
    const db = t.db.kysely;
    const { workspace } = await createWorkspace(db, clock, { name: "Votes", slug: "votes-0010" }, null);
    const appId = (await createApp(db, clock, workspace.id, { name: "Votes app" })).row.id;
    const [first, second] = await createFeatureRequests(db, clock, dialect, appId, [importedRequest(appId, "One", ""), importedRequest(appId, "Two", "")]);
    const ann = (await ensureEndUser(db, clock, appId, "ann")).id;
    const bob = (await ensureEndUser(db, clock, appId, "bob")).id;
    const vote = (featureRequestId: string, endUserId: string, shipNotifyEmail: string | null = null) =>
      db.insertInto("featureRequestVotes").values({ featureRequestId, endUserId, shipNotifyEmail, createdAt: clock.now().toISOString() }).execute();
    await vote(first!.id, ann, "ann@example.com");
    await vote(first!.id, bob);
    await vote(second!.id, ann);
    const stored = () =>
      db.selectFrom("featureRequestVotes").select(["featureRequestId", "endUserId", "shipNotifyEmail"]).orderBy("featureRequestId").orderBy("endUserId").execute();
    const before = await stored();
    expect(before).toHaveLength(3);

    // Back to 0009: each vote gets an id again, and the pair stays unique.
    await migrateTo(t.db, "0009-recent-votes-index", inSchema());
    const old = await sql<{ id: string }>`select id from feature_request_votes`.execute(db);
    expect(new Set(old.rows.map((r) => r.id)).size).toBe(3);
    await expect(sql`insert into feature_request_votes (id, feature_request_id, end_user_id, created_at) values ('vote_x', ${second!.id}, ${ann}, '')`.execute(db)).rejects.toThrow();

    expect(await migrateToLatest(t.db, inSchema())).toEqual(["0010-votes-keyed-by-voter", "0011-listed-request-indexes", "0012-listed-search-index", "0013-idempotency-keys", "0014-search-word-prefixes", "0015-drop-full-search-index", "0016-webhooks", "0018-portal-indexing", "0019-shipped-events-index", "0020-sso-end-users", "0021-request-updates", "0022-import-sources", "0023-vote-batches", "0024-search-words-table", "0025-trust-identified-users", "0026-boards", "0027-tags", "0028-custom-fields", "0029-duplicate-dismissals", "0030-tag-and-board-listing-indexes", "0031-companies", "0032-api-token-scopes", "0033-github", "0034-feedback-evidence", "0035-linear", "0036-trackers", "0037-segments", "0038-tag-top-order", "0039-title-word-index", "0040-vote-batch-one-block", "0041-title-words-table", "0042-vote-batch-alone", "0043-spread-usage", "0044-ship-notify-queue", "0045-ship-due-queue", "0046-top-order-table", "0047-vote-plans-use-indexes", "0048-votes-by-voter-and-request", "0049-attribute-indexes-partial", "0050-vote-counts-once-per-batch", "0051-search-app-key", "0052-recent-commenters"]);
    expect(await stored()).toEqual(before);
    await expect(vote(second!.id, ann)).rejects.toThrow();
    await expect(sql`select id from feature_request_votes`.execute(db)).rejects.toThrow();
    if (dialect === "sqlite") {
      const ddl = await sql<{ sql: string }>`select sql from sqlite_master where name = 'feature_request_votes'`.execute(db);
      expect(ddl.rows[0]?.sql).toMatch(/without rowid$/i);
    }
    // Deleting a request or a voter still takes their votes along.
    await db.deleteFrom("featureRequests").where("id", "=", second!.id).execute();
    await db.deleteFrom("endUsers").where("id", "=", bob).execute();
    expect(await stored()).toEqual([{ featureRequestId: first!.id, endUserId: ann, shipNotifyEmail: "ann@example.com" }]);
  });
});

describe("migrations 0006 and 0007 on a SQLite database with requests", () => {
  it("keeps every indexed request searchable after rebuilding the index with prefixes", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-m6-"));
    const db = openDatabase(`sqlite:${path.join(dir, "old.db")}`);
    try {
      const clock = new FakeClock();
      // Today's code writes the rows, then the schema goes back to 0005 under them.
      await migrateToLatest(db);
      const { workspace } = await createWorkspace(db.kysely, clock, { name: "Old", slug: "old" }, null);
      const appId = (await createApp(db.kysely, clock, workspace.id, { name: "Old app" })).row.id;
      const inputs = ["Dark mode", "Export to CSV", "Calendar sync"].map((title) => importedRequest(appId, title, "From before the upgrade"));
      await createFeatureRequests(db.kysely, clock, "sqlite", appId, inputs);
      await migrateTo(db, "0005-console-sessions");
      expect(await migrateToLatest(db)).toEqual([
        "0006-search-prefix-index",
        "0007-search-longer-prefixes",
        "0008-top-order-index",
        "0009-recent-votes-index",
        "0010-votes-keyed-by-voter",
        "0011-listed-request-indexes",
        "0012-listed-search-index",
        "0013-idempotency-keys",
        "0014-search-word-prefixes",
        "0015-drop-full-search-index",
        "0016-webhooks",
        "0018-portal-indexing",
        "0019-shipped-events-index",
        "0020-sso-end-users",
        "0021-request-updates",
        "0022-import-sources",
        "0023-vote-batches",
        "0024-search-words-table",
        "0025-trust-identified-users",
        "0026-boards",
        "0027-tags",
        "0028-custom-fields",
        "0029-duplicate-dismissals",
        "0030-tag-and-board-listing-indexes",
        "0031-companies",
        "0032-api-token-scopes",
        "0033-github",
        "0034-feedback-evidence",
        "0035-linear",
        "0036-trackers",
        "0037-segments",
        "0038-tag-top-order",
        "0039-title-word-index",
        "0040-vote-batch-one-block",
        "0041-title-words-table",
        "0042-vote-batch-alone",
        "0043-spread-usage",
        "0044-ship-notify-queue",
        "0045-ship-due-queue",
        "0046-top-order-table",
        "0047-vote-plans-use-indexes",
        "0048-votes-by-voter-and-request",
        "0049-attribute-indexes-partial",
        "0050-vote-counts-once-per-batch",
        "0051-search-app-key",
        "0052-recent-commenters",
      ]);
      const search = (q: string) =>
        listFeatureRequests(db.kysely, "sqlite", clock, { appId, viewerEndUserId: null, limit: 10, offset: 0, cursor: undefined, versionId: undefined, q, sort: "newest" });
      expect((await search("da")).requests.map((r) => r.title)).toEqual(["Dark mode"]);
      expect((await search("upgrade")).total).toBe(3);
      expect((await search("calend sy")).requests.map((r) => r.title)).toEqual(["Calendar sync"]);
      const ddl = await sql<{ sql: string }>`select sql from sqlite_master where name = 'feature_requests_fts'`.execute(db.kysely);
      expect(ddl.rows[0]?.sql).toContain("prefix = '28 29 30 31 32 33 34 35'");
    } finally {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
