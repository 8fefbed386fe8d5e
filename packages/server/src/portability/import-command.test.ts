import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { capturedIo } from "@tidings/testing/command-io";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { plannerRowCount } from "@tidings/testing/statement-recorder";
import { databaseUrl, testDialects } from "@tidings/testing/test-database";
import { tokenHash } from "../users/identity.js";
import { exportCommand } from "./export-command.js";
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
      .innerJoin("boards as b", "b.id", "fr.boardId")
      .select([
        "fr.id",
        "fr.title",
        "fr.description",
        "fr.moderation",
        "fr.voteCount",
        "fr.importedVotes",
        "fr.commentCount",
        "fr.createdAt",
        "fr.requesterName",
        "fr.requesterEmail",
        "fr.requesterEndUserId",
        "fr.customFields",
        "c.slug as column",
        "b.slug as board",
      ])
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
    const boards = await db().selectFrom("boards").select(["id", "name", "slug", "visibility", "isDefault"]).where("appId", "=", appId).orderBy("position").execute();
    const tags = await db().selectFrom("tags").select(["id", "name", "slug", "color", "visibility"]).where("appId", "=", appId).orderBy("name").execute();
    const tagged = await db()
      .selectFrom("featureRequestTags as frt")
      .innerJoin("tags", "tags.id", "frt.tagId")
      .select(["frt.featureRequestId", "tags.name"])
      .where("tags.appId", "=", appId)
      .orderBy("frt.featureRequestId")
      .orderBy("tags.name")
      .execute();
    return { requests, votes, comments, users, events, boards, tags, tagged };
  }
  /** The names of the tags on each request, by title. */
  const tagsByTitle = (s: Awaited<ReturnType<typeof snapshot>>) =>
    Object.fromEntries(s.requests.map((r) => [r.title, s.tagged.filter((t) => t.featureRequestId === r.id).map((t) => t.name)]));
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
      // PostgreSQL's planner knows the imported rows at once, not after autovacuum's next pass.
      if (dialect === "postgres") expect(await plannerRowCount(db(), "feature_requests")).toEqual({ estimated: 4, stored: 4 });

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
      onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
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

    it("keeps Canny's boards (public as boards/list says), its categories as public tags and its tags as team-only ones", async () => {
      const ws = await freshApp();
      const result = await run(["--format", "canny", "--app", ws.appKey, fixture("canny")]);
      expect(result.code).toBe(EXIT.partial);
      expect(result.out).toContain("boards    1 new");
      expect(result.out).toContain("tags      4 new");
      expect(result.err).toContain('Note: board "Integrations" created (public, as it is there)');

      const s = await snapshot(ws.appId);
      // "Feature Requests" is the app's default board by name; "Integrations" is new.
      expect(s.boards.map((b) => [b.name, b.slug, b.visibility, b.isDefault])).toEqual([
        ["Feature requests", "feature-requests", "public", 1],
        ["Integrations", "integrations", "public", 0],
      ]);
      expect(s.requests.map((r) => [r.title, r.board])).toEqual([
        ["Calendar sync", "integrations"],
        ["Dark mode", "feature-requests"],
        ["Export to CSV", "feature-requests"],
      ]);
      // "UI" and "ui" are one tag; Canny's tags are its admins' alone, so they stay the team's.
      expect(s.tags.map((t) => [t.name, t.visibility, t.color])).toEqual([
        ["Appearance", "public", null],
        ["Enterprise", "team", null],
        ["Sync", "public", null],
        ["UI", "team", null],
      ]);
      expect(tagsByTitle(s)).toEqual({ "Calendar sync": ["Enterprise", "Sync", "UI"], "Dark mode": ["Appearance", "UI"], "Export to CSV": [] });
      // What Canny said is still in the created event, as it said it.
      const dark = byTitle(s.requests, "Dark mode");
      const created = s.events.find((e) => e.featureRequestId === dark.id && e.type === "created")!;
      expect(JSON.parse(created.data)).toMatchObject({ importedFrom: "canny", board: "Feature Requests", category: "Appearance", tags: ["UI"] });

      // A visitor sees the category on the request and the new board's request, never a team tag.
      const listed = await t.app.inject({ url: `/api/v1/feature-requests?appKey=${ws.appKey}` });
      const items = (listed.json() as { requests: Array<{ title: string; tags: Array<{ name: string }> }> }).requests;
      expect(Object.fromEntries(items.map((i) => [i.title, i.tags.map((tag) => tag.name)]))).toEqual({ "Calendar sync": ["Sync"], "Dark mode": ["Appearance"], "Export to CSV": [] });
      const board = await t.app.inject({ url: `/api/v1/feature-requests?appKey=${ws.appKey}&board=integrations` });
      expect((board.json() as { requests: Array<{ title: string }> }).requests.map((i) => i.title)).toEqual(["Calendar sync"]);

      // Run again: nothing changes, boards and tags included.
      const again = await run(["--format", "canny", "--app", ws.appKey, fixture("canny")]);
      expect(again.out).toContain("boards    0 new");
      expect(await snapshot(ws.appId)).toEqual(s);
    });

    it("never creates a board whose access it cannot tell or pours a private one into a public board: names them all, writes nothing, and --board-map places them", async () => {
      const ws = await freshApp();
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-canny-"));
      for (const file of fs.readdirSync(fixture("canny"))) fs.copyFileSync(path.join(fixture("canny"), file), path.join(dir, file));
      const post = (id: string, board: object, title: string) => ({ id, author: null, board, category: null, created: "2022-06-01T00:00:00.000Z", details: "", score: 1, status: "open", tags: [], title });
      fs.writeFileSync(
        path.join(dir, "posts-2.json"),
        JSON.stringify({
          hasMore: false,
          posts: [
            post("p-staff", { id: "b3", name: "Internal", url: "https://acme.canny.io/admin/board/internal" }, "Staff note"),
            post("p-beta", { id: "b9", name: "Beta", url: "https://acme.canny.io/admin/board/beta" }, "Beta idea"),
          ],
        }),
      );
      fs.writeFileSync(path.join(dir, "votes-2.json"), JSON.stringify({ hasMore: false, votes: [{ post: { id: "p-staff" }, voter: { id: "u-ann", email: "ann@example.com", name: "Ann" }, created: "2022-06-02T00:00:00.000Z" }] }));
      const untouched = await snapshot(ws.appId);

      const refused = await run(["--format", "canny", "--app", ws.appKey, dir]);
      expect(refused.code).toBe(EXIT.usage);
      expect(refused.err).toContain('board "Internal" is private there and the app has no board by that name: create it in the console with the access it should have, or place it with --board-map "Internal=<board>"');
      expect(refused.err).toContain('board "Beta" is not a board of the app, and the input does not say whether it is public');
      expect(refused.err).toContain("Nothing was written.");
      // The vote on the unplaced post is not reported as a row of its own.
      expect(refused.err).not.toContain("p-staff");
      expect(await snapshot(ws.appId)).toEqual(untouched);

      // A public board of the same name is no place for a private one.
      const open = await ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/boards`, { name: "Internal" });
      expect(open.status).toBe(201);
      const still = await run(["--format", "canny", "--app", ws.appKey, "--board-map", "Beta=feature-requests", dir]);
      expect(still.code).toBe(EXIT.usage);
      expect(still.err).toContain(`board "Internal" is private there, but the app's board "internal" is public`);

      // The team makes a private board for it and says where both go.
      const staff = await ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/boards`, { name: "Staff only", visibility: "private", accessRule: { plans: ["staff"] } });
      expect(staff.status).toBe(201);
      const placed = await run(["--format", "canny", "--app", ws.appKey, "--board-map", "internal=Staff only,Beta=feature-requests", dir]);
      expect(placed.code, placed.err).toBe(EXIT.partial);
      const s = await snapshot(ws.appId);
      expect(byTitle(s.requests, "Staff note")).toMatchObject({ board: "staff-only", voteCount: 1 });
      expect(byTitle(s.requests, "Beta idea")).toMatchObject({ board: "feature-requests" });
      // Nobody outside the board's rule sees its request.
      const listed = await t.app.inject({ url: `/api/v1/feature-requests?appKey=${ws.appKey}&limit=50` });
      expect((listed.json() as { requests: Array<{ title: string }> }).requests.map((i) => i.title)).not.toContain("Staff note");

      const unknown = await run(["--format", "canny", "--app", ws.appKey, "--board-map", "Internal=nowhere", dir]);
      expect(unknown.code).toBe(EXIT.usage);
      expect(unknown.err).toContain('--board-map: "nowhere" is not a board of the app (its boards: feature-requests, internal, staff-only, integrations). Nothing was written.');
      fs.rmSync(dir, { recursive: true });
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
      // Fider's tags keep their colour and whether the public sees them.
      const before = await snapshot(ws.appId);
      expect(before.tags.map((t) => [t.name, t.slug, t.color, t.visibility])).toEqual([
        ["Needs triage", "needs-triage", "#1D76DB", "team"],
        ["UI", "ui", "#FF0000", "public"],
      ]);
      expect(tagsByTitle(before)).toEqual({ "Dark mode": ["Needs triage", "UI"], "Export to CSV": [], "Calendar sync": ["UI"] });
      expect(new Set(before.requests.map((r) => r.board))).toEqual(new Set(["feature-requests"]));
      const again = await run(["--format", "fider", "--app", ws.appKey, fixture("fider-backup")]);
      expect(again.out).toContain("requests  0 new, 3 already imported");
      expect(await snapshot(ws.appId)).toEqual(before);
    });

    it("puts a Fider site's posts on the board --board names, and refuses a board the app has not", async () => {
      const ws = await freshApp();
      expect((await ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/boards`, { name: "Ideas" })).status).toBe(201);
      const missing = await run(["--format", "fider", "--app", ws.appKey, "--board", "roadmap", fixture("fider-backup")]);
      expect(missing.code).toBe(EXIT.usage);
      expect(missing.err).toContain('--board: "roadmap" is not a board of the app (its boards: feature-requests, ideas). Nothing was written.');
      expect((await snapshot(ws.appId)).requests).toEqual([]);
      const result = await run(["--format", "fider", "--app", ws.appKey, "--board", "Ideas", fixture("fider-posts.csv")]);
      expect(result.code).toBe(EXIT.ok);
      const s = await snapshot(ws.appId);
      expect(s.requests.map((r) => [r.title, r.board])).toEqual([
        ["Dark mode", "ideas"],
        ["Export to CSV", "ideas"],
        ["Calendar sync", "ideas"],
      ]);
      expect(tagsByTitle(s)).toEqual({ "Dark mode": ["UI"], "Export to CSV": [], "Calendar sync": [] });
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

  describe("boards, tags and custom fields from a CSV", () => {
    /** An app with a Bugs board and request fields of every kind, one of them asked on Bugs only. */
    async function organisedApp() {
      const ws = await freshApp();
      const bugs = await ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/boards`, { name: "Bugs" });
      expect(bugs.status).toBe(201);
      const fields = `/workspaces/${ws.wsId}/apps/${ws.appId}/fields`;
      const request = ["feature_request"];
      for (const body of [
        { key: "plan", label: "Plan", type: "single_select", appliesTo: request, options: [{ value: "pro", label: "Pro" }, { value: "free", label: "Free" }] },
        { key: "platforms", label: "Platforms", type: "multi_select", appliesTo: request, options: [{ value: "ios", label: "iOS" }, { value: "web", label: "Web" }, { value: "android", label: "Android" }] },
        { key: "urgent", label: "Urgent", type: "checkbox", appliesTo: request },
        { key: "seats", label: "Seats", type: "number", appliesTo: request, limits: { integer: true, min: 1 } },
        { key: "severity", label: "Severity", type: "single_select", appliesTo: request, boardId: bugs.body.id, options: [{ value: "low", label: "Low" }, { value: "high", label: "High" }] },
        { key: "contact", label: "Contact", type: "text", appliesTo: ["feedback"] },
      ]) {
        const created = await ws.console.post(fields, body);
        expect(created.status, JSON.stringify(created.body)).toBe(201);
      }
      return ws;
    }
    /** The custom field values the console shows on a request, by key. */
    async function fieldsOf(ws: Awaited<ReturnType<typeof organisedApp>>, id: string) {
      const record = await ws.console.get(`/workspaces/${ws.wsId}/feature-requests/${id}`);
      expect(record.status).toBe(200);
      return Object.fromEntries((record.body.fields as Array<{ key: string; value: unknown }>).map((f) => [f.key, f.value]));
    }
    function csvFile(name: string, text: string): string {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-csv-"));
      // Called inside a test: the folder goes when that test does.
      onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
      const file = path.join(dir, name);
      fs.writeFileSync(file, text);
      return file;
    }

    it("puts rows on the boards they name, tags them, and checks field.<key> columns against the app's fields, row by row", async () => {
      const ws = await organisedApp();
      const result = await run(["--format", "csv", "--app", ws.appKey, fixture("organised.csv")]);
      expect(result.code).toBe(EXIT.partial);
      expect(result.err.split("\n").filter((l) => l.startsWith("Skipped"))).toEqual([
        "Skipped organised.csv line 4: field.plan: Not an option: gold",
        'Skipped organised.csv line 5: field.severity: asked only on the board "Bugs", not on the request\'s',
        'Skipped organised.csv line 6: field.seats: "many" is not a number',
        "Skipped organised.csv line 7: field.seats: Must be at least 1",
      ]);
      expect(result.out).toContain("tags      3 new");

      const s = await snapshot(ws.appId);
      expect(s.requests.map((r) => [r.title, r.board]).sort()).toEqual([
        ["Crash on save", "bugs"],
        ["Dark mode", "feature-requests"],
        ["Tablet layout", "feature-requests"],
      ]);
      // A CSV does not say who sees a tag: new ones are public, as the console makes them.
      expect(s.tags.map((t) => [t.name, t.visibility])).toEqual([
        ["crash", "public"],
        ["theme", "public"],
        ["ui", "public"],
      ]);
      expect(tagsByTitle(s)).toEqual({ "Dark mode": ["theme", "ui"], "Crash on save": ["crash", "ui"], "Tablet layout": ["ui"] });
      // Options are found by value or label; what is stored is the option's value.
      expect(await fieldsOf(ws, byTitle(s.requests, "Dark mode").id)).toEqual({ plan: "pro", platforms: ["ios", "web"], urgent: true, seats: 12 });
      expect(await fieldsOf(ws, byTitle(s.requests, "Crash on save").id)).toEqual({ plan: "free", urgent: false, severity: "high" });
      expect(await fieldsOf(ws, byTitle(s.requests, "Tablet layout").id)).toEqual({});
      // The public filters the imported organisation like any other.
      const bugs = await t.app.inject({ url: `/api/v1/feature-requests?appKey=${ws.appKey}&board=bugs&tag=ui` });
      expect((bugs.json() as { requests: Array<{ title: string }> }).requests.map((i) => i.title)).toEqual(["Crash on save"]);

      const again = await run(["--format", "csv", "--app", ws.appKey, fixture("organised.csv")]);
      expect(again.out).toContain("requests  0 new, 3 already imported");
      expect(await snapshot(ws.appId)).toEqual(s);
    });

    it("reads a field from another header with --columns field.<key>=Header; a feedback field's column takes no request value", async () => {
      const ws = await organisedApp();
      const file = csvFile("plans.csv", "Subject,Customer plan,Devices,field.contact\nSearch,Pro,Android;iOS,\nSpam,Free,,me@example.com\n");
      const result = await run(["--format", "csv", "--app", ws.appKey, "--columns", "title=Subject,field.plan=Customer plan,field.platforms=Devices", file]);
      expect(result.code, result.err).toBe(EXIT.partial);
      expect(result.err).toContain("Skipped plans.csv line 3: field.contact: asked on feedback only, not on feature requests");
      const [row, ...rest] = (await snapshot(ws.appId)).requests;
      expect(rest).toEqual([]);
      expect(await fieldsOf(ws, row!.id)).toEqual({ plan: "pro", platforms: ["android", "ios"] });
    });

    it("refuses a column naming no field of the app, or a board or tag it cannot place, and writes nothing", async () => {
      const ws = await organisedApp();
      const before = await snapshot(ws.appId);
      const cases: Array<[string, string[], string]> = [
        ["title,field.budget\nA,10\n", [], 'Cannot import: column "field.budget": the app has no active custom field "budget" (its request fields: plan, platforms, urgent, seats, severity); create it in the console first. Nothing was written.'],
        ["title,Field.Not A Key\nA,1\n", [], 'does not name a custom field key'],
        ["title\nA\n", ["--columns", "field.plan=Plan"], '--columns: mapped.csv has no column "Plan" for field.plan'],
        ["title,board\nA,Roadmap ideas\nB,Roadmap ideas\nC,Later\n", [], 'Cannot import:\n  board "Roadmap ideas" is not a board of the app, and the input does not say whether it is public: create it in the console, or place it with --board-map "Roadmap ideas=<board>"'],
        ["title,tags\nA," + "x".repeat(41) + "\n", [], `tag "${"x".repeat(41)}" (mapped.csv line 2) is longer than 40 characters`],
      ];
      for (const [text, extra, message] of cases) {
        const result = await run(["--format", "csv", "--app", ws.appKey, ...extra, csvFile("mapped.csv", text)]);
        expect({ text, code: result.code }).toEqual({ text, code: EXIT.usage });
        expect(result.err).toContain(message);
        expect(result.err).toContain("Nothing was written.");
        expect(await snapshot(ws.appId)).toEqual(before);
      }
      // Every board that cannot be placed is named, each once.
      const boards = await run(["--format", "csv", "--app", ws.appKey, csvFile("mapped.csv", "title,board\nA,Roadmap ideas\nB,Roadmap ideas\nC,Later\n")]);
      expect(boards.err.match(/board "/g)).toHaveLength(2);
      // Placed by the team, the same file imports; a tag map renames, merges or leaves tags off.
      const placed = await run([
        "--format",
        "csv",
        "--app",
        ws.appKey,
        "--board-map",
        "Roadmap ideas=bugs,later=Feature requests",
        "--tag-map",
        "UX=Design,wip=",
        csvFile("mapped.csv", "title,board,tags\nA,Roadmap ideas,UX;wip\nC,Later,design\n"),
      ]);
      expect(placed.code, placed.err).toBe(EXIT.ok);
      const s = await snapshot(ws.appId);
      expect(s.requests.map((r) => [r.title, r.board]).sort()).toEqual([
        ["A", "bugs"],
        ["C", "feature-requests"],
      ]);
      expect(tagsByTitle(s)).toEqual({ A: ["Design"], C: ["Design"] });
    });

    it("round-trips tidings export --format csv: boards, tags and field values come back as they were", async () => {
      const source = await organisedApp();
      const company = await source.console.post(`/workspaces/${source.wsId}/apps/${source.appId}/fields`, { key: "company", label: "Company", type: "text", appliesTo: ["feature_request"] });
      expect(company.status).toBe(201);
      const made = async (title: string, fields: Record<string, unknown>) => {
        const created = await source.console.post(`/workspaces/${source.wsId}/feature-requests`, { appId: source.appId, title, description: `About ${title}`, fields });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        return created.body.id as string;
      };
      const dark = await made("Dark mode", { plan: "pro", platforms: ["web", "ios"], urgent: true, seats: 3, company: "=Acme, Inc." });
      const crash = await made("Crash on save", { plan: "free" });
      await made("Plain", {});
      const boards = (await source.console.get(`/workspaces/${source.wsId}/apps/${source.appId}/boards`)).body.boards as Array<{ id: string; slug: string }>;
      const bugs = boards.find((b) => b.slug === "bugs")!.id;
      expect((await source.console.post(`/workspaces/${source.wsId}/apps/${source.appId}/feature-requests/move`, { boardId: bugs, featureRequestIds: [crash] })).status).toBe(200);
      const tag = async (name: string, visibility: string) => (await source.console.post(`/workspaces/${source.wsId}/apps/${source.appId}/tags`, { name, visibility })).body.id as string;
      const ui = await tag("UI polish", "public");
      const vip = await tag("VIP", "team");
      expect((await source.console.post(`/workspaces/${source.wsId}/apps/${source.appId}/feature-requests/tags`, { featureRequestIds: [dark, crash], add: [ui] })).status).toBe(200);
      expect((await source.console.post(`/workspaces/${source.wsId}/apps/${source.appId}/feature-requests/tags`, { featureRequestIds: [dark], add: [vip] })).status).toBe(200);

      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-csv-trip-"));
      const file = path.join(dir, "requests.csv");
      const exportIo = capturedIo({ DATA_DIR: dir, DATABASE_URL: databaseUrl(t.database), LOG_LEVEL: "silent" });
      expect(await exportCommand(["--app", source.appKey, "--format", "csv", "--out", file], exportIo.io), exportIo.err()).toBe(0);

      // Another app with the same fields, boards and tags takes the file back as it is.
      const target = await organisedApp();
      for (const body of [{ key: "company", label: "Company", type: "text", appliesTo: ["feature_request"] }]) expect((await target.console.post(`/workspaces/${target.wsId}/apps/${target.appId}/fields`, body)).status).toBe(201);
      expect((await target.console.post(`/workspaces/${target.wsId}/apps/${target.appId}/tags`, { name: "VIP", visibility: "team" })).status).toBe(201);
      const result = await run(["--format", "csv", "--app", target.appKey, file]);
      expect(result.code, result.err).toBe(EXIT.ok);

      const view = async (ws: Awaited<ReturnType<typeof organisedApp>>) => {
        const s = await snapshot(ws.appId);
        const tagRows = Object.fromEntries(s.tags.map((t) => [t.name, t.visibility]));
        const requests = [];
        for (const r of s.requests) requests.push({ title: r.title, description: r.description, column: r.column, board: r.board, fields: await fieldsOf(ws, r.id) });
        return { requests: requests.sort((a, b) => a.title.localeCompare(b.title)), tags: tagsByTitle(s), tagRows };
      };
      const [before, after] = [await view(source), await view(target)];
      expect(after).toEqual(before);
      expect(before.requests.find((r) => r.title === "Dark mode")!.fields).toEqual({ plan: "pro", platforms: ["web", "ios"], urgent: true, seats: 3, company: "=Acme, Inc." });
      fs.rmSync(dir, { recursive: true });
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
