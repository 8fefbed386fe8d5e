import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_APP_KEY } from "../demo/seed-demo.js";
import { consoleClient } from "@tidings/testing/console-client";
import { subscriptionRow } from "@tidings/testing/subscriptions";
import { plannerRowCount } from "@tidings/testing/statement-recorder";
import { testDialects } from "@tidings/testing/test-database";
import { createUploadTestApp, multipartBody, png, type UploadTestApp } from "@tidings/testing/uploads-kit";
import { ARCHIVE_TABLES, OMITTED_COLUMNS, TABLE_KEYS, loose } from "./archive-format.js";
import { ArchiveError, importArchive } from "./archive-import.js";
import { exportArchive } from "./export.js";
import { signAttributes } from "../users/attribute-signature.js";

const ALICE = "5f0b1c3e-7a51-4f0e-9d2a-1b2c3d4e5f60";

/** Every archived row of the database, per table in key order, without the columns an archive leaves out. */
async function snapshot(t: UploadTestApp, leaveOut: Record<string, readonly string[]> = {}) {
  const db = loose(t.app.ctx.db.kysely);
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const table of ARCHIVE_TABLES) {
    let query = db.selectFrom(table).selectAll();
    for (const key of TABLE_KEYS[table]) query = query.orderBy(key);
    out[table] = (await query.execute()).map((row) => {
      const copy = { ...row } as Record<string, unknown>;
      for (const column of leaveOut[table] ?? []) delete copy[column];
      return copy;
    });
  }
  return out;
}

/** Columns the import does not carry over: secrets, and upload sessions (short-lived). */
const NOT_CARRIED = { apps: OMITTED_COLUMNS.apps ?? [], uploads: ["sessionId"] };

async function exported(t: UploadTestApp, appKey = DEMO_APP_KEY): Promise<string> {
  return text(Readable.from(exportArchive(t.app.ctx.db.kysely, t.app.ctx.storage, { scope: { appKey } })));
}

