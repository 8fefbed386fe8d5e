import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, GENEROUS_RATE_LIMITS, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import { userHash } from "../users/identity.js";

/** What each kind of caller sees of an app with a public, a private and a second public board, tagged. */
describe.each(testDialects())("boards and tags in the public API on %s", (dialect) => {
  let t: TestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    t = await createTestApp(dialect, { rateLimits: GENEROUS_RATE_LIMITS });
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
    await acme.console.put(`/workspaces/${acme.wsId}/apps/${acme.appId}/settings`, { moderationPolicy: "none" });
    const boardsUrl = `/workspaces/${acme.wsId}/apps/${acme.appId}/boards`;
    expect((await acme.console.post(boardsUrl, { name: "Bugs" })).status).toBe(201);
    expect((await acme.console.post(boardsUrl, { name: "Secret lab", slug: "lab", visibility: "private" })).status).toBe(201);
    const tag = async (name: string, visibility = "public") => (await acme.console.post(`/workspaces/${acme.wsId}/apps/${acme.appId}/tags`, { name, visibility })).body.id as string;
    const mobile = await tag("Mobile");
    const sync = await tag("Sync");
    const vip = await tag("VIP", "team");
    // Proposals from an identified user, so the private board can be proposed into.
    for (const [title, board] of [["Dark mode toggle", undefined], ["Crash when syncing", "bugs"], ["Secret sync engine", "lab"], ["Calendar sync", undefined]] as const) {
      const res = await propose(title, board, signedIn("insider"));
      expect(res.statusCode, title).toBe(201);
      ids[title] = res.json().featureRequestId;
    }
    const bulk = `/workspaces/${acme.wsId}/apps/${acme.appId}/feature-requests/tags`;
    await acme.console.post(bulk, { featureRequestIds: [ids["Dark mode toggle"], ids["Crash when syncing"]], add: [mobile] });
    await acme.console.post(bulk, { featureRequestIds: [ids["Crash when syncing"], ids["Secret sync engine"], ids["Calendar sync"]], add: [sync, vip] });
  });
  afterAll(() => t.close());

  const signedIn = (token: string) => ({ "x-user-token": token, "x-user-hash": userHash(acme.signingSecret, token) });
  const propose = (title: string, board: string | undefined, headers: Record<string, string>) =>
    t.app.inject({ method: "POST", url: "/api/v1/feature-requests", headers, payload: { appKey: acme.appKey, title, ...(board === undefined ? {} : { board }) } });
  const list = async (query = "", headers: Record<string, string> = {}) => {
    const res = await t.app.inject({ url: `/api/v1/feature-requests?appKey=${acme.appKey}&sort=top${query}`, headers });
    return { status: res.statusCode, body: res.json() };
  };
  const titles = async (query = "", headers: Record<string, string> = {}) => {
    const { status, body } = await list(query, headers);
    expect(status, JSON.stringify(body)).toBe(200);
    return { titles: (body.requests as Array<{ title: string }>).map((r) => r.title).sort(), total: body.total as number };
  };

  it("keeps a private board's requests out of anonymous and unsigned listings, searches, counts and similar-requests", async () => {
    for (const headers of [{}, { "x-user-token": "insider" }]) {
      expect(await titles("", headers)).toEqual({ titles: ["Calendar sync", "Crash when syncing", "Dark mode toggle"], total: 3 });
      expect(await titles("&q=sync", headers)).toEqual({ titles: ["Calendar sync", "Crash when syncing"], total: 2 });
      const similar = await t.app.inject({ url: `/api/v1/feature-requests/similar?appKey=${acme.appKey}&title=secret%20sync`, headers });
      expect((similar.json().requests as Array<{ title: string }>).map((r) => r.title)).not.toContain("Secret sync engine");
    }
  });

  it("shows them to an identified user the board admits", async () => {
    expect(await titles("", signedIn("someone"))).toEqual({ titles: ["Calendar sync", "Crash when syncing", "Dark mode toggle", "Secret sync engine"], total: 4 });
    expect((await titles("&q=secret", signedIn("someone"))).titles).toEqual(["Secret sync engine"]);
    expect((await titles("&board=lab", signedIn("someone"))).titles).toEqual(["Secret sync engine"]);
  });

  it("answers a private request by id, its comments, votes and comment posts with 404 to a caller it does not admit, as for an unknown id", async () => {
    const secret = ids["Secret sync engine"]!;
    const unknown = "fr_00000000000000000000000000";
    for (const [method, path, payload] of [
      ["GET", "", undefined],
      ["GET", "/comments", undefined],
      ["POST", "/vote", {}],
      ["POST", "/comments", { body: "Let me in" }],
      ["POST", "/subscription", { email: "outsider@example.com" }],
      ["DELETE", "/subscription", { email: "outsider@example.com" }],
    ] as const) {
      const mine = await t.app.inject({ method, url: `/api/v1/feature-requests/${secret}${path}?appKey=${acme.appKey}`, headers: { "x-user-token": "outsider" }, ...(payload === undefined ? {} : { payload }) });
      const none = await t.app.inject({ method, url: `/api/v1/feature-requests/${unknown}${path}?appKey=${acme.appKey}`, headers: { "x-user-token": "outsider" }, ...(payload === undefined ? {} : { payload }) });
      expect([mine.statusCode, mine.json()], `${method} ${path}`).toEqual([none.statusCode, none.json()]);
      expect(mine.statusCode).toBe(404);
    }
    const admitted = await t.app.inject({ url: `/api/v1/feature-requests/${secret}?appKey=${acme.appKey}`, headers: signedIn("someone") });
    expect(admitted.json()).toMatchObject({ title: "Secret sync engine", boardId: expect.stringMatching(/^brd_/) });
    const vote = await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${secret}/vote`, headers: signedIn("someone"), payload: {} });
    expect(vote.json()).toEqual({ voted: true, voteCount: 1 });
    // An admitted user may follow it by email like any request they can read (a confirmation mail first).
    const follow = await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${secret}/subscription`, headers: signedIn("someone"), payload: { email: "someone@example.com" } });
    expect([follow.statusCode, follow.json()]).toEqual([200, { following: false, pending: true }]);
  });

  it("filters by board slug and by every public tag given, showing public tags only", async () => {
    expect((await titles("&board=bugs")).titles).toEqual(["Crash when syncing"]);
    expect((await titles("&board=feature-requests")).titles).toEqual(["Calendar sync", "Dark mode toggle"]);
    expect(await titles("&tag=sync")).toEqual({ titles: ["Calendar sync", "Crash when syncing"], total: 2 });
    expect(await titles("&tag=sync&tag=mobile")).toEqual({ titles: ["Crash when syncing"], total: 1 });
    expect(await titles("&tag=sync&board=feature-requests&q=calendar")).toEqual({ titles: ["Calendar sync"], total: 1 });
    const { body } = await list("&tag=mobile&tag=sync");
    expect(body.requests[0].tags).toEqual([{ name: "Mobile", slug: "mobile", color: null }, { name: "Sync", slug: "sync", color: null }]);
  });

  it("refuses an unknown board, a private board the caller may not see, an unknown tag and a team-only tag with 400, alike", async () => {
    const unknownBoard = await list("&board=nope");
    const hiddenBoard = await list("&board=lab");
    expect([unknownBoard.status, unknownBoard.body.code]).toEqual([400, "unknown_board"]);
    expect([hiddenBoard.status, hiddenBoard.body.code, hiddenBoard.body.error]).toEqual([400, "unknown_board", unknownBoard.body.error]);
    const unknownTag = await list("&tag=nope");
    const teamTag = await list("&tag=vip");
    expect([unknownTag.status, unknownTag.body.code]).toEqual([400, "unknown_tag"]);
    expect([teamTag.status, teamTag.body.code]).toEqual([400, "unknown_tag"]);
    expect((await list("&tag=a&tag=b&tag=c&tag=d&tag=e&tag=f")).status).toBe(400);
  });

  it("puts proposals on the board named, the default without one, and refuses a board the caller may not see, writing nothing", async () => {
    const before = (await acme.console.get(`/workspaces/${acme.wsId}/feature-requests?appId=${acme.appId}&limit=200`)).body.total;
    const refused = await propose("Sneak into the lab", "lab", { "x-user-token": "outsider" });
    expect([refused.statusCode, refused.json().code]).toEqual([400, "unknown_board"]);
    const unknown = await propose("Into nowhere", "nowhere", { "x-user-token": "outsider" });
    expect([unknown.statusCode, unknown.json().code]).toEqual([400, "unknown_board"]);
    expect((await acme.console.get(`/workspaces/${acme.wsId}/feature-requests?appId=${acme.appId}&limit=200`)).body.total).toBe(before);
    const bug = await propose("Login loops forever", "bugs", { "x-user-token": "outsider" });
    expect(bug.statusCode).toBe(201);
    expect((await titles("&board=bugs")).titles).toContain("Login loops forever");
  });

  it("never shows a private board or its requests on the shared surfaces: portal pages, board addresses, the sitemap, feeds", async () => {
    const html = async (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers: { accept: "text/html", ...headers } });
    const requestsPage = await html(`/p/${acme.appKey}/requests`);
    expect(requestsPage.statusCode).toBe(200);
    expect(requestsPage.body).toContain("Calendar sync");
    expect(requestsPage.body).not.toContain("Secret sync engine");
    // Neither the board links nor the boards the page tells the portal app about name it.
    expect(requestsPage.body).toContain(`/p/${acme.appKey}/b/bugs"`);
    expect(requestsPage.body).not.toMatch(/Secret lab|\/b\/lab|&quot;lab&quot;/);
    expect((await html(`/p/${acme.appKey}/requests?tag=sync`)).body).not.toContain("Secret sync engine");
    expect((await html(`/p/${acme.appKey}/roadmap`)).body).not.toContain("Secret sync engine");
    expect((await html(`/p/${acme.appKey}/requests/${ids["Secret sync engine"]}-secret-sync-engine`)).statusCode).toBe(404);
    expect((await html(`/p/${acme.appKey}/requests/${ids["Calendar sync"]}-calendar-sync`)).statusCode).toBe(200);
    // A private board's own address is the unknown board's 404, even for a user the board admits:
    // portal pages are the same for every visitor. Only the address asked for (its canonical link)
    // differs, as it does between any two unknown slugs.
    const unknownBoard = await html(`/p/${acme.appKey}/b/nope`);
    expect(unknownBoard.statusCode).toBe(404);
    for (const headers of [{}, signedIn("someone")]) {
      const lab = await html(`/p/${acme.appKey}/b/lab`, headers);
      expect([lab.statusCode, lab.body.replaceAll(`/b/lab"`, `/b/nope"`)]).toEqual([404, unknownBoard.body]);
      expect(lab.body).not.toMatch(/Secret lab|Secret sync engine/);
    }
    const labFeed = await t.app.inject({ url: `/p/${acme.appKey}/b/lab/shipped.atom` });
    const nopeFeed = await t.app.inject({ url: `/p/${acme.appKey}/b/nope/shipped.atom` });
    expect([labFeed.statusCode, labFeed.json()]).toEqual([404, nopeFeed.json()]);

    await acme.console.put(`/workspaces/${acme.wsId}/apps/${acme.appId}/settings`, { portalIndexable: true });
    const sitemap = (await t.app.inject({ url: `/p/${acme.appKey}/sitemap.xml` })).body;
    expect(sitemap).toContain(ids["Calendar sync"]);
    expect(sitemap).toContain(`/p/${acme.appKey}/b/bugs<`);
    expect(sitemap).not.toContain(ids["Secret sync engine"]);
    expect(sitemap).not.toContain("/b/lab");
  });
});
