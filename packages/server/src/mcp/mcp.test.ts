import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import { call, connectHttp, connectStdio, PUBLIC_URL, seedOtherWorkspace, seedWorkspace, type Connection } from "@tidings/testing/mcp-kit";

const READ_TOOLS = ["list_apps", "search_requests", "get_request", "get_company", "search_feedback", "get_feedback", "summarize_changes"];
const WRITE_TOOLS = ["merge_requests", "link_feedback", "unlink_feedback", "draft_changelog"];

describe.each(testDialects())("MCP server on %s", (dialect) => {
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { publicUrl: PUBLIC_URL });
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  describe.each(["http", "stdio"] as const)("over %s", (transport) => {
    let ws: Awaited<ReturnType<typeof seedWorkspace>>;
    let other: Awaited<ReturnType<typeof seedOtherWorkspace>>;
    let writer: Connection;
    let reader: Connection;
    const open: Connection[] = [];
    const connect = async (token: string) => {
      const connection = transport === "http" ? await connectHttp(baseUrl, token) : await connectStdio(t, token);
      open.push(connection);
      return connection;
    };
    const db = () => t.database.db.kysely;
    const mergedEvents = (id: string) => db().selectFrom("featureRequestEvents").select("id").where("featureRequestId", "=", id).where("type", "=", "merged").execute();
    const entriesOf = (appId: string) => db().selectFrom("changelogEntries").selectAll().where("appId", "=", appId).execute();

    beforeAll(async () => {
      ws = await seedWorkspace(t, `mcp-${dialect}-${transport}`);
      other = await seedOtherWorkspace(t, `mcp-${dialect}-${transport}-other`);
      writer = await connect(ws.tokens.readWrite.token);
      reader = await connect(ws.tokens.read.token);
    });
    afterAll(async () => {
      for (const connection of open) await connection.close();
    });

    it("lists every tool to a read-write token and only the read tools to a read token, which may not call the others", async () => {
      expect((await writer.client.listTools()).tools.map((tool) => tool.name)).toEqual([...READ_TOOLS, ...WRITE_TOOLS]);
      const readTools = (await reader.client.listTools()).tools;
      expect(readTools.map((tool) => tool.name)).toEqual(READ_TOOLS);
      expect(readTools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);

      const refused = await call(reader, "merge_requests", { duplicateId: ws.ids.nightTheme, intoId: ws.ids.darkMode });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/merge_requests not found/);
      expect(await mergedEvents(ws.ids.nightTheme)).toEqual([]);
      expect((await call(reader, "draft_changelog", { appId: ws.appId })).isError).toBe(true);
      expect(await entriesOf(ws.appId)).toEqual([]);
    });

    it("searches requests by text, tag and column, sorted by votes or by paying voters' revenue, with ids and links", async () => {
      const byVotes = await call(reader, "search_requests", { appId: ws.appId });
      expect(byVotes.isError).toBe(false);
      expect(byVotes.body.total).toBe(4);
      expect(byVotes.body.requests.map((r: { id: string }) => r.id)).toEqual([ws.ids.darkMode, ws.ids.nightTheme, ws.ids.sso, ws.ids.csvExport]);
      expect(byVotes.body.requests[0]).toMatchObject({
        id: ws.ids.darkMode,
        title: "Dark mode",
        voteCount: 3,
        column: { id: ws.columns.planned, slug: "planned" },
        tags: [{ id: ws.tagId, name: "Accessibility" }],
        portalUrl: `${PUBLIC_URL}/p/${ws.appKey}/requests/${ws.ids.darkMode}-dark-mode`,
        dashboardUrl: `${PUBLIC_URL}/admin/w/${ws.wsId}/a/${ws.appId}/requests/${ws.ids.darkMode}`,
      });

      const byRevenue = await call(reader, "search_requests", { sort: "revenue", limit: 1 });
      expect(byRevenue.body).toMatchObject({ total: 4, hasMore: true });
      expect(byRevenue.body.requests).toMatchObject([{ id: ws.ids.sso, payingVoters: 1, payingVoterRevenue: 50 }]);

      const dark = await call(reader, "search_requests", { text: "DARK" });
      expect(dark.body.requests.map((r: { id: string }) => r.id)).toEqual([ws.ids.darkMode, ws.ids.nightTheme]);
      expect((await call(reader, "search_requests", { tagIds: [ws.tagId] })).body.requests.map((r: { id: string }) => r.id)).toEqual([ws.ids.darkMode]);
      expect((await call(reader, "search_requests", { columnId: ws.columns.shipped })).body.requests.map((r: { id: string }) => r.id)).toEqual([ws.ids.csvExport]);
    });

    it("gets a request with its board, tags, custom fields, history and comments", async () => {
      const got = await call(reader, "get_request", { id: ws.ids.darkMode });
      expect(got.isError).toBe(false);
      expect(got.body.request).toMatchObject({
        id: ws.ids.darkMode,
        description: "Easier on the eyes at night",
        board: { slug: "feature-requests", visibility: "public" },
        tags: [{ id: ws.tagId, slug: "accessibility" }],
        fields: [],
        voteCount: 3,
      });
      expect(got.body.request.history.map((e: { type: string }) => e.type)).toContain("created");
      expect(got.body.comments).toMatchObject({ total: 1, hasMore: false, items: [{ authorName: "Vera", body: "Please follow the system setting", isTeam: false, isHidden: false }] });
    });

    it("lists and searches feedback, and gets one whole", async () => {
      const all = await call(reader, "search_feedback", {});
      expect(all.body.total).toBe(1);
      expect(all.body.feedback[0]).toMatchObject({ id: ws.feedbackId, title: "Crash on launch", platform: "ios", triageStatus: "open", dashboardUrl: `${PUBLIC_URL}/admin/w/${ws.wsId}/feedback` });
      expect((await call(reader, "search_feedback", { text: "splash" })).body.total).toBe(1);
      expect((await call(reader, "search_feedback", { text: "keyboard" })).body.total).toBe(0);
      expect((await call(reader, "search_feedback", { triageStatus: "resolved" })).body.total).toBe(0);
      const one = await call(reader, "get_feedback", { id: ws.feedbackId });
      expect(one.body.feedback).toMatchObject({ id: ws.feedbackId, description: "The app closes right after the splash screen", reporterName: "Ivo" });
    });

    it("summarises what changed since a date: new requests, moves, shipped, top voted, feedback, releases", async () => {
      const summary = await call(reader, "summarize_changes", { since: ws.since });
      expect(summary.isError).toBe(false);
      expect(summary.body.newRequests.count).toBe(4);
      expect(summary.body.newRequests.items.map((r: { id: string }) => r.id).sort()).toEqual(Object.values(ws.ids).sort());
      expect(summary.body.statusMoves.count).toBe(2);
      expect(summary.body.statusMoves.items[0]).toMatchObject({ requestId: ws.ids.sso, from: { id: ws.columns.shipped, name: "Shipped" }, to: { id: ws.columns["in-progress"], name: "In progress" } });
      expect(summary.body.shipped.items.map((s: { requestId: string }) => s.requestId).sort()).toEqual([ws.ids.csvExport, ws.ids.sso].sort());
      expect(summary.body.topVoted[0]).toMatchObject({ requestId: ws.ids.darkMode, newVotes: 3 });
      expect(summary.body.newFeedback).toMatchObject({ count: 1, items: [{ id: ws.feedbackId }] });
      expect(summary.body.publishedReleases).toEqual({ count: 0, items: [] });

      const later = await call(reader, "summarize_changes", { since: "2099-01-01" });
      expect(later.body).toMatchObject({ newRequests: { count: 0 }, statusMoves: { count: 0 }, topVoted: [], newFeedback: { count: 0 } });
    });

    it("refuses bad input with a tool error naming the field, and writes nothing", async () => {
      const cases: [string, Record<string, unknown>, RegExp][] = [
        ["search_requests", { sort: "loudest" }, /sort/],
        ["search_requests", { limit: 500 }, /limit/],
        ["search_requests", { sortBy: "votes" }, /sortBy/],
        ["search_requests", { boardId: "brd_00000000000000000000000000" }, /board_not_found.*boardId/],
        ["get_request", { id: "not-an-id" }, /id/],
        ["get_request", { id: other.requestId }, /feature_request_not_found.*"fields":\["id"\]/],
        ["summarize_changes", { since: "last week" }, /since/],
        ["merge_requests", { duplicateId: ws.ids.darkMode }, /intoId/],
        ["merge_requests", { duplicateId: ws.ids.darkMode, intoId: ws.ids.darkMode }, /validation_failed.*"fields":\["intoId"\]/],
        ["merge_requests", { duplicateId: other.requestId, intoId: ws.ids.darkMode }, /feature_request_not_found.*"fields":\["duplicateId"\]/],
        ["draft_changelog", { appId: ws.appId, requestIds: [ws.ids.darkMode] }, /not shipped.*"fields":\["requestIds"\]/],
        ["draft_changelog", { appId: other.appId }, /app_not_found.*"fields":\["appId"\]/],
      ];
      for (const [tool, args, message] of cases) {
        const answer = await call(writer, tool, args);
        expect({ tool, args, isError: answer.isError }).toEqual({ tool, args, isError: true });
        expect(answer.text, `${tool} ${JSON.stringify(args)}`).toMatch(message);
      }
      expect(await mergedEvents(ws.ids.darkMode)).toEqual([]);
      expect(await entriesOf(ws.appId)).toEqual([]);
    });

    it("shows a token of another workspace nothing of this one, and lets it change nothing", async () => {
      const otto = await connect(other.token);
      const apps = await call(otto, "list_apps");
      expect(apps.body.apps.map((a: { id: string }) => a.id)).toEqual([other.appId]);
      const found = await call(otto, "search_requests", { text: "dark" });
      expect(found.body).toMatchObject({ total: 0, requests: [] });
      expect((await call(otto, "search_requests", {})).body.requests.map((r: { id: string }) => r.id)).toEqual([other.requestId]);
      expect((await call(otto, "search_requests", { appId: ws.appId })).text).toMatch(/app_not_found/);
      expect((await call(otto, "get_request", { id: ws.ids.darkMode })).text).toMatch(/feature_request_not_found/);
      expect((await call(otto, "get_feedback", { id: ws.feedbackId })).text).toMatch(/submission_not_found/);
      expect((await call(otto, "search_feedback", {})).body.total).toBe(0);
      expect((await call(otto, "summarize_changes", { since: ws.since })).body.newRequests.items.map((r: { id: string }) => r.id)).toEqual([other.requestId]);
      expect((await call(otto, "merge_requests", { duplicateId: ws.ids.nightTheme, intoId: ws.ids.darkMode })).text).toMatch(/feature_request_not_found/);
      expect((await call(otto, "draft_changelog", { appId: ws.appId })).text).toMatch(/app_not_found/);
      expect(await mergedEvents(ws.ids.nightTheme)).toEqual([]);
      expect(await entriesOf(ws.appId)).toEqual([]);
    });

    it("merges a duplicate once, however often it is asked", async () => {
      const first = await call(writer, "merge_requests", { duplicateId: ws.ids.nightTheme, intoId: ws.ids.darkMode });
      expect(first.isError).toBe(false);
      // v1 voted for both: counted once.
      expect(first.body).toMatchObject({ merged: true, alreadyMerged: false, duplicate: { id: ws.ids.nightTheme, mergedIntoId: ws.ids.darkMode, portalUrl: null }, target: { id: ws.ids.darkMode, voteCount: 4 } });
      const again = await call(writer, "merge_requests", { duplicateId: ws.ids.nightTheme, intoId: ws.ids.darkMode });
      expect(again.body).toMatchObject({ merged: false, alreadyMerged: true, target: { voteCount: 4 } });

      expect(await mergedEvents(ws.ids.nightTheme)).toHaveLength(1);
      expect(await mergedEvents(ws.ids.darkMode)).toHaveLength(1);
      const votes = await db().selectFrom("featureRequestVotes").select("endUserId").where("featureRequestId", "=", ws.ids.darkMode).execute();
      expect(votes).toHaveLength(4);
      const events = await db().selectFrom("featureRequestEvents").select("actor").where("featureRequestId", "=", ws.ids.nightTheme).where("type", "=", "merged").executeTakeFirstOrThrow();
      expect(events.actor).toMatch(/^user:usr_/);
      expect((await call(writer, "search_requests", { appId: ws.appId })).body.requests.map((r: { id: string }) => r.id)).not.toContain(ws.ids.nightTheme);
    });

    it("drafts release notes from shipped requests and never publishes them", async () => {
      const drafted = await call(writer, "draft_changelog", { appId: ws.appId, versionLabel: "2.4" });
      expect(drafted.isError).toBe(false);
      expect(drafted.body.entry).toMatchObject({
        status: "draft",
        title: "What's new in 2.4",
        versionLabel: "2.4",
        linkedRequests: [{ id: ws.ids.csvExport, title: "CSV export" }],
        dashboardUrl: `${PUBLIC_URL}/admin/w/${ws.wsId}/a/${ws.appId}/changelog`,
      });
      expect(drafted.body.entry.body).toContain("- **CSV export**: Export every request to a spreadsheet");

      const rows = await entriesOf(ws.appId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ id: drafted.body.entry.id, status: "draft", publishedAt: null, notifiedAt: null, scheduledAt: null });
      const links = await db().selectFrom("changelogEntryRequests").select("featureRequestId").where("entryId", "=", drafted.body.entry.id).execute();
      expect(links).toEqual([{ featureRequestId: ws.ids.csvExport }]);
      const published = await t.app.inject({ url: `/api/v1/public/apps/${ws.appKey}/changelog` });
      expect(published.statusCode).toBe(200);
      expect(published.json().entries).toEqual([]);

      // Every shipped request is in a release now: a second draft has nothing to hold.
      const again = await call(writer, "draft_changelog", { appId: ws.appId });
      expect(again.isError).toBe(true);
      expect(again.text).toMatch(/no shipped request/);
      expect(await entriesOf(ws.appId)).toHaveLength(1);
    });

    it("refuses a revoked token, at once and on every later connection", async () => {
      const connection = await connect(ws.tokens.revocable.token);
      expect((await call(connection, "list_apps")).isError).toBe(false);
      await ws.revoke(ws.tokens.revocable.id);
      if (transport === "http") {
        await expect(connection.client.callTool({ name: "list_apps", arguments: {} })).rejects.toMatchObject({ code: 401, message: expect.stringMatching(/Invalid or revoked API token/) });
        await expect(connectHttp(baseUrl, ws.tokens.revocable.token)).rejects.toMatchObject({ code: 401 });
      } else {
        const refused = await call(connection, "list_apps");
        expect(refused.isError).toBe(true);
        expect(refused.text).toMatch(/unauthorized/);
        await expect(connectStdio(t, ws.tokens.revocable.token)).rejects.toThrow(/TIDINGS_TOKEN cannot be used: Invalid or revoked API token/);
      }
    });
  });
});
