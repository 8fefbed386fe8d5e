import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, GENEROUS_RATE_LIMITS, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import { userHash } from "../users/identity.js";

type Workspace = Awaited<ReturnType<typeof createWorkspaceWithApp>>;
interface Listed {
  id: string;
  title: string;
  hasVoted: boolean;
  isOwnRequest: boolean;
}

// Many signed-in readers opening the same page at once: on PostgreSQL their lookups share one
// statement (page-viewers.ts), and each must still see only what is theirs.
describe.each(testDialects())("pages read by many signed-in users at once on %s", (dialect) => {
  let t: TestApp;
  let one: Workspace;
  let other: Workspace;
  const requests = new Map<Workspace, string[]>();

  beforeAll(async () => {
    t = await createTestApp(dialect, { rateLimits: GENEROUS_RATE_LIMITS, demo: false });
    one = await createWorkspaceWithApp(t.app, t.admin.authorization, "one");
    other = await createWorkspaceWithApp(t.app, t.admin.authorization, "other");
    for (const ws of [one, other]) {
      // Proposals of callers the host does not vouch for wait for review.
      await ws.console.put(`/workspaces/${ws.wsId}/apps/${ws.appId}/settings`, { moderationPolicy: "anonymous" });
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) ids.push((await ws.console.post(`/workspaces/${ws.wsId}/feature-requests`, { appId: ws.appId, title: `Idea ${i}` })).body.id);
      requests.set(ws, ids);
    }
  });
  afterAll(() => t.close());

  const signed = (ws: Workspace, token: string) => ({ "x-user-token": token, "x-user-hash": userHash(ws.signingSecret, token) });
  const vote = async (ws: Workspace, id: string, token: string) => {
    const res = await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote`, headers: signed(ws, token), payload: {} });
    expect(res.statusCode, res.body).toBe(200);
  };
  const page = async (ws: Workspace, headers: Record<string, string>) => {
    const res = await t.app.inject({ url: `/api/v1/feature-requests?appKey=${ws.appKey}&limit=50`, headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().requests as Listed[];
  };
  const votedTitles = (listed: Listed[]) => listed.filter((r) => r.hasVoted).map((r) => r.title).sort();

  it("shows each reader their own votes and pending request, strangers and the other app's readers none", async () => {
    const ids = requests.get(one)!;
    // Reader i votes on ideas i and i+1 (mod 6); "shared" votes on idea 5 of the first app only.
    for (let i = 0; i < 12; i++) {
      await vote(one, ids[i % 6]!, `reader-${i}`);
      await vote(one, ids[(i + 1) % 6]!, `reader-${i}`);
    }
    await vote(one, ids[5]!, "shared");
    const proposed = await t.app.inject({
      method: "POST",
      url: "/api/v1/feature-requests",
      headers: { "x-user-token": "pat" },
      payload: { appKey: one.appKey, title: "Pat's own idea" },
    });
    expect(proposed.json().pending).toBe(true);

    const readers = [
      ...Array.from({ length: 12 }, (_, i) => ({ ws: one, headers: signed(one, `reader-${i}`), voted: [`Idea ${i % 6}`, `Idea ${(i + 1) % 6}`].sort() })),
      ...Array.from({ length: 6 }, (_, i) => ({ ws: one, headers: signed(one, `stranger-${i}`), voted: [] as string[] })),
      { ws: one, headers: signed(one, "shared"), voted: ["Idea 5"] },
      { ws: other, headers: signed(other, "shared"), voted: [] as string[] },
      { ws: other, headers: signed(other, "reader-0"), voted: [] as string[] },
    ];
    const [pats, ...pages] = await Promise.all([page(one, { "x-user-token": "pat" }), ...readers.map((r) => page(r.ws, r.headers))]);
    pages.forEach((listed, i) => {
      expect(votedTitles(listed), `reader ${i}`).toEqual(readers[i]!.voted);
      expect(listed.some((r) => r.isOwnRequest), `reader ${i}`).toBe(false);
      expect(listed.map((r) => r.title), `reader ${i}`).not.toContain("Pat's own idea");
    });
    // Pat's page lists the request waiting for review, marked as theirs.
    expect(pats.filter((r) => r.isOwnRequest).map((r) => r.title)).toEqual(["Pat's own idea"]);
  });

  it("answers a reader's page with the votes they cast a moment before", async () => {
    const ids = requests.get(other)!;
    for (let round = 0; round < 3; round++) {
      await vote(other, ids[round]!, "quick");
      const seen = await Promise.all([page(other, signed(other, "quick")), page(other, signed(other, "slow"))]);
      expect(seen.map(votedTitles)).toEqual([ids.slice(0, round + 1).map((_, i) => `Idea ${i}`), []]);
    }
  });

  it("lists each of many callers reading at once their own pending requests and no one else's", async () => {
    const callers = Array.from({ length: 10 }, (_, i) => `proposer-${i}`);
    const theirs = (token: string) => [`${token}'s idea 0`, `${token}'s idea 1`];
    for (const token of callers) {
      for (const title of theirs(token)) {
        const res = await t.app.inject({ method: "POST", url: "/api/v1/feature-requests", headers: { "x-user-token": token }, payload: { appKey: other.appKey, title } });
        expect(res.json().pending, res.body).toBe(true);
      }
    }
    for (const sort of ["newest", "top", "trending"]) {
      const pages = await Promise.all(
        callers.map(async (token) => {
          const res = await t.app.inject({ url: `/api/v1/feature-requests?appKey=${other.appKey}&sort=${sort}&limit=50`, headers: { "x-user-token": token } });
          expect(res.statusCode, res.body).toBe(200);
          return res.json().requests as Listed[];
        }),
      );
      pages.forEach((listed, i) => {
        const proposals = listed.filter((r) => r.title.includes("'s idea"));
        expect(proposals.map((r) => r.title).sort(), `${sort}, caller ${i}`).toEqual(theirs(callers[i]!));
        expect(proposals.every((r) => r.isOwnRequest), `${sort}, caller ${i}`).toBe(true);
        expect(listed.filter((r) => r.title.startsWith("Idea ")), `${sort}, caller ${i}`).toHaveLength(6);
      });
    }
  });
});
