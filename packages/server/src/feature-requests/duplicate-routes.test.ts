import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleClient, createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import { NEIGHBOURS, PAGE_WALK } from "./duplicates.js";
import { createFeatureRequests, importedRequest } from "./feature-requests.js";

type Workspace = Awaited<ReturnType<typeof createWorkspaceWithApp>>;
interface Side {
  id: string;
  title: string;
  [key: string]: unknown;
}
interface Pair {
  score: number;
  newer: Side;
  older: Side;
}

/** A word of letters only, different for every `n` (so seeded titles share nothing). */
function word(n: number): string {
  let out = "";
  for (let i = 0; i < 4; i++, n = Math.floor(n / 26)) out += String.fromCharCode(97 + (n % 26));
  return `q${out}`;
}

describe.each(testDialects())("the duplicates queue on %s", (dialect) => {
  let t: TestApp;
  let slug = 0;
  let calls = 0;
  const from = () => {
    calls += 1;
    return `10.${(calls >> 16) & 255}.${(calls >> 8) & 255}.${calls & 255}`;
  };
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  async function freshApp(moderationPolicy = "none"): Promise<Workspace> {
    const ws = await createWorkspaceWithApp(t.app, t.admin.authorization, `dups-${dialect}-${++slug}`);
    expect((await ws.console.put(`/workspaces/${ws.wsId}/apps/${ws.appId}/settings`, { moderationPolicy })).status).toBe(200);
    return ws;
  }

  async function propose(ws: Workspace, title: string, token = "proposer"): Promise<string> {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/feature-requests",
      remoteAddress: from(),
      headers: { "x-user-token": token },
      payload: { appKey: ws.appKey, title, description: "" },
    });
    expect(res.statusCode).toBe(201);
    t.clock.advance(1000);
    return res.json().featureRequestId;
  }

  /** Many requests at once, one second apart, oldest first; approved unless `pending`. */
  async function seed(ws: Workspace, titles: readonly string[], pending = false): Promise<string[]> {
    const start = t.clock.now().getTime();
    const rows = await createFeatureRequests(
      t.database.db.kysely,
      t.clock,
      dialect,
      ws.appId,
      titles.map((title, i) => ({ ...importedRequest(ws.appId, title, "", !pending), createdAt: new Date(start + i * 1000).toISOString() })),
    );
    t.clock.advance(titles.length * 1000 + 1000);
    return rows.map((r) => r.id);
  }

  const vote = async (id: string, token: string) => {
    const res = await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote`, remoteAddress: from(), headers: { "x-user-token": token }, payload: {} });
    expect(res.statusCode).toBe(200);
  };
  const comment = async (id: string, body: string, token: string) => {
    const res = await t.app.inject({
      method: "POST",
      url: `/api/v1/feature-requests/${id}/comments`,
      remoteAddress: from(),
      headers: { "x-user-token": token },
      payload: { body, authorName: token },
    });
    expect(res.statusCode).toBe(201);
  };

  const queue = (ws: Workspace, query = "") => ws.console.get(`/workspaces/${ws.wsId}/apps/${ws.appId}/duplicates${query}`);
  async function pairs(ws: Workspace, query = ""): Promise<Pair[]> {
    const res = await queue(ws, query);
    expect(res.status).toBe(200);
    return res.body.pairs;
  }
  /** Every pair of the queue, page after page, as "newer title | older title". */
  async function walk(ws: Workspace, limit = 20): Promise<{ titles: string[]; pages: number }> {
    const titles: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await queue(ws, `?limit=${limit}${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`);
      expect(res.status).toBe(200);
      titles.push(...(res.body.pairs as Pair[]).map((p) => `${p.newer.title} | ${p.older.title}`));
      cursor = res.body.nextCursor;
      pages += 1;
    } while (cursor !== null && pages < 100);
    return { titles, pages };
  }
  const dismiss = (ws: Workspace, requestIds: unknown) => ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/duplicates/dismiss`, { requestIds });
  const merge = (ws: Workspace, duplicateId: string, intoId: string) =>
    ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/duplicates/merge`, { duplicateId, intoId });
  const dismissals = async () => (await t.database.db.kysely.selectFrom("duplicateDismissals").selectAll().execute()).length;
  const detail = async (ws: Workspace, id: string) => (await ws.console.get(`/workspaces/${ws.wsId}/feature-requests/${id}`)).body;

  it("lists pairs of alike titles newest first, with both requests' board, votes, column and a score", async () => {
    const ws = await freshApp();
    const dark = await propose(ws, "Dark mode");
    const csv = await propose(ws, "Export to CSV");
    await propose(ws, "Calendar sync");
    const darkAgain = await propose(ws, "Please add a dark mode");
    const csvAgain = await propose(ws, "CSV exports of my boards");
    const darkTheme = await propose(ws, "Dark theme");
    for (const token of ["ann", "ben"]) await vote(dark, token);
    expect((await ws.console.put(`/workspaces/${ws.wsId}/feature-requests/${dark}`, { columnSlug: "planned" })).status).toBe(200);

    const listed = await pairs(ws);
    expect(listed.map((p) => [p.newer.title, p.older.title, p.score])).toEqual([
      ["Dark theme", "Please add a dark mode", 0.5],
      ["Dark theme", "Dark mode", 0.5],
      ["CSV exports of my boards", "Export to CSV", 0.8],
      ["Please add a dark mode", "Dark mode", 1],
    ]);
    expect(listed[0]!.newer.id).toBe(darkTheme);
    expect(listed[2]).toMatchObject({ newer: { id: csvAgain }, older: { id: csv } });
    expect(listed[3]!.newer).toMatchObject({ id: darkAgain, boardName: "Feature requests", voteCount: 0, moderation: "approved" });
    expect(listed[3]!.older).toMatchObject({ id: dark, title: "Dark mode", voteCount: 2, commentCount: 0, status: "planned", columnName: "Planned" });
    expect(listed[3]!.newer).toMatchObject({ status: "under-review", columnName: "Under review" });
    expect(listed[3]!.older.boardId).toMatch(/^brd_/);
    expect(new Date(listed[3]!.older.createdAt as string) < new Date(listed[3]!.newer.createdAt as string)).toBe(true);
  });

  it("pages with a cursor through the same pairs, and refuses another app's or a forged cursor", async () => {
    const ws = await freshApp();
    await seed(ws, ["Dark mode", "Export to CSV", "Dark mode please", "CSV export", "Dark theme"]);
    const whole = await walk(ws);
    expect(whole.titles).toEqual(["Dark theme | Dark mode please", "Dark theme | Dark mode", "CSV export | Export to CSV", "Dark mode please | Dark mode"]);
    for (const limit of [1, 2, 3]) expect((await walk(ws, limit)).titles).toEqual(whole.titles);

    const first = await queue(ws, "?limit=1");
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const other = await freshApp();
    for (const cursor of [first.body.nextCursor, "not-a-cursor", Buffer.from('{"a":1}').toString("base64url")]) {
      const res = await queue(other, `?cursor=${encodeURIComponent(cursor)}`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("invalid_cursor");
    }
    expect((await queue(ws, "?limit=0")).status).toBe(400);
    expect((await queue(ws, "?limit=101")).body.code).toBe("validation_failed");
  });

  it("pairs pending requests and leaves out declined and merged ones", async () => {
    const ws = await freshApp("all");
    const [first, second, third, fourth] = await seed(ws, ["Offline mode", "Offline mode for iPad", "Offline mode on Android", "Offline mode sync"], true);
    expect((await pairs(ws)).map((p) => `${p.newer.title} | ${p.older.title}`)).toEqual([
      "Offline mode sync | Offline mode",
      "Offline mode sync | Offline mode on Android",
      "Offline mode sync | Offline mode for iPad",
      "Offline mode on Android | Offline mode",
      "Offline mode on Android | Offline mode for iPad",
      "Offline mode for iPad | Offline mode",
    ]);
    expect((await ws.console.post(`/workspaces/${ws.wsId}/feature-requests/${second}/decline`)).status).toBe(200);
    expect((await ws.console.post(`/workspaces/${ws.wsId}/feature-requests/${third}/merge`, { intoId: first })).status).toBe(200);
    const left = await pairs(ws);
    expect(left.map((p) => [p.newer.id, p.older.id])).toEqual([[fourth, first]]);
    expect(left[0]!.older.moderation).toBe("pending");
  });

  it("finds older public requests through the search index past the requests just before, and examines a bounded page", async () => {
    const ws = await freshApp();
    const [oldDark] = await seed(ws, ["Dark mode"]);
    await seed(ws, ["Offline sync"], true);
    // Enough unrelated requests in between that neither old one is among the newest's neighbours.
    await seed(ws, Array.from({ length: NEIGHBOURS + 5 }, (_, i) => `${word(2 * i)} ${word(2 * i + 1)}`));
    await seed(ws, ["Dark mode on the web", "Offline sync for iPad"]);

    // The public one is found through the index; the pending one is beyond the compared neighbours.
    expect((await pairs(ws)).map((p) => [p.newer.title, p.older.id])).toEqual([["Dark mode on the web", oldDark]]);

    // Past a page's walk of requests without a pair, the page is empty but the queue goes on.
    await seed(ws, Array.from({ length: PAGE_WALK }, (_, i) => `${word(5000 + 2 * i)} ${word(5001 + 2 * i)}`));
    const page = await queue(ws);
    expect(page.body.pairs).toEqual([]);
    const next = await queue(ws, `?cursor=${encodeURIComponent(page.body.nextCursor)}`);
    expect((next.body.pairs as Pair[]).map((p) => p.newer.title)).toEqual(["Dark mode on the web"]);
  });

  it("never offers a pair marked not a duplicate again, and marking it again changes nothing", async () => {
    const ws = await freshApp();
    const [dark, darkTheme, darkAgain] = await seed(ws, ["Dark mode", "Dark theme", "Dark mode please"]);
    const before = await dismissals();
    const res = await dismiss(ws, [darkAgain, dark]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ requestIds: [dark, darkAgain].sort(), dismissedAt: t.clock.now().toISOString() });
    const listed = (await pairs(ws)).map((p) => [p.newer.id, p.older.id]);
    expect(listed).toEqual([
      [darkAgain, darkTheme],
      [darkTheme, dark],
    ]);

    t.clock.advance(60_000);
    const again = await dismiss(ws, [dark, darkAgain]);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    expect(await dismissals()).toBe(before + 1);
    expect((await pairs(ws)).map((p) => [p.newer.id, p.older.id])).toEqual(listed);

    // A member may triage the queue as well.
    const add = await ws.console.post(`/workspaces/${ws.wsId}/members`, { email: `member-${dialect}@example.com`, role: "member" });
    const token = await ws.console.post(`/users/${add.body.member.userId}/tokens`, { name: "laptop" });
    const member = consoleClient(t.app, `Bearer ${token.body.token}`);
    expect((await member.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/duplicates/dismiss`, { requestIds: [darkTheme, dark] })).status).toBe(200);
    expect((await pairs(ws)).map((p) => [p.newer.id, p.older.id])).toEqual([[darkAgain, darkTheme]]);
  });

  it("merges from a pair: votes, comments and followers move to the request that stays, and the pair leaves the queue", async () => {
    const ws = await freshApp();
    const keep = await propose(ws, "Dark mode");
    const gone = await propose(ws, "Dark mode please");
    for (const token of ["ann", "ben"]) await vote(keep, token);
    for (const token of ["ben", "cat"]) await vote(gone, token);
    await comment(gone, "Me too", "cat");
    const db = t.database.db.kysely;
    const follow = (featureRequestId: string, email: string, status: "pending" | "confirmed", n: number) => {
      const at = t.clock.now().toISOString();
      return db
        .insertInto("emailSubscriptions")
        .values({
          id: `esub_${dialect}${slug}${n}`.padEnd(31, "0"),
          appId: ws.appId,
          kind: "request",
          featureRequestId,
          email,
          status,
          subscriberTokenHash: null,
          confirmNonce: status === "pending" ? `nonce-${n}` : null,
          confirmSentAt: null,
          confirmedAt: status === "confirmed" ? at : null,
          unsubscribedAt: null,
          notifiedAt: null,
          createdAt: at,
          updatedAt: at,
        })
        .execute();
    };
    await follow(gone, "fan@example.com", "confirmed", 1);
    await follow(gone, "both@example.com", "confirmed", 2);
    await follow(keep, "both@example.com", "pending", 3);
    expect(await pairs(ws)).toHaveLength(1);

    const res = await merge(ws, gone, keep);
    expect(res.status).toBe(200);
    expect(res.body.target).toMatchObject({ id: keep, voteCount: 3, commentCount: 1, mergedIntoId: null });
    expect(res.body.duplicate).toMatchObject({ id: gone, voteCount: 0, mergedIntoId: keep });
    expect(await pairs(ws)).toEqual([]);

    // A team reply on the request that stays reaches both followers of the merged one.
    expect((await ws.console.post(`/workspaces/${ws.wsId}/feature-requests/${keep}/comments`, { body: "Shipping soon" })).status).toBe(201);
    const notices = await db.selectFrom("requestUpdateNotices").select("email").where("featureRequestId", "=", keep).orderBy("email").execute();
    expect(notices.map((n) => n.email)).toEqual(["both@example.com", "fan@example.com"]);
    expect(await db.selectFrom("emailSubscriptions").select("id").where("featureRequestId", "=", gone).execute()).toEqual([]);

    // Merged meanwhile (another tab): refused, nothing written.
    const again = await merge(ws, gone, keep);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("request_already_merged");
    const back = await merge(ws, keep, gone);
    expect(back.body).toMatchObject({ code: "request_already_merged", details: { featureRequestId: gone } });
    expect(await detail(ws, keep)).toMatchObject({ mergedIntoId: null, voteCount: 3 });
  });

  it("refuses a request paired with itself, another app's, an unknown one and a malformed body, writing nothing", async () => {
    const ws = await freshApp();
    const [a, b] = await seed(ws, ["Dark mode", "Dark mode please"]);
    await vote(b!, "voter");
    const second = await ws.console.post(`/workspaces/${ws.wsId}/apps`, { name: "Second" });
    const elsewhere = await ws.console.post(`/workspaces/${ws.wsId}/feature-requests`, { appId: second.body.appId, title: "Dark mode" });
    const otherWs = await freshApp();
    const [foreign] = await seed(otherWs, ["Dark mode"]);
    const before = await dismissals();

    for (const act of [(x: string, y: string) => dismiss(ws, [x, y]), (x: string, y: string) => merge(ws, x, y)]) {
      const self = await act(a!, a!);
      expect(self.status).toBe(400);
      expect(self.body.code).toBe("duplicate_pair_same_request");
      const cross = await act(b!, elsewhere.body.id);
      expect(cross.status).toBe(400);
      expect(cross.body).toMatchObject({ code: "duplicate_pair_other_app", details: { featureRequestId: elsewhere.body.id } });
      const unknown = await act(b!, "fr_00000000000000000000000000");
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ code: "feature_request_not_found", details: { missingIds: ["fr_00000000000000000000000000"] } });
      expect((await act(foreign!, a!)).body.code).toBe("feature_request_not_found");
    }
    // The app in the path must be the pair's.
    const viaOther = await ws.console.post(`/workspaces/${ws.wsId}/apps/${second.body.appId}/duplicates/dismiss`, { requestIds: [a, b] });
    expect(viaOther.body.code).toBe("duplicate_pair_other_app");
    const viaForeign = await ws.console.post(`/workspaces/${ws.wsId}/apps/${otherWs.appId}/duplicates/merge`, { duplicateId: a, intoId: b });
    expect(viaForeign.status).toBe(404);
    expect(viaForeign.body.code).toBe("app_not_found");
    for (const requestIds of [[a], [a, b, b], "x", [a, 1]]) expect((await dismiss(ws, requestIds)).body.code).toBe("validation_failed");
    expect((await ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/duplicates/merge`, { duplicateId: a })).body.code).toBe("validation_failed");

    expect(await dismissals()).toBe(before);
    expect(await detail(ws, b!)).toMatchObject({ mergedIntoId: null, voteCount: 1 });
    expect(await detail(ws, a!)).toMatchObject({ mergedIntoId: null });
    expect((await pairs(ws)).map((p) => [p.newer.id, p.older.id])).toEqual([[b, a]]);
    // People of another workspace see no workspace at all.
    const add = await otherWs.console.post(`/workspaces/${otherWs.wsId}/members`, { email: `stranger-${dialect}@example.com`, role: "owner" });
    const token = await otherWs.console.post(`/users/${add.body.member.userId}/tokens`, { name: "laptop" });
    const stranger = consoleClient(t.app, `Bearer ${token.body.token}`);
    for (const res of [await stranger.get(`/workspaces/${ws.wsId}/apps/${ws.appId}/duplicates`), await stranger.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/duplicates/dismiss`, { requestIds: [a, b] })]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("workspace_not_found");
    }
    expect(await dismissals()).toBe(before);
  });

  it("forgets a dismissed pair with its request", async () => {
    const ws = await freshApp();
    const [a, b] = await seed(ws, ["Dark mode", "Dark mode please"]);
    expect((await dismiss(ws, [a, b])).status).toBe(200);
    const db = t.database.db.kysely;
    const of = () => db.selectFrom("duplicateDismissals").select("firstId").where((eb) => eb.or([eb("firstId", "=", a!), eb("secondId", "=", a!)])).execute();
    expect(await of()).toHaveLength(1);
    expect((await ws.console.delete(`/workspaces/${ws.wsId}/feature-requests/${a}`)).status).toBe(200);
    expect(await of()).toEqual([]);
  });
});
