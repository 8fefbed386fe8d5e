import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleClient, type Workspace } from "@tidings/testing/console-client";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import { publicBoard } from "@tidings/testing/public-board-kit";
import { findEndUser } from "../users/identity.js";

type Item = { id: string; title: string; [key: string]: unknown };

describe.each(testDialects())("console triage of feature requests on %s", (dialect) => {
  let t: TestApp;
  // Public calls come from ever-new addresses: this suite is about triage, not per-IP limits.
  let calls = 0;
  const from = () => {
    calls += 1;
    return `10.${(calls >> 16) & 255}.${(calls >> 8) & 255}.${calls & 255}`;
  };
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const { freshApp } = publicBoard(() => t, `triage-${dialect}`);

  async function propose(appKey: string, title: string, token = "proposer", description = ""): Promise<string> {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/feature-requests",
      remoteAddress: from(),
      headers: { "x-user-token": token },
      payload: { appKey, title, description },
    });
    expect(res.statusCode).toBe(201);
    t.clock.advance(1000);
    return res.json().featureRequestId;
  }

  const vote = (id: string, token: string) =>
    t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote`, remoteAddress: from(), headers: { "x-user-token": token }, payload: {} });

  const comment = async (id: string, body: string, token = "commenter", parentId?: string) => {
    const res = await t.app.inject({
      method: "POST",
      url: `/api/v1/feature-requests/${id}/comments`,
      remoteAddress: from(),
      headers: { "x-user-token": token },
      payload: { body, authorName: token, ...(parentId === undefined ? {} : { parentId }) },
    });
    expect(res.statusCode).toBe(201);
    t.clock.advance(1000);
    return res.json().id as string;
  };

  async function publicList(appKey: string, query = ""): Promise<{ requests: Item[]; total: number }> {
    const res = await t.app.inject({ url: `/api/v1/feature-requests?appKey=${appKey}&limit=200${query}`, remoteAddress: from() });
    expect(res.statusCode).toBe(200);
    return res.json();
  }

  const publicComments = (id: string) => t.app.inject({ url: `/api/v1/feature-requests/${id}/comments`, remoteAddress: from() });

  async function columnsOf(ws: Workspace): Promise<Record<string, string>> {
    const res = await ws.console.get(`/workspaces/${ws.wsId}/apps/${ws.appId}/columns`);
    return Object.fromEntries(res.body.columns.map((c: { slug: string; id: string }) => [c.slug, c.id]));
  }

  /** Sets the payment attributes the host app would report for `token`. */
  async function setPaying(appId: string, token: string, mrrCents: number | null, isPaying = true): Promise<void> {
    const user = await findEndUser(t.database.db.kysely, appId, token);
    if (user === undefined) throw new Error(`no end user ${token}`);
    await t.database.db.kysely.updateTable("endUsers").set({ isPaying: isPaying ? 1 : 0, mrrCents, plan: isPaying ? "pro" : "free", currency: "USD" }).where("id", "=", user.id).execute();
  }

  /** A console client for a new workspace user with `role`. */
  async function userWith(ws: Workspace, role: string, email: string, displayName?: string) {
    const add = await ws.console.post(`/workspaces/${ws.wsId}/members`, { email, role, ...(displayName === undefined ? {} : { displayName }) });
    expect(add.status).toBe(201);
    const token = await ws.console.post(`/users/${add.body.member.userId}/tokens`, { name: "laptop" });
    return consoleClient(t.app, `Bearer ${token.body.token}`);
  }

  const detail = async (ws: Workspace, id: string) => (await ws.console.get(`/workspaces/${ws.wsId}/feature-requests/${id}`)).body;
  const eventsOf = async (ws: Workspace, id: string, type: string) =>
    ((await detail(ws, id)).events as Array<{ type: string; data: Record<string, unknown> }>).filter((e) => e.type === type);
  const ids = (items: Item[]) => items.map((r) => r.id);

  describe("creating", () => {
    it("creates an approved team request that the public listing shows in the named column", async () => {
      const ws = await freshApp();
      const version = await ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/versions`, { label: "2.0" });
      const res = await ws.console.post(`/workspaces/${ws.wsId}/feature-requests`, {
        appId: ws.appId,
        title: "  Calendar sync ",
        description: "Two-way",
        columnSlug: "planned",
        versionId: version.body.id,
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        title: "Calendar sync",
        description: "Two-way",
        moderation: "approved",
        approved: true,
        createdByAdmin: true,
        columnSlug: "planned",
        status: "planned",
        versionLabel: "2.0",
        mergedIntoId: null,
        revenueTotal: 0,
        payingVoters: 0,
        submitterIsPaying: false,
        hasVoted: false,
        isOwnRequest: false,
      });
      expect(res.body.approvedAt).toEqual(expect.any(String));
      const listed = await publicList(ws.appKey);
      expect(listed.requests.find((r) => r.id === res.body.id)).toMatchObject({ title: "Calendar sync", status: "planned" });
      const plain = await ws.console.post(`/workspaces/${ws.wsId}/feature-requests`, { appId: ws.appId, title: "No column" });
      expect(plain.body).toMatchObject({ status: "under-review", description: "", versionId: null });
    });

    it("refuses a blank title, unknown or foreign columns and versions, and unknown apps, writing nothing", async () => {
      const ws = await freshApp();
      const other = await ws.console.post(`/workspaces/${ws.wsId}/apps`, { name: "Second app" });
      const otherColumns = await ws.console.get(`/workspaces/${ws.wsId}/apps/${other.body.appId}/columns`);
      const foreignColumn = otherColumns.body.columns[1].id;
      const foreignVersion = await ws.console.post(`/workspaces/${ws.wsId}/apps/${other.body.appId}/versions`, { label: "9" });
      const path = `/workspaces/${ws.wsId}/feature-requests`;
      const cases: Array<[Record<string, unknown>, number, string]> = [
        [{ appId: ws.appId, title: "   " }, 400, "validation_failed"],
        [{ appId: ws.appId, title: "" }, 400, "validation_failed"],
        [{ appId: ws.appId }, 400, "validation_failed"],
        [{ appId: ws.appId, title: "Ok", columnId: "col_00000000000000000000000000" }, 404, "column_not_found"],
        [{ appId: ws.appId, title: "Ok", columnId: foreignColumn }, 404, "column_not_found"],
        [{ appId: ws.appId, title: "Ok", columnSlug: "nope" }, 404, "column_not_found"],
        [{ appId: ws.appId, title: "Ok", columnSlug: "planned", columnId: foreignColumn }, 400, "validation_failed"],
        [{ appId: ws.appId, title: "Ok", versionId: foreignVersion.body.id }, 404, "version_not_found"],
        [{ appId: ws.appId, title: "Ok", versionId: "" }, 404, "version_not_found"],
        [{ appId: ws.appId, title: "Ok", versionId: "  " }, 404, "version_not_found"],
        [{ appId: ws.appId, title: "Ok", columnId: "" }, 404, "column_not_found"],
        [{ appId: "app_00000000000000000000000000", title: "Ok" }, 404, "app_not_found"],
      ];
      for (const [payload, status, code] of cases) {
        const res = await ws.console.post(path, payload);
        expect(res.status, JSON.stringify(payload)).toBe(status);
        expect(res.body.code, JSON.stringify(payload)).toBe(code);
      }
      const listed = await ws.console.get(`${path}?includeMerged=true`);
      expect(listed.body).toMatchObject({ requests: [], total: 0 });
      const events = await t.database.db.kysely.selectFrom("featureRequestEvents").select("id").where("appId", "=", ws.appId).execute();
      expect(events).toEqual([]);
    });
  });

  describe("listing", () => {
    let ws: Workspace;
    const id: Record<string, string> = {};
    beforeAll(async () => {
      ws = await freshApp();
      id.free = await propose(ws.appKey, "Export to spreadsheet", "sub-a", "CSV and XLSX");
      id.whale = await propose(ws.appKey, "Single sign-on", "sub-b");
      id.pair = await propose(ws.appKey, "Dark mode", "sub-c", "Easier at night: EXPORTABLE themes");
      id.payingSubmitter = await propose(ws.appKey, "Offline drafts", "sub-d");
      for (const token of ["f1", "f2", "f3"]) await vote(id.free!, token);
      await vote(id.whale!, "whale");
      for (const token of ["p1", "p2"]) await vote(id.pair!, token);
      await setPaying(ws.appId, "whale", 5000);
      await setPaying(ws.appId, "p1", 1000);
      await setPaying(ws.appId, "p2", 1550);
      await setPaying(ws.appId, "f1", 9900, false);
      await setPaying(ws.appId, "sub-d", 700);
    });
    const list = async (query = "") => {
      const res = await ws.console.get(`/workspaces/${ws.wsId}/feature-requests?appId=${ws.appId}${query}`);
      expect(res.status).toBe(200);
      return res.body as { requests: Item[]; total: number; pendingTotal: number };
    };

    it("sorts by newest, votes, revenue and paying voters", async () => {
      expect(ids((await list()).requests)).toEqual([id.payingSubmitter, id.pair, id.whale, id.free]);
      expect(ids((await list("&sort=votes")).requests)).toEqual([id.free, id.pair, id.whale, id.payingSubmitter]);
      expect(ids((await list("&sort=revenue")).requests)).toEqual([id.whale, id.pair, id.free, id.payingSubmitter]);
      expect(ids((await list("&sort=paying_voters")).requests)).toEqual([id.pair, id.whale, id.free, id.payingSubmitter]);
    });

    it("reports revenue, paying voters and paying submitters, and keeps only payers with payer=only", async () => {
      const { requests } = await list();
      const byId = new Map(requests.map((r) => [r.id, r]));
      expect(byId.get(id.whale!)).toMatchObject({ revenueTotal: 50, payingVoters: 1, voteCount: 1, submitterIsPaying: false });
      expect(byId.get(id.pair!)).toMatchObject({ revenueTotal: 25.5, payingVoters: 2 });
      expect(byId.get(id.free!)).toMatchObject({ revenueTotal: 0, payingVoters: 0, voteCount: 3 });
      expect(byId.get(id.payingSubmitter!)).toMatchObject({ revenueTotal: 0, payingVoters: 0, submitterIsPaying: true });
      const payers = await list("&payer=only&sort=revenue");
      expect(ids(payers.requests)).toEqual([id.whale, id.pair, id.payingSubmitter]);
      expect(payers.total).toBe(3);
    });

    it("pages with limit and offset, total independent of the page", async () => {
      const page = await list("&limit=2&offset=1");
      expect(ids(page.requests)).toEqual([id.pair, id.whale]);
      expect(page.total).toBe(4);
      expect((await ws.console.get(`/workspaces/${ws.wsId}/feature-requests?limit=201`)).status).toBe(400);
      expect((await ws.console.get(`/workspaces/${ws.wsId}/feature-requests?sort=top`)).status).toBe(400);
    });

    it("filters by a case-insensitive substring of title or description", async () => {
      expect(ids((await list("&q=PORT")).requests)).toEqual([id.pair, id.free]);
      expect(ids((await list("&q=sign-on")).requests)).toEqual([id.whale]);
      expect((await list("&q=zebra")).total).toBe(0);
    });

    it("filters by column, version and moderation, and counts pending requests apart", async () => {
      const columns = await columnsOf(ws);
      const version = await ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/versions`, { label: "3.1" });
      await ws.console.put(`/workspaces/${ws.wsId}/feature-requests/${id.whale}`, { columnId: columns["in-progress"], versionId: version.body.id });
      expect(ids((await list(`&columnId=${columns["in-progress"]}`)).requests)).toEqual([id.whale]);
      expect(ids((await list(`&versionId=${version.body.id}`)).requests)).toEqual([id.whale]);

      await ws.console.put(`/workspaces/${ws.wsId}/apps/${ws.appId}/settings`, { moderationPolicy: "all" });
      const pendingId = await propose(ws.appKey, "Waiting for review", "sub-e");
      await ws.console.post(`/workspaces/${ws.wsId}/feature-requests/${id.payingSubmitter}/decline`);
      const pending = await list("&moderation=pending");
      expect(ids(pending.requests)).toEqual([pendingId]);
      expect(pending).toMatchObject({ total: 1, pendingTotal: 1 });
      expect(ids((await list("&moderation=declined")).requests)).toEqual([id.payingSubmitter]);
      const approved = await list("&moderation=approved");
      expect(approved).toMatchObject({ total: 3, pendingTotal: 1 });
      expect((await list("&q=zebra")).pendingTotal).toBe(1);
    });

    it("lists every app of the workspace without appId, and 404s an app of another workspace", async () => {
      const second = await ws.console.post(`/workspaces/${ws.wsId}/apps`, { name: "Another app" });
      await ws.console.post(`/workspaces/${ws.wsId}/feature-requests`, { appId: second.body.appId, title: "In the second app" });
      const all = await ws.console.get(`/workspaces/${ws.wsId}/feature-requests?limit=200`);
      expect(all.body.requests.map((r: Item) => r.title)).toContain("In the second app");
      expect(all.body.total).toBe((await list()).total + 1);
      const elsewhere = await freshApp();
      const res = await ws.console.get(`/workspaces/${ws.wsId}/feature-requests?appId=${elsewhere.appId}`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("app_not_found");
    });
  });

  describe("editing", () => {
    it("renames a request so public search finds the new title, and logs edited", async () => {
      const ws = await freshApp();
      const id = await propose(ws.appKey, "Export to PDF");
      const res = await ws.console.put(`/workspaces/${ws.wsId}/feature-requests/${id}`, { title: "Printable reports", description: "Landscape too" });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ title: "Printable reports", description: "Landscape too" });
      expect(ids((await publicList(ws.appKey, "&q=printable")).requests)).toEqual([id]);
      expect(ids((await publicList(ws.appKey, "&q=landscape")).requests)).toEqual([id]);
      expect((await publicList(ws.appKey, "&q=pdf")).total).toBe(0);
      expect((await eventsOf(ws, id, "edited")).map((e) => e.data)).toEqual([{ fields: ["title", "description"] }]);
      const blank = await ws.console.put(`/workspaces/${ws.wsId}/feature-requests/${id}`, { title: "  " });
      expect(blank.status).toBe(400);
      expect((await detail(ws, id)).title).toBe("Printable reports");
    });

    it("moves a request: the public listing shows the new column and the history a moved event", async () => {
      const ws = await freshApp();
      const columns = await columnsOf(ws);
      const id = await propose(ws.appKey, "Tags");
      const res = await ws.console.put(`/workspaces/${ws.wsId}/feature-requests/${id}`, { columnSlug: "in-progress" });
      expect(res.body).toMatchObject({ columnId: columns["in-progress"], status: "in-progress" });
      const listed = (await publicList(ws.appKey)).requests.find((r) => r.id === id);
      expect(listed).toMatchObject({ columnSlug: "in-progress", status: "in-progress", columnName: "In progress" });
      expect((await eventsOf(ws, id, "moved")).map((e) => e.data)).toEqual([{ fromColumnId: columns["under-review"], toColumnId: columns["in-progress"] }]);
      // Moving to where it already is changes nothing.
      await ws.console.put(`/workspaces/${ws.wsId}/feature-requests/${id}`, { columnId: columns["in-progress"] });
      expect(await eventsOf(ws, id, "moved")).toHaveLength(1);
    });

    it("records shipped once when a request enters the done column, even if moved out and back", async () => {
      const ws = await freshApp();
      const columns = await columnsOf(ws);
      const id = await propose(ws.appKey, "Widgets");
      const put = (columnSlug: string) => ws.console.put(`/workspaces/${ws.wsId}/feature-requests/${id}`, { columnSlug });
      expect((await put("shipped")).body.status).toBe("shipped");
      t.clock.advance(1000);
      await put("planned");
      t.clock.advance(1000);
      await put("shipped");
      expect((await eventsOf(ws, id, "shipped")).map((e) => e.data)).toEqual([{ columnId: columns.shipped }]);
      expect(await eventsOf(ws, id, "moved")).toHaveLength(3);
      const other = await ws.console.post(`/workspaces/${ws.wsId}/feature-requests`, { appId: ws.appId, title: "Born shipped", columnSlug: "shipped" });
      expect(await eventsOf(ws, other.body.id, "shipped")).toHaveLength(1);
    });

    it("sets and clears the version and logs version_changed", async () => {
      const ws = await freshApp();
      const id = await propose(ws.appKey, "Versioned");
      const version = await ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/versions`, { label: "4.0", released: true });
      expect((await ws.console.put(`/workspaces/${ws.wsId}/feature-requests/${id}`, { versionId: version.body.id })).body).toMatchObject({ versionLabel: "4.0", releasedVersion: "4.0" });
      expect((await publicList(ws.appKey, `&versionId=${version.body.id}`)).total).toBe(1);
      t.clock.advance(1000);
      expect((await ws.console.put(`/workspaces/${ws.wsId}/feature-requests/${id}`, { versionId: null })).body.versionId).toBeNull();
      expect((await eventsOf(ws, id, "version_changed")).map((e) => e.data)).toEqual([
        { fromVersionId: version.body.id, toVersionId: null },
        { fromVersionId: null, toVersionId: version.body.id },
      ]);
    });

    it("refuses a column or version of another app and leaves the request as it was", async () => {
      const ws = await freshApp();
      const id = await propose(ws.appKey, "Stay put");
      const second = await ws.console.post(`/workspaces/${ws.wsId}/apps`, { name: "Other app" });
      const foreign = (await ws.console.get(`/workspaces/${ws.wsId}/apps/${second.body.appId}/columns`)).body.columns[2].id;
      const foreignVersion = await ws.console.post(`/workspaces/${ws.wsId}/apps/${second.body.appId}/versions`, { label: "1" });
      const moved = await ws.console.put(`/workspaces/${ws.wsId}/feature-requests/${id}`, { title: "Renamed", columnId: foreign });
      expect(moved.status).toBe(404);
      expect(moved.body.code).toBe("column_not_found");
      const versioned = await ws.console.put(`/workspaces/${ws.wsId}/feature-requests/${id}`, { title: "Renamed", versionId: foreignVersion.body.id });
      expect(versioned.body.code).toBe("version_not_found");
      const after = await detail(ws, id);
      expect(after).toMatchObject({ title: "Stay put", status: "under-review", versionId: null });
      expect(after.events.map((e: { type: string }) => e.type)).toEqual(["created"]);
    });
  });

  describe("moderation", () => {
    it("approves a pending request so it becomes public, and declines it again", async () => {
      const ws = await freshApp({ moderationPolicy: "all" });
      const id = await propose(ws.appKey, "Needs review");
      expect((await publicList(ws.appKey)).total).toBe(0);
      const approved = await ws.console.post(`/workspaces/${ws.wsId}/feature-requests/${id}/approve`);
      expect(approved.status).toBe(200);
      expect(approved.body).toMatchObject({ moderation: "approved", approved: true, approvedAt: expect.any(String) });
      expect(ids((await publicList(ws.appKey)).requests)).toEqual([id]);
      const declined = await ws.console.post(`/workspaces/${ws.wsId}/feature-requests/${id}/decline`);
      expect(declined.body).toMatchObject({ moderation: "declined", approved: false, approvedAt: null });
      expect((await publicList(ws.appKey)).total).toBe(0);
      expect((await publicComments(id)).statusCode).toBe(404);
      // approved: true through PUT is the same as approving.
      expect((await ws.console.put(`/workspaces/${ws.wsId}/feature-requests/${id}`, { approved: true })).body.moderation).toBe("approved");
      expect((await publicList(ws.appKey)).total).toBe(1);
      const types = (await detail(ws, id)).events.map((e: { type: string }) => e.type);
      expect(types.filter((type: string) => type !== "created").sort()).toEqual(["approved", "approved", "declined"]);
      // Approving what is approved logs nothing new.
      await ws.console.post(`/workspaces/${ws.wsId}/feature-requests/${id}/approve`);
      expect(await eventsOf(ws, id, "approved")).toHaveLength(2);
    });

    it("approves and declines in bulk, counting only requests that changed", async () => {
      const ws = await freshApp({ moderationPolicy: "all" });
      const a = await propose(ws.appKey, "Bulk one");
      const b = await propose(ws.appKey, "Bulk two");
      const c = await propose(ws.appKey, "Bulk three");
      const path = `/workspaces/${ws.wsId}/feature-requests/bulk-moderate`;
      const approved = await ws.console.post(path, { ids: [a, b, a], action: "approve" });
      expect(approved.status).toBe(200);
      expect(approved.body.updatedCount).toBe(2);
      expect([...approved.body.updatedIds].sort()).toEqual([a, b].sort());
      expect(ids((await publicList(ws.appKey)).requests).sort()).toEqual([a, b].sort());
      const declined = await ws.console.post(path, { ids: [b, c], action: "decline" });
      expect(declined.body).toMatchObject({ updatedCount: 2 });
      expect(ids((await publicList(ws.appKey)).requests)).toEqual([a]);
      expect((await ws.console.post(path, { ids: [], action: "approve" })).status).toBe(400);
      expect((await ws.console.post(path, { ids: [c], action: "ship" })).status).toBe(400);
    });

    it("refuses a bulk batch naming another workspace's request, changing nothing", async () => {
      const ws = await freshApp({ moderationPolicy: "all" });
      const other = await freshApp({ moderationPolicy: "all" });
      const mine = await propose(ws.appKey, "Mine");
      const theirs = await propose(other.appKey, "Theirs");
      const res = await ws.console.post(`/workspaces/${ws.wsId}/feature-requests/bulk-moderate`, { ids: [mine, theirs], action: "approve" });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("feature_request_not_found");
      expect((await publicList(ws.appKey)).total).toBe(0);
      expect((await publicList(other.appKey)).total).toBe(0);
    });
  });

  describe("merging", () => {
    it("merges a duplicate: votes counted once per user, comments moved, the duplicate hidden", async () => {
      const ws = await freshApp();
      const target = await propose(ws.appKey, "Dark mode");
      const duplicate = await propose(ws.appKey, "Night theme please");
      for (const token of ["ann", "ben"]) await vote(target, token);
      for (const token of ["ben", "cat"]) await vote(duplicate, token);
      const moved = await comment(duplicate, "Me too", "cat");
      await comment(target, "Original thread", "ann");
      expect(ids((await publicList(ws.appKey, "&q=night")).requests)).toEqual([duplicate]);

      const res = await ws.console.post(`/workspaces/${ws.wsId}/feature-requests/${duplicate}/merge`, { intoId: target });
      expect(res.status).toBe(200);
      expect(res.body.target).toMatchObject({ id: target, voteCount: 3, commentCount: 2, mergedIntoId: null });
      expect(res.body.duplicate).toMatchObject({ id: duplicate, voteCount: 0, commentCount: 0, mergedIntoId: target });

      const listed = await publicList(ws.appKey);
      expect(ids(listed.requests)).toEqual([target]);
      expect(listed.requests[0]).toMatchObject({ voteCount: 3, commentCount: 2 });
      expect((await publicList(ws.appKey, "&q=night")).total).toBe(0);
      const threads = await publicComments(target);
      expect(threads.json().comments.map((c: { id: string }) => c.id)).toContain(moved);
      expect((await vote(duplicate, "dan")).statusCode).toBe(404);
      expect((await publicComments(duplicate)).statusCode).toBe(404);
      // "ben" voted on both: one vote, and toggling it removes it.
      expect((await vote(target, "ben")).json()).toEqual({ voted: false, voteCount: 2 });

      expect((await detail(ws, duplicate)).mergedIntoId).toBe(target);
      expect((await eventsOf(ws, duplicate, "merged")).map((e) => e.data)).toEqual([{ intoId: target }]);
      expect((await eventsOf(ws, target, "merged")).map((e) => e.data)).toEqual([{ fromId: duplicate }]);
      const consoleList = await ws.console.get(`/workspaces/${ws.wsId}/feature-requests`);
      expect(ids(consoleList.body.requests)).toEqual([target]);
      const withMerged = await ws.console.get(`/workspaces/${ws.wsId}/feature-requests?includeMerged=true`);
      expect(ids(withMerged.body.requests).sort()).toEqual([target, duplicate].sort());
    });

    it("refuses merging into itself, into a merged request, across apps or workspaces, and writes nothing", async () => {
      const ws = await freshApp();
      const a = await propose(ws.appKey, "Alpha");
      const b = await propose(ws.appKey, "Beta");
      const c = await propose(ws.appKey, "Gamma");
      await vote(a, "voter");
      const second = await ws.console.post(`/workspaces/${ws.wsId}/apps`, { name: "Second" });
      const otherApp = await ws.console.post(`/workspaces/${ws.wsId}/feature-requests`, { appId: second.body.appId, title: "Elsewhere" });
      const otherWs = await freshApp();
      const foreign = await propose(otherWs.appKey, "Foreign");
      const merge = (id: string, intoId: string) => ws.console.post(`/workspaces/${ws.wsId}/feature-requests/${id}/merge`, { intoId });

      const self = await merge(a, a);
      expect(self.status).toBe(400);
      expect(self.body.details.fieldErrors.intoId).toEqual(["A request cannot be merged into itself"]);
      expect((await merge(a, otherApp.body.id)).status).toBe(400);
      expect((await merge(a, foreign)).status).toBe(404);
      expect((await merge(a, "fr_00000000000000000000000000")).status).toBe(404);
      expect((await merge(b, c)).status).toBe(200);
      expect((await merge(a, b)).status).toBe(400);
      expect((await merge(b, a)).status).toBe(400);

      expect(await detail(ws, a)).toMatchObject({ mergedIntoId: null, voteCount: 1 });
      expect(await eventsOf(ws, a, "merged")).toEqual([]);
      expect(await eventsOf(otherWs, foreign, "merged")).toEqual([]);
    });
  });

  describe("deleting", () => {
    it("lets members triage but only admins delete, with votes and comments gone", async () => {
      const ws = await freshApp({ moderationPolicy: "all" });
      const member = await userWith(ws, "member", "mo@example.com");
      const id = await propose(ws.appKey, "Delete me");
      const approved = await member.post(`/workspaces/${ws.wsId}/feature-requests/${id}/approve`);
      expect(approved.status).toBe(200);
      await vote(id, "voter");
      await comment(id, "A comment");
      expect((await member.put(`/workspaces/${ws.wsId}/feature-requests/${id}`, { columnSlug: "planned", title: "Moved by a member" })).status).toBe(200);

      const refused = await member.delete(`/workspaces/${ws.wsId}/feature-requests/${id}`);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe("capability_required");
      expect((await publicList(ws.appKey)).total).toBe(1);

      const deleted = await ws.console.delete(`/workspaces/${ws.wsId}/feature-requests/${id}`);
      expect(deleted.body).toEqual({ success: true });
      expect((await publicList(ws.appKey)).total).toBe(0);
      expect((await publicList(ws.appKey, "&q=member")).total).toBe(0);
      expect((await ws.console.get(`/workspaces/${ws.wsId}/feature-requests/${id}`)).status).toBe(404);
      expect((await ws.console.delete(`/workspaces/${ws.wsId}/feature-requests/${id}`)).status).toBe(404);
      const db = t.database.db.kysely;
      expect(await db.selectFrom("featureRequestVotes").select("endUserId").where("featureRequestId", "=", id).execute()).toEqual([]);
      expect(await db.selectFrom("featureRequestComments").select("id").where("featureRequestId", "=", id).execute()).toEqual([]);
      const events = await db.selectFrom("featureRequestEvents").select(["type", "actor"]).where("featureRequestId", "=", id).where("type", "=", "deleted").execute();
      expect(events).toEqual([{ type: "deleted", actor: "admin" }]);
    });
  });

  describe("comments", () => {
    it("hides, shows and deletes comments; the public list and commentCount follow", async () => {
      const ws = await freshApp();
      const id = await propose(ws.appKey, "Talk about me");
      const rude = await comment(id, "Rude words", "troll");
      const reply = await comment(id, "Please be nice", "mod", rude);
      await comment(id, "Nice idea", "fan");
      const publicCount = async () => (await publicList(ws.appKey)).requests.find((r) => r.id === id)?.commentCount;
      expect(await publicCount()).toBe(3);

      expect((await ws.console.patch(`/workspaces/${ws.wsId}/comments/${rude}/hide`, { isHidden: true })).body).toEqual({ success: true });
      expect((await publicComments(id)).json().comments.map((c: { body: string }) => c.body)).toEqual(["Please be nice", "Nice idea"]);
      expect(await publicCount()).toBe(2);
      const consoleView = await ws.console.get(`/workspaces/${ws.wsId}/feature-requests/${id}/comments`);
      expect(consoleView.body.total).toBe(3);
      expect(consoleView.body.comments.find((c: { id: string }) => c.id === rude)).toMatchObject({ isHidden: true, body: "Rude words" });

      await ws.console.patch(`/workspaces/${ws.wsId}/comments/${rude}/hide`, { isHidden: false });
      expect(await publicCount()).toBe(3);

      expect((await ws.console.delete(`/workspaces/${ws.wsId}/comments/${rude}`)).body).toEqual({ success: true });
      const after = (await publicComments(id)).json();
      expect(after.comments.map((c: { id: string }) => c.id)).not.toContain(rude);
      expect(after.comments.find((c: { id: string }) => c.id === reply)).toMatchObject({ parentId: rude, replyToAuthorName: "troll" });
      expect(await publicCount()).toBe(2);
      expect((await ws.console.delete(`/workspaces/${ws.wsId}/comments/${rude}`)).status).toBe(404);
      expect((await ws.console.patch(`/workspaces/${ws.wsId}/comments/${rude}/hide`, { isHidden: true })).body.code).toBe("comment_not_found");
    });

    it("posts team replies marked isTeam and signed by the user, or Team for the operator", async () => {
      const ws = await freshApp();
      const id = await propose(ws.appKey, "Ask the team");
      const question = await comment(id, "When?", "asker");
      const named = await userWith(ws, "member", "nina@example.com", "Nina from Acme");
      const unnamed = await userWith(ws, "member", "omar.k@example.com");

      const reply = await named.post(`/workspaces/${ws.wsId}/feature-requests/${id}/comments`, { body: " Next month ", parentId: question });
      expect(reply.status).toBe(201);
      expect(reply.body).toMatchObject({ body: "Next month", isTeam: true, authorName: "Nina from Acme", parentId: question, replyToAuthorName: "asker", authorClerkId: null });
      t.clock.advance(1000);
      expect((await unnamed.post(`/workspaces/${ws.wsId}/feature-requests/${id}/comments`, { body: "Indeed" })).body.authorName).toBe("omar.k");
      t.clock.advance(1000);
      expect((await ws.console.post(`/workspaces/${ws.wsId}/feature-requests/${id}/comments`, { body: "Shipped soon" })).body.authorName).toBe("Team");

      const listed = (await publicComments(id)).json();
      expect(listed.comments.filter((c: { isTeam: boolean }) => c.isTeam).map((c: { authorName: string }) => c.authorName)).toEqual(["Nina from Acme", "omar.k", "Team"]);
      const stored = await t.database.db.kysely.selectFrom("featureRequestComments").select("teamUserId").where("id", "=", reply.body.id).executeTakeFirstOrThrow();
      expect(stored.teamUserId).toMatch(/^usr_/);
      expect((await publicList(ws.appKey)).requests[0]?.commentCount).toBe(4);
      expect((await ws.console.post(`/workspaces/${ws.wsId}/feature-requests/${id}/comments`, { body: "   " })).status).toBe(400);
      expect((await ws.console.post(`/workspaces/${ws.wsId}/feature-requests/${id}/comments`, { body: "x", parentId: "cmt_00000000000000000000000000" })).body.code).toBe("invalid_parent");
      expect(listed.total).toBe(4);
    });
  });

  describe("workspace boundaries", () => {
    it("answers 404 for another workspace's request and comment, and leaves them unchanged", async () => {
      const mine = await freshApp();
      const theirs = await freshApp({ moderationPolicy: "all" });
      const id = await propose(theirs.appKey, "Not yours");
      const theirComment = await t.app.inject({
        method: "POST",
        url: `/api/v1/console/workspaces/${theirs.wsId}/feature-requests/${id}/comments`,
        headers: t.admin,
        payload: { body: "Internal note" },
      });
      const base = `/workspaces/${mine.wsId}`;
      const attempts = [
        await mine.console.get(`${base}/feature-requests/${id}`),
        await mine.console.put(`${base}/feature-requests/${id}`, { title: "Hijacked", approved: true }),
        await mine.console.post(`${base}/feature-requests/${id}/approve`),
        await mine.console.post(`${base}/feature-requests/${id}/merge`, { intoId: "fr_00000000000000000000000000" }),
        await mine.console.delete(`${base}/feature-requests/${id}`),
        await mine.console.get(`${base}/feature-requests/${id}/comments`),
        await mine.console.post(`${base}/feature-requests/${id}/comments`, { body: "Hello" }),
      ];
      for (const res of attempts) {
        expect(res.status).toBe(404);
        expect(res.body.code).toBe("feature_request_not_found");
      }
      for (const res of [
        await mine.console.patch(`${base}/comments/${theirComment.json().id}/hide`, { isHidden: true }),
        await mine.console.delete(`${base}/comments/${theirComment.json().id}`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body.code).toBe("comment_not_found");
      }
      const untouched = await detail(theirs, id);
      expect(untouched).toMatchObject({ title: "Not yours", moderation: "pending", commentCount: 1 });
      expect(untouched.events.map((e: { type: string }) => e.type)).toEqual(["created"]);
      // A user of another workspace does not even learn the workspace exists.
      const outsider = await userWith(mine, "owner", "outsider@example.com");
      expect((await outsider.get(`/workspaces/${theirs.wsId}/feature-requests`)).body.code).toBe("workspace_not_found");
    });
  });
});