describe.each(testDialects())("export and archive import on %s", (dialect) => {
  let source: UploadTestApp;
  let target: UploadTestApp;
  let archive: string;
  let screenshot: Buffer;

  beforeAll(async () => {
    source = await createUploadTestApp(dialect);
    const db = source.app.ctx.db.kysely;
    const app = await db.selectFrom("apps").selectAll().where("appKey", "=", DEMO_APP_KEY).executeTakeFirstOrThrow();
    // A custom field the feedback form asks for, so definitions and values travel too.
    const severity = await consoleClient(source.app, source.admin.authorization).post(`/workspaces/${app.workspaceId}/apps/${app.id}/fields`, {
      label: "Severity",
      type: "single_select",
      appliesTo: ["feedback"],
      options: [{ value: "high", label: "High" }],
    });
    expect(severity.status).toBe(201);
    // A private board holding a request with field values, and a tag on it: the organisation travels too.
    const organiser = consoleClient(source.app, source.admin.authorization);
    const lab = await organiser.post(`/workspaces/${app.workspaceId}/apps/${app.id}/boards`, { name: "Lab", visibility: "private", accessRule: { plans: ["pro"] } });
    expect(lab.status).toBe(201);
    const fields = `/workspaces/${app.workspaceId}/apps/${app.id}/fields`;
    const request = ["feature_request"];
    expect((await organiser.post(fields, { label: "Rig", type: "single_select", appliesTo: request, boardId: lab.body.id, options: [{ value: "a", label: "Rig A" }] })).status).toBe(201);
    expect((await organiser.post(fields, { label: "Teams", type: "multi_select", appliesTo: request, options: [{ value: "ops", label: "Ops" }, { value: "qa", label: "QA" }] })).status).toBe(201);
    const legacy = await organiser.post(fields, { label: "Legacy score", type: "number", appliesTo: request });
    const tag = await organiser.post(`/workspaces/${app.workspaceId}/apps/${app.id}/tags`, { name: "Beta", visibility: "team", color: "#12ABEF" });
    const someRequest = (await organiser.post(`/workspaces/${app.workspaceId}/feature-requests`, { appId: app.id, title: "Lab experiment", fields: { teams: ["qa", "ops"], "legacy-score": 4.5 } })).body as { id: string };
    // An archived field keeps its value on the request, and in the archive.
    expect((await organiser.delete(`/workspaces/${app.workspaceId}/fields/${legacy.body.id}`)).status).toBe(200);
    expect((await organiser.post(`/workspaces/${app.workspaceId}/apps/${app.id}/feature-requests/move`, { boardId: lab.body.id, featureRequestIds: [someRequest.id] })).body).toEqual({ moved: 1 });
    expect((await organiser.post(`/workspaces/${app.workspaceId}/apps/${app.id}/feature-requests/tags`, { featureRequestIds: [someRequest.id], add: [tag.body.id] })).body).toEqual({ added: 1, removed: 0 });
    // A pair marked "not a duplicate" stays dismissed on the server the archive goes to.
    const pair = (await db.selectFrom("featureRequests").select("id").where("appId", "=", app.id).orderBy("id").limit(2).execute()).map((r) => r.id);
    expect((await organiser.post(`/workspaces/${app.workspaceId}/apps/${app.id}/duplicates/dismiss`, { requestIds: pair })).status).toBe(200);
    // Feedback with an attachment, through the public API as the SDK sends it.
    screenshot = Buffer.concat([png(40), Buffer.alloc(300_000, 7)]);
    const body = multipartBody([{ name: "appKey", value: DEMO_APP_KEY }, { name: "file", filename: "s.png", contentType: "image/png", data: screenshot }]);
    const upload = await source.app.inject({ method: "POST", url: "/api/v1/uploads/images", payload: body.payload, headers: { ...body.headers, "x-user-token": ALICE } });
    expect(upload.statusCode).toBe(200);
    const feedback = await source.app.inject({
      method: "POST",
      url: "/api/v1/feedback",
      headers: { "x-user-token": ALICE },
      payload: { appKey: DEMO_APP_KEY, title: "Crash on save", description: "It **crashes**.", platform: "ios", reporterEmail: "a@example.com", uploadIds: [upload.json().uploadId], fields: { severity: "high" } },
    });
    expect(feedback.statusCode).toBe(201);
    // Alice's company, signed by the host: companies and memberships travel too.
    const timestamp = Math.floor(source.clock.now().getTime() / 1000);
    const company = { id: "acct_42", name: "Acme GmbH", mrr: 1200.5, currency: "EUR", plan: "business", attributes: { seats: 40, region: "eu" } };
    const signature = signAttributes(app.signingSecret, { appKey: DEMO_APP_KEY, userToken: ALICE, company, timestamp });
    const reported = await source.app.inject({ method: "PUT", url: `/api/v1/public/apps/${DEMO_APP_KEY}/user`, headers: { "x-user-token": ALICE }, payload: { company, timestamp, signature } });
    expect(reported.statusCode).toBe(200);
    // A segment, which the release mails to: segments travel, and the release's reference to one.
    const segment = await organiser.post(`/workspaces/${app.workspaceId}/apps/${app.id}/segments`, { name: "EU accounts", rule: { company: { attributes: [{ key: "region", in: ["eu"] }] } } });
    expect(segment.status).toBe(201);
    // A published release linking two requests, and subscribers in each consent state.
    const requests = await db.selectFrom("featureRequests").select("id").where("appId", "=", app.id).orderBy("id").limit(2).execute();
    const release = await consoleClient(source.app, source.admin.authorization).post(`/workspaces/${app.workspaceId}/changelog`, {
      appId: app.id,
      title: "1.0 is out",
      body: "- dark mode\n- **faster** sync",
      linkedRequestIds: requests.map((r) => r.id),
      publishNow: true,
      emailSegmentId: segment.body.id,
    });
    expect(release.status).toBe(201);
    // A reply whose parent was deleted keeps naming it: the archive carries that as it is.
    const team = consoleClient(source.app, source.admin.authorization);
    const parent = await team.post(`/workspaces/${app.workspaceId}/feature-requests/${requests[0]!.id}/comments`, { body: "Which platforms?" });
    expect(parent.status).toBe(201);
    const reply = await team.post(`/workspaces/${app.workspaceId}/feature-requests/${requests[0]!.id}/comments`, { body: "All of them.", parentId: parent.body.id });
    expect(reply.status).toBe(201);
    expect((await team.delete(`/workspaces/${app.workspaceId}/comments/${parent.body.id}`)).status).toBe(200);
    const at = source.clock.now().toISOString();
    await db
      .insertInto("emailSubscriptions")
      .values([subscriptionRow(1, app.id, "c@example.com", "confirmed", at), subscriptionRow(2, app.id, "u@example.com", "unsubscribed", at), subscriptionRow(3, app.id, "p@example.com", "pending", at)])
      .execute();
    archive = await exported(source);
    target = await createUploadTestApp(dialect, { demo: false });
  });
  afterAll(async () => {
    await source?.close();
    await target?.close();
  });

  it("writes a header, rows of every table, the attachment's bytes and an end line with counts", () => {
    const lines = archive.trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ type: "tidings-archive", version: 1, scope: { kind: "app", appKey: DEMO_APP_KEY } });
    const end = lines.at(-1) as { type: string; counts: Record<string, number> };
    expect(end.type).toBe("end");
    expect(end.counts).toMatchObject({ workspaces: 1, apps: 1, featureRequests: 13, boards: 2, tags: 1, customFields: 4, featureRequestTags: 1, featureRequestVotes: 191, emailSubscriptions: 3, submissions: 1, uploads: 1, changelogEntries: 1, changelogEntryRequests: 2, companies: 1, segments: 1, duplicateDismissals: 1 });
    for (const table of ARCHIVE_TABLES) expect(end.counts[table], table).toBeGreaterThan(0);
    const files = lines.filter((l) => l.type === "file");
    expect(files.length).toBeGreaterThan(1);
    expect(Buffer.concat(files.map((f) => Buffer.from(String(f.data), "base64")))).toEqual(screenshot);
    // The request moved to the private board carries the move in its history.
    // (Event data is a JSON text column, carried as the database holds it.)
    const events = lines.filter((l) => l.type === "row" && l.table === "featureRequestEvents").map((l) => (l as { row: { type: string; data: string } }).row);
    expect(events.filter((e) => e.type === "board_changed").map((e) => Object.keys(JSON.parse(e.data) as object).sort())).toEqual([["fromBoardId", "toBoardId"]]);
    const app = lines.find((l) => l.type === "row" && l.table === "apps") as { row: Record<string, unknown> };
    expect(Object.keys(app.row)).not.toContain("signingSecret");
  });

  it("imports into an empty server with every row equal, field by field, and the attachment readable", async () => {
    const summary = await importArchive(target.app.ctx.db, target.app.ctx.storage, Readable.from([archive]));
    expect(summary).toMatchObject({ scope: { kind: "app", appKey: DEMO_APP_KEY }, files: 1, existing: {} });
    expect(summary.inserted.featureRequestVotes).toBe(191);
    // PostgreSQL's planner knows the imported rows at once, not after autovacuum's next pass.
    if (dialect === "postgres") expect(await plannerRowCount(target.app.ctx.db.kysely, "feature_request_votes")).toEqual({ estimated: 191, stored: 191 });
    expect(await snapshot(target, NOT_CARRIED)).toEqual(await snapshot(source, NOT_CARRIED));

    const upload = await target.app.ctx.db.kysely.selectFrom("uploads").selectAll().executeTakeFirstOrThrow();
    const stored = await target.app.ctx.storage.get(upload.storageKey);
    expect(Buffer.from(await new Response(Readable.toWeb(stored!) as ReadableStream).arrayBuffer())).toEqual(screenshot);
    // Search works on the imported requests (SQLite's FTS rows are rebuilt).
    const found = await target.app.inject({ method: "GET", url: `/api/v1/feature-requests?appKey=${DEMO_APP_KEY}&q=dark` });
    expect(found.statusCode).toBe(200);
    expect(JSON.stringify(found.json())).toContain("Dark mode");
    // The exported archive of the imported app is the same archive, but for its time stamp.
    const again = await exported(target);
    const withoutStamp = (s: string) => s.replace(/"exportedAt":"[^"]+"/, "");
    expect(withoutStamp(again)).toBe(withoutStamp(archive));
  });

  it("puts the requests of an archive written before boards on a default board it creates", async () => {
    const older = await createUploadTestApp(dialect, { demo: false });
    try {
      const boardless = archive
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as { type: string; table?: string; row?: Record<string, unknown>; counts?: Record<string, number> })
        .filter((l) => !["boards", "tags", "featureRequestTags"].includes(l.table ?? "") && !(l.table === "customFields"))
        .map((l) => {
          if (l.table === "featureRequests") delete l.row!.boardId;
          if (l.type === "end") for (const table of ["boards", "tags", "featureRequestTags", "customFields"]) delete l.counts![table];
          return JSON.stringify(l);
        })
        .join("\n");
      await importArchive(older.app.ctx.db, older.app.ctx.storage, Readable.from([`${boardless}\n`]));
      const db = older.app.ctx.db.kysely;
      const app = await db.selectFrom("apps").select("id").where("appKey", "=", DEMO_APP_KEY).executeTakeFirstOrThrow();
      const boards = await db.selectFrom("boards").selectAll().where("appId", "=", app.id).execute();
      expect(boards.map((b) => [b.slug, b.isDefault, b.visibility])).toEqual([["feature-requests", 1, "public"]]);
      const placed = await db.selectFrom("featureRequests").select("boardId").distinct().where("appId", "=", app.id).execute();
      expect(placed).toEqual([{ boardId: boards[0]!.id }]);
      const listed = await older.app.inject({ url: `/api/v1/feature-requests?appKey=${DEMO_APP_KEY}` });
      expect(listed.json().total).toBeGreaterThan(0);
    } finally {
      await older.close();
    }
  });

  it("changes nothing when the same archive is imported again", async () => {
    const before = await snapshot(target);
    const summary = await importArchive(target.app.ctx.db, target.app.ctx.storage, Readable.from([archive]));
    expect(summary.inserted).toEqual({});
    expect(summary.files).toBe(0);
    expect(summary.existing.featureRequestVotes).toBe(191);
    expect(await snapshot(target)).toEqual(before);
  });

  it("reports a malformed line with its number and writes nothing after it", async () => {
    const fresh = await createUploadTestApp(dialect, { demo: false });
    try {
      const lines = archive.split("\n");
      lines[1] = "{not json";
      const error = await importArchive(fresh.app.ctx.db, fresh.app.ctx.storage, Readable.from([lines.join("\n")])).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ArchiveError);
      expect((error as ArchiveError).line).toBe(2);
      expect((error as Error).message).toBe("line 2: not valid JSON");
      expect(await fresh.app.ctx.db.kysely.selectFrom("workspaces").select("id").execute()).toEqual([]);

      const renamed = archive.replace(/"storageKey":"[^"]+"/, '"storageKey":"../../etc/passwd"');
      const traversal = await importArchive(fresh.app.ctx.db, fresh.app.ctx.storage, Readable.from([renamed])).catch((e: unknown) => e);
      expect((traversal as Error).message).toMatch(/storageKey is not a storage key/);

      const extra = archive.replace('"table":"apps","row":{', '"table":"apps","row":{"signingSecret":"chosen",');
      expect(((await importArchive(fresh.app.ctx.db, fresh.app.ctx.storage, Readable.from([extra])).catch((e: unknown) => e)) as Error).message).toMatch(
        /unknown column "signingSecret" in apps/,
      );
      // Rows may point only at rows of the archive: not at another app or user on this server.
      const lines2 = archive.split("\n");
      const at = lines2.findIndex((l) => l.includes('"table":"boardColumns"'));
      lines2[at] = lines2[at]!.replace(/"appId":"[^"]+"/, '"appId":"app_someoneelse"');
      const foreign = (await importArchive(fresh.app.ctx.db, fresh.app.ctx.storage, Readable.from([lines2.join("\n")])).catch((e: unknown) => e)) as ArchiveError;
      expect(foreign.message).toBe(`line ${at + 1}: boardColumns.appId points at app_someoneelse, which is not in the archive`);
      const lines3 = archive.split("\n");
      const vote = lines3.findIndex((l) => l.includes('"table":"featureRequestVotes"'));
      lines3[vote] = lines3[vote]!.replace(/"endUserId":"[^"]+"/, '"endUserId":"eu_x"');
      expect(((await importArchive(fresh.app.ctx.db, fresh.app.ctx.storage, Readable.from([lines3.join("\n")])).catch((e: unknown) => e)) as Error).message).toMatch(
        /featureRequestVotes.endUserId points at eu_x/,
      );
      // Values a database would take (SQLite takes anything) but the server cannot read back.
      const editFirst = (table: string, edit: (row: Record<string, unknown>) => void) =>
        archive
          .split("\n")
          .map((l) => {
            if (!l.includes(`"table":"${table}"`)) return l;
            const parsed = JSON.parse(l) as { row: Record<string, unknown> };
            edit(parsed.row);
            table = "done";
            return JSON.stringify(parsed);
          })
          .join("\n");
      const problems: [string, (row: Record<string, unknown>) => void, string][] = [
        ["featureRequests", (r) => (r.voteCount = "many"), "featureRequests.voteCount must be a whole number"],
        ["featureRequests", (r) => (r.createdAt = "yesterday"), "featureRequests.createdAt must be an ISO-8601 UTC time"],
        ["featureRequestComments", (r) => (r.isHidden = 2), "featureRequestComments.isHidden must be 0 or 1"],
        ["submissions", (r) => (r.metadata = "{oops"), "submissions.metadata must hold JSON"],
        ["apps", (r) => (r.allowedPlatforms = "{}"), "apps.allowedPlatforms must hold a JSON array"],
        ["endUsers", (r) => (r.publicId = { nested: true }), "endUsers.publicId must be a string, a number or null"],
      ];
      for (const [table, edit, message] of problems) {
        const error = (await importArchive(fresh.app.ctx.db, fresh.app.ctx.storage, Readable.from([editFirst(table, edit)])).catch((e: unknown) => e)) as Error;
        expect(error.message, message).toContain(message);
      }
      const cut = archive.slice(0, archive.lastIndexOf('{"type":"end"'));
      expect(((await importArchive(fresh.app.ctx.db, fresh.app.ctx.storage, Readable.from([cut])).catch((e: unknown) => e)) as Error).message).toMatch(/cut short/);
    } finally {
      await fresh.close();
    }
  });

  it("refuses an archive whose workspace or app belongs to another one here, writing nothing", async () => {
    // A server seeded with its own demo app: same slug and key, other ids.
    const fresh = await createUploadTestApp(dialect);
    try {
      const before = await snapshot(fresh);
      const error = await importArchive(fresh.app.ctx.db, fresh.app.ctx.storage, Readable.from([archive])).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ArchiveError);
      expect((error as ArchiveError).conflict).toBe(true);
      expect(await snapshot(fresh)).toEqual(before);
    } finally {
      await fresh.close();
    }
  });

  it("carries an attachment whose file is gone from storage as a row without bytes", async () => {
    const upload = await source.app.ctx.db.kysely.selectFrom("uploads").selectAll().executeTakeFirstOrThrow();
    await source.app.ctx.storage.delete(upload.storageKey);
    const lost = await exported(source);
    expect(lost).not.toContain('"type":"file"');
    const fresh = await createUploadTestApp(dialect, { demo: false });
    try {
      const summary = await importArchive(fresh.app.ctx.db, fresh.app.ctx.storage, Readable.from([lost]));
      expect(summary.files).toBe(0);
      expect(summary.inserted.uploads).toBe(1);
      expect(await fresh.app.ctx.storage.get(upload.storageKey)).toBeUndefined();
    } finally {
      await fresh.close();
    }
  });
});
