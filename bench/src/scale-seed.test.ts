import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, GENEROUS_RATE_LIMITS, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import { columnOf, commentsOf, isPending, seedApp, seedWorkspace, titleOf, votesOf, WORDS } from "./scale-seed.js";

const SIZE = 1_000;
const approved = Array.from({ length: SIZE }, (_, i) => i).filter((i) => !isPending(i));

describe.each(testDialects())("a seeded board of %s", (dialect) => {
  let t: TestApp;
  let appKey: string;

  beforeAll(async () => {
    t = await createTestApp(dialect, { demo: false, rateLimits: GENEROUS_RATE_LIMITS });
    const workspaceId = await seedWorkspace(t.database.db as never);
    ({ appKey } = await seedApp(t.database.db as never, workspaceId, "Seeded", SIZE));
  }, 60_000);
  afterAll(() => t.close());

  const get = async (url: string) => {
    const res = await t.app.inject({ method: "GET", url, headers: { "x-app-key": appKey } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const idOf = async (i: number): Promise<string> =>
    (await t.database.db.kysely.selectFrom("featureRequests").select("id").where("title", "=", titleOf(i)).executeTakeFirstOrThrow()).id;

  it("lists the approved requests, none pending, most voted first", async () => {
    const top = await get(`/api/v1/feature-requests?appKey=${appKey}&sort=top&limit=200`);
    expect(top.total).toBe(approved.length);
    expect(top.requests[0].voteCount).toBe(Math.max(...approved.map(votesOf)));
    expect(top.requests.some((r: { title: string }) => isPending(Number(r.title.split(" ").at(-1))))).toBe(false);
  });

  it("shows a request's votes, comments and roadmap column as seeded", async () => {
    const columns = (await get(`/api/v1/public/columns/${appKey}`)).columns as Array<{ id: string; slug: string }>;
    for (const i of [0, 1, 2, 7, 450, 998]) {
      const detail = await get(`/api/v1/feature-requests/${await idOf(i)}`);
      expect(detail.voteCount).toBe(votesOf(i));
      expect(detail.commentCount).toBe(commentsOf(i));
      expect(columns.find((c) => c.id === detail.columnId)?.slug).toBe(columnOf(i));
      const comments = await get(`/api/v1/feature-requests/${detail.id}/comments`);
      expect(comments.comments).toHaveLength(commentsOf(i));
    }
  });

  it("counts a new vote on top of the seeded ones", async () => {
    const id = await idOf(3);
    const res = await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote`, headers: { "x-app-key": appKey, "x-user-token": "newcomer" }, payload: {} });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().voteCount).toBe(votesOf(3) + 1);
  });

  it("finds by search exactly the approved requests holding both words", async () => {
    // Words that meet in some titles (request 1 is "mode share"), and also apart.
    const [a, b] = [WORDS[1]!, WORDS[7]!];
    const holds = (i: number) => {
      const words = `${titleOf(i)} Please add ${WORDS[(i * 3) % WORDS.length]} support`.split(" ");
      return words.includes(a) && words.includes(b);
    };
    const page = await get(`/api/v1/feature-requests?appKey=${appKey}&q=${a}%20${b}&limit=200`);
    expect(page.total).toBe(approved.filter(holds).length);
    expect(page.total).toBeGreaterThan(0);
  });

  it("publishes the seeded changelog", async () => {
    const feed = await get(`/api/v1/public/apps/${appKey}/changelog`);
    expect(feed.entries.length).toBeGreaterThan(0);
  });
});
