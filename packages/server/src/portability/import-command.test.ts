import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capturedIo } from "@tidings/testing/command-io";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import { tokenHash } from "../users/identity.js";
import { EXIT, importCommand } from "./import-command.js";

const fixtures = fileURLToPath(new URL("./fixtures/", import.meta.url));
const fixture = (name: string) => path.join(fixtures, name);

/** Output captured as a pipe would get it; no settings but a data folder the tests never reach. */
const captured = () => capturedIo({ DATA_DIR: "/nonexistent-test-data" });

describe.each(testDialects())("tidings import on %s", (dialect) => {
  let t: TestApp;
  let n = 0;

  beforeAll(async () => {
    t = await createTestApp(dialect, { demo: false });
  });
  afterAll(() => t.close());

  const db = () => t.database.db.kysely;
  async function run(args: string[]) {
    const c = captured();
    const code = await importCommand(args, c.io, { clock: t.clock, openDb: () => t.database.db });
    return { code, out: c.out(), err: c.err() };
  }
  async function freshApp() {
    const ws = await createWorkspaceWithApp(t.app, t.admin.authorization, `imp-${dialect}-${++n}`);
    return ws;
  }
  /** Everything an import writes for an app, in a stable order, for before/after comparisons. */
  async function snapshot(appId: string) {
    const requests = await db()
      .selectFrom("featureRequests as fr")
      .innerJoin("boardColumns as c", "c.id", "fr.columnId")
      .select(["fr.id", "fr.title", "fr.description", "fr.moderation", "fr.voteCount", "fr.importedVotes", "fr.commentCount", "fr.createdAt", "fr.requesterName", "fr.requesterEmail", "fr.requesterEndUserId", "c.slug as column"])
      .where("fr.appId", "=", appId)
      .orderBy("fr.createdAt")
      .execute();
    const ids = requests.map((r) => r.id);
    const none = ["-"];
    const votes = await db()
      .selectFrom("featureRequestVotes")
      .selectAll()
      .where("featureRequestId", "in", ids.length ? ids : none)
      .orderBy("featureRequestId")
      .orderBy("endUserId")
      .execute();
    const comments = await db()
      .selectFrom("featureRequestComments")
      .selectAll()
      .where("featureRequestId", "in", ids.length ? ids : none)
      .orderBy("createdAt")
      .orderBy("id")
      .execute();
    const users = await db().selectFrom("endUsers").select(["id", "tokenHash", "displayName"]).where("appId", "=", appId).orderBy("id").execute();
    const events = await db().selectFrom("featureRequestEvents").select(["featureRequestId", "type", "data", "createdAt"]).where("appId", "=", appId).orderBy("id").execute();
    return { requests, votes, comments, users, events };
  }
  const byTitle = <T extends { title: string }>(rows: T[], title: string): T => {
    const row = rows.find((r) => r.title === title);
    if (row === undefined) throw new Error(`no request "${title}"`);
    return row;
  };

  describe("csv", () => {
    it("imports every good row with its column, votes, author and date, and reports the bad rows by line", async () => {
      const ws = await freshApp();
      const result = await run(["--format", "csv", "--app", ws.appKey, fixture("requests.csv")]);
      expect(result.code).toBe(EXIT.partial);
      expect(result.err).toContain("Skipped requests.csv line 6: the title is empty");
      expect(result.err).toContain('Skipped requests.csv line 7: votes "lots" is not a whole number');
      expect(result.err).toContain('Note: status "Someday" is not mapped to a column');
      expect(result.out).toContain("requests  4 new, 0 already imported");

      const { requests, users, events } = await snapshot(ws.appId);
      expect(requests.map((r) => r.title).sort()).toEqual(["Calendar", "Dark mode", "Export to CSV", "Widgets"]);
      const dark = byTitle(requests, "Dark mode");
      expect(dark).toMatchObject({
        column: "planned",
        moderation: "approved",
        voteCount: 42,
        importedVotes: 42,
        createdAt: "2023-04-01T09:30:00.000Z",
        description: "Please add **dark mode**.\n\n- for night owls",
        requesterName: "Ann",
        requesterEmail: null,
      });
      // The author is an end user keyed by the hash of the address, not the address itself.
      const ann = users.find((u) => u.id === dark.requesterEndUserId);
      expect(ann).toMatchObject({ tokenHash: tokenHash("ann@example.com"), displayName: "Ann" });
      expect(byTitle(requests, "Export to CSV")).toMatchObject({ column: "in-progress", voteCount: 7, createdAt: "2023-05-02T00:00:00.000Z", requesterEndUserId: null });
      expect(byTitle(requests, "Calendar")).toMatchObject({ moderation: "declined", voteCount: 3, createdAt: "2023-05-31T22:00:00.000Z" });
      expect(byTitle(requests, "Widgets")).toMatchObject({ column: "under-review", voteCount: 0, createdAt: t.clock.now().toISOString() });
      const created = events.find((e) => e.featureRequestId === dark.id && e.type === "created");
      expect(JSON.parse(created!.data)).toMatchObject({ importedFrom: "csv", sourceId: "r1", tags: ["ui", "theme"] });
      expect(created!.createdAt).toBe("2023-04-01T09:30:00.000Z");

      // The public list shows what was imported, with its counts.
      const listed = await t.app.inject({ url: `/api/v1/feature-requests?appKey=${ws.appKey}&sort=top` });
      expect(listed.statusCode).toBe(200);
      const items = (listed.json() as { requests: Array<{ title: string; voteCount: number }> }).requests;
      expect(items.map((i) => [i.title, i.voteCount])).toEqual([
        ["Dark mode", 42],
        ["Export to CSV", 7],
        ["Widgets", 0],
      ]);
    });

    it("changes nothing when run again", async () => {
      const ws = await freshApp();
      await run(["--format", "csv", "--app", ws.appKey, fixture("requests.csv")]);
      const before = await snapshot(ws.appId);
      const again = await run(["--format", "csv", "--app", ws.appKey, fixture("requests.csv")]);
      expect(again.out).toContain("requests  0 new, 4 already imported");
      expect(await snapshot(ws.appId)).toEqual(before);
    });

    it("--strict stops at the first bad row and writes nothing", async () => {
      const ws = await freshApp();
      const result = await run(["--format", "csv", "--app", ws.appKey, "--strict", fixture("requests.csv")]);
      expect(result.code).toBe(EXIT.failed);
      expect(result.err).toContain("Stopped at requests.csv line 6: the title is empty (--strict). Nothing was written.");
      const after = await snapshot(ws.appId);
      expect(after.requests).toEqual([]);
      expect(after.users).toEqual([]);
    });

    it("--dry-run reports what would change and writes nothing", async () => {
      const ws = await freshApp();
      const result = await run(["--format", "csv", "--app", ws.appKey, "--dry-run", fixture("requests.csv")]);
      expect(result.code).toBe(EXIT.partial);
      expect(result.out).toContain("Would import into app");
      expect(result.out).toContain("requests  4 new");
      expect(result.out).toContain("Dry run: nothing was written.");
      expect((await snapshot(ws.appId)).requests).toEqual([]);
      expect(await db().selectFrom("importSources").selectAll().where("appId", "=", ws.appId).execute()).toEqual([]);
    });

    it("maps columns and statuses by option, keeps emails when asked, and answers --json", async () => {
      const ws = await freshApp();
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-csv-"));
      const file = path.join(dir, "export.csv");
      fs.writeFileSync(file, "Subject,Body,Stage,Upvotes,Email\nSearch,Find things,Someday,5,Cy@Example.com\n");
      const result = await run(["--format", "csv", "--app", ws.appKey, "--json", "--keep-emails", "--columns", "title=Subject,description=Body,status=Stage,votes=Upvotes,author_email=Email", "--status-map", "someday=Planned", file]);
      expect(result.code).toBe(EXIT.ok);
      const events = result.out.trim().split("\n").map((l) => JSON.parse(l) as { type: string });
      expect(events.map((e) => e.type)).toContain("progress");
      expect(events.at(-1)).toMatchObject({ type: "summary", dryRun: false, app: { key: ws.appKey }, counts: { requests: 1, endUsers: 1 }, skipped: 0 });
      const [row] = (await snapshot(ws.appId)).requests;
      expect(row).toMatchObject({ title: "Search", description: "Find things", column: "planned", voteCount: 5, requesterEmail: "Cy@Example.com" });
      fs.rmSync(dir, { recursive: true });
    });

    it("refuses a status map naming no column, before writing anything", async () => {
      const ws = await freshApp();
      const result = await run(["--format", "csv", "--app", ws.appKey, "--status-map", "open=nowhere", fixture("requests.csv")]);
      expect(result.code).toBe(EXIT.usage);
      expect(result.err).toContain('"nowhere" is not a column of the app');
      expect((await snapshot(ws.appId)).requests).toEqual([]);
    });

    it("skips rows the database could not hold or that repeat an id, each with its line", async () => {
      const ws = await freshApp();
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-csv-"));
      const file = path.join(dir, "hostile.csv");
      const longEmail = `${"a".repeat(250)}@example.com`;
      fs.writeFileSync(
        file,
        [
          "\uFEFFID,Title,Description,Created At,Author Email",
          "a,First,\"multi",
          "line\",2024-02-29,",
          "a,Same id again,,2024-03-01,",
          "b,Nul,has \u0000 inside,2024-03-01,",
          "c,Bad day,,2024-02-30,",
          `d,Long email,,2024-03-01,${longEmail}`,
          `e,${"x".repeat(401)},,,`,
          "f,Last,,,",
          "",
        ].join("\n"),
      );
      const result = await run(["--format", "csv", "--app", ws.appKey, file]);
      expect(result.code).toBe(EXIT.partial);
      const skipped = result.err.split("\n").filter((l) => l.startsWith("Skipped"));
      expect(skipped).toEqual([
        'Skipped hostile.csv line 4: duplicate request id "a"',
        "Skipped hostile.csv line 5: contains a NUL character (U+0000), which the database cannot store",
        'Skipped hostile.csv line 6: created_at "2024-02-30" is not a date (use ISO 8601, e.g. 2024-03-01T09:30:00Z)',
        `Skipped hostile.csv line 7: author_email "${longEmail}" is not an email address`,
        "Skipped hostile.csv line 8: the title is longer than 400 characters",
      ]);
      const { requests } = await snapshot(ws.appId);
      expect(requests.map((r) => [r.title, r.description])).toEqual([
        ["First", "multi\nline"],
        ["Last", ""],
      ]);
      fs.rmSync(dir, { recursive: true });
    });

    it("reports malformed quoting with its line and writes nothing", async () => {
      const ws = await freshApp();
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-csv-"));
      const file = path.join(dir, "broken.csv");
      fs.writeFileSync(file, 'title,description\nFine,ok\nBroken,"never closed\n');
      const result = await run(["--format", "csv", "--app", ws.appKey, file]);
      expect(result.code).toBe(EXIT.failed);
      expect(result.err).toMatch(/broken\.csv line 3/);
      expect((await snapshot(ws.appId)).requests).toEqual([]);
      fs.rmSync(dir, { recursive: true });
    });
  });

  describe("canny", () => {
    it("imports posts, voters, threaded comments and statuses from the API pages", async () => {
      const ws = await freshApp();
      const result = await run(["--format", "canny", "--app", ws.appKey, fixture("canny")]);
      expect(result.code).toBe(EXIT.partial);
      expect(result.err).toContain('Skipped votes-1.json item 3: vote on request "deleted-post", which is not in the import');

      const { requests, votes, comments, users } = await snapshot(ws.appId);
      const calendar = byTitle(requests, "Calendar sync");
      const dark = byTitle(requests, "Dark mode");
      const csv = byTitle(requests, "Export to CSV");
      expect(requests.map((r) => r.title)).toEqual(["Calendar sync", "Dark mode", "Export to CSV"]);
      // Scores stay exact: voters found become votes, the rest imported votes.
      expect(dark).toMatchObject({ column: "planned", voteCount: 3, importedVotes: 0, commentCount: 3, createdAt: "2022-01-05T10:00:00.000Z", description: "It would be **great** to have a dark theme.\n\n1. less glare\n2. saves battery" });
      expect(calendar).toMatchObject({ column: "shipped", voteCount: 5, importedVotes: 3, commentCount: 0, requesterName: "Pat (Acme)" });
      expect(csv).toMatchObject({ column: "under-review", voteCount: 1, importedVotes: 1 });
      expect(votes.filter((v) => v.featureRequestId === dark.id).map((v) => v.createdAt).sort()).toEqual([
        "2022-01-05T11:00:00.000Z",
        "2022-01-06T11:00:00.000Z",
        "2022-01-08T11:00:00.000Z",
      ]);
      // A voter without an email is still one person, keyed by Canny's id.
      expect(users.map((u) => u.tokenHash)).toContain(tokenHash("canny:u-anon"));

      const thread = comments.filter((c) => c.featureRequestId === dark.id);
      expect(thread.map((c) => [c.body, c.authorName, c.isTeam, c.createdAt])).toEqual([
        ["Yes please, my eyes hurt at night.", "Bob", 0, "2022-01-06T10:00:00.000Z"],
        ["Planned for the next release.", "Pat (Acme)", 1, "2022-01-06T15:30:00.000Z"],
        ["Thanks, that would be *perfect*.", "Ann", 0, "2022-01-07T09:00:00.000Z"],
      ]);
      const root = thread[0]!;
      expect(thread.slice(1).map((c) => [c.parentId, c.replyToAuthorName])).toEqual([
        [root.id, "Bob"],
        [root.id, "Bob"],
      ]);
      const internal = comments.find((c) => c.featureRequestId === calendar.id);
      expect(internal).toMatchObject({ isHidden: 1, body: "Internal: linked to ENG-42." });

      // What a visitor sees: the public thread, replies and all, in order.
      const publicThread = await t.app.inject({ url: `/api/v1/feature-requests/${dark.id}/comments` });
      expect(publicThread.statusCode).toBe(200);
      expect(JSON.stringify(publicThread.json())).toContain("Thanks, that would be *perfect*.");
    });

    it("changes nothing when run again", async () => {
      const ws = await freshApp();
      await run(["--format", "canny", "--app", ws.appKey, fixture("canny")]);
      const before = await snapshot(ws.appId);
      const again = await run(["--format", "canny", "--app", ws.appKey, fixture("canny")]);
      expect(again.out).toContain("requests  0 new, 3 already imported");
      expect(again.out).toContain("votes     0 new, 5 already there");
      expect(again.out).toContain("comments  0 new, 4 already imported");
      expect(await snapshot(ws.appId)).toEqual(before);
    });

    it("refuses a reply placed on another post than its parent, and an API error saved as a page", async () => {
      const ws = await freshApp();
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-canny-"));
      const post = (id: string) => ({ id, title: `Post ${id}`, details: "", status: "open", score: 0, created: "2022-01-01T00:00:00.000Z", author: null, tags: [] });
      fs.writeFileSync(path.join(dir, "posts-0.json"), JSON.stringify({ hasMore: false, posts: [post("p1"), post("p2")] }));
      const comment = (id: string, postId: string, parentID: string | null) => ({ id, post: { id: postId }, parentID, value: `text ${id}`, created: "2022-01-02T00:00:00.000Z", author: { id: "u1", name: "U", email: null, isAdmin: false }, internal: false, private: false });
      fs.writeFileSync(path.join(dir, "comments-0.json"), JSON.stringify({ hasMore: false, comments: [comment("c1", "p1", null), comment("c2", "p2", "c1")] }));
      const result = await run(["--format", "canny", "--app", ws.appKey, dir]);
      expect(result.code).toBe(EXIT.partial);
      expect(result.err).toContain('Skipped comments-0.json item 2: reply to comment "c1", which is on another request');
      expect((await snapshot(ws.appId)).comments.map((c) => c.body)).toEqual(["text c1"]);

      fs.writeFileSync(path.join(dir, "votes-0.json"), JSON.stringify({ error: "invalid api key" }));
      const refused = await run(["--format", "canny", "--app", ws.appKey, dir]);
      expect(refused.code).toBe(EXIT.failed);
      expect(refused.err).toContain('votes-0.json: expected a JSON array or an object with a "votes" array');
      fs.rmSync(dir, { recursive: true });
    });
  });

  describe("fider", () => {
    it("imports the backup's posts, voters, comments and team responses; deleted posts and comments stay out", async () => {
      const ws = await freshApp();
      const result = await run(["--format", "fider", "--app", ws.appKey, fixture("fider-backup")]);
      expect(result.code).toBe(EXIT.partial);
      expect(result.err).toContain("Skipped post_votes.json item 5: a vote by user 99, who is not in users.json");

      const { requests, comments } = await snapshot(ws.appId);
      expect(requests.map((r) => r.title)).toEqual(["Dark mode", "Export to CSV", "Calendar sync"]);
      const dark = byTitle(requests, "Dark mode");
      expect(dark).toMatchObject({ column: "planned", voteCount: 2, commentCount: 3, createdAt: "2019-03-01T08:00:00.500Z", requesterName: "Ann" });
      expect(byTitle(requests, "Export to CSV")).toMatchObject({ column: "under-review", voteCount: 1 });
      expect(byTitle(requests, "Calendar sync")).toMatchObject({ column: "shipped", voteCount: 1, commentCount: 1 });
      expect(comments.filter((c) => c.featureRequestId === dark.id).map((c) => [c.body, c.isTeam])).toEqual([
        ["This would help a lot at night.", 0],
        ["Me too!", 0],
        ["On our roadmap for Q3.", 1],
      ]);
      const before = await snapshot(ws.appId);
      const again = await run(["--format", "fider", "--app", ws.appKey, fixture("fider-backup")]);
      expect(again.out).toContain("requests  0 new, 3 already imported");
      expect(await snapshot(ws.appId)).toEqual(before);
    });

    it("imports Fider's posts CSV with its vote counts", async () => {
      const ws = await freshApp();
      const result = await run(["--format", "fider", "--app", ws.appKey, fixture("fider-posts.csv")]);
      expect(result.code).toBe(EXIT.ok);
      const { requests } = await snapshot(ws.appId);
      expect(requests.map((r) => [r.title, r.column, r.voteCount, r.requesterName])).toEqual([
        ["Dark mode", "planned", 2, "Ann"],
        ["Export to CSV", "under-review", 1, "Bob"],
        ["Calendar sync", "shipped", 1, "Ann"],
      ]);
    });
  });

  describe("the command", () => {
    it("creates the app when asked, once", async () => {
      const ws = await freshApp();
      const slug = `imp-${dialect}-${n}`;
      const args = ["--format", "csv", "--app", `app_imported_${dialect}`, "--create-app", "Imported", "--workspace", slug, fixture("fider-posts.csv")];
      const first = await run(args);
      expect(first.code).toBe(EXIT.ok);
      expect(first.out).toContain(`new app "Imported" (app_imported_${dialect})`);
      const second = await run(args);
      expect(second.out).toContain(`into app "Imported"`);
      const apps = await db().selectFrom("apps").select("id").where("workspaceId", "=", ws.wsId).execute();
      expect(apps).toHaveLength(2);
    });

    it("answers --help with exit 0 and bad usage with exit 2", async () => {
      const help = await run(["--help"]);
      expect(help.code).toBe(EXIT.ok);
      expect(help.out).toContain("Usage: tidings import --format <format>");
      expect(help.out).toContain("canny");
      expect((await run(["--format", "nope", "--app", "x", "a.csv"])).code).toBe(EXIT.usage);
      expect((await run(["--format", "csv", "a.csv"])).code).toBe(EXIT.usage);
      expect((await run(["--format", "csv", "--app", "app_nope", fixture("requests.csv")])).code).toBe(EXIT.usage);
      const missing = await run(["--format", "canny", "--app", "app_x", path.join(fixtures, "missing")]);
      expect(missing.code).toBe(EXIT.failed);
      expect(missing.err).toContain("Nothing was written.");
    });
  });
});
