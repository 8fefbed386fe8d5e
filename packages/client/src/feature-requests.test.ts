import { describe, expect, it } from "vitest";
import { client, recorder } from "./testing/recorder.js";

describe("FeedbackClient feature requests", () => {
  it.each([
    ["header", "tok-1", null],
    ["query", undefined, "tok-1"],
    ["both", "tok-1", "tok-1"],
  ] as const)("sends the listing token per tokenTransport %s", async (tokenTransport, header, query) => {
    const { seen, fetch } = recorder(() => Response.json({ requests: [], total: 0, hasMore: false, nextCursor: null }));
    await client(fetch, { tokenTransport }).listFeatureRequests({ q: "  dark ", versionId: "v1" });
    const { url, headers } = seen[0]!;
    expect(headers["X-User-Token"]).toBe(header);
    expect(url.searchParams.get("userToken")).toBe(query);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ appKey: "app_demo", q: "dark", versionId: "v1", limit: "50", offset: "0" });
  });

  it("reads one request and similar titles with the app key and the user's token", async () => {
    const { seen, fetch } = recorder((s) => Response.json(s.url.pathname.endsWith("/similar") ? { requests: [{ id: "fr_1" }] } : { id: "fr_1" }));
    const c = client(fetch);
    expect(await c.getFeatureRequest("fr_1")).toEqual({ id: "fr_1" });
    expect(await c.findSimilarFeatureRequests("  dark mo ", { limit: 3 })).toEqual([{ id: "fr_1" }]);
    expect(await c.findSimilarFeatureRequests("   ")).toEqual([]);
    expect(seen).toHaveLength(2);
    expect(seen[0]!.url.pathname).toBe("/api/v1/feature-requests/fr_1");
    expect(seen[0]!.url.searchParams.get("appKey")).toBe("app_demo");
    expect(Object.fromEntries(seen[1]!.url.searchParams)).toEqual({ appKey: "app_demo", title: "dark mo", limit: "3" });
    expect(seen.map((s) => s.headers["X-User-Token"])).toEqual(["tok-1", "tok-1"]);
  });

  it("follows and unfollows a request with the user's token and the address, if any", async () => {
    const { seen, fetch } = recorder(() => Response.json({ following: false, pending: true }));
    const c = client(fetch, { ssoToken: "jwt" });
    expect(await c.followFeatureRequest("fr/1", { email: " ada@example.com " })).toEqual({ following: false, pending: true });
    await c.unfollowFeatureRequest("fr/1");
    expect(seen.map((s) => [s.method, s.url.pathname, s.body, s.headers["X-User-Token"], s.headers["X-SSO-Token"]])).toEqual([
      ["POST", "/api/v1/feature-requests/fr%2F1/subscription", { email: "ada@example.com" }, "tok-1", "jwt"],
      ["DELETE", "/api/v1/feature-requests/fr%2F1/subscription", {}, "tok-1", "jwt"],
    ]);
  });

  it("filters the listing by a board and repeats tag once per tag", async () => {
    const { seen, fetch } = recorder(() => Response.json({ requests: [], total: 0, hasMore: false, nextCursor: null }));
    const c = client(fetch);
    await c.listFeatureRequests({ board: " bugs ", tags: ["ui", "sync"] });
    await c.listFeatureRequests({ board: "", tags: [] });
    expect(seen[0]!.url.searchParams.get("board")).toBe("bugs");
    expect(seen[0]!.url.searchParams.getAll("tag")).toEqual(["ui", "sync"]);
    expect(seen[1]!.url.searchParams.has("board")).toBe(false);
    expect(seen[1]!.url.searchParams.has("tag")).toBe(false);
  });

  it("proposes to a board with custom field values, and leaves both out when the draft has none", async () => {
    const { seen, fetch } = recorder(() => Response.json({ featureRequestId: "fr_1", pending: false }, { status: 201 }));
    const c = client(fetch, { verificationTokenProvider: () => "" });
    await c.submitFeatureRequest({ title: " Dark mode ", board: "integrations", fields: { plan: "pro", seats: 12, accept: true, os: ["ios"] } });
    await c.submitFeatureRequest({ title: "Dark mode", board: " ", fields: {} });
    expect(seen[0]!.body).toMatchObject({ title: "Dark mode", board: "integrations", fields: { plan: "pro", seats: 12, accept: true, os: ["ios"] } });
    expect(Object.keys(seen[1]!.body as object)).not.toContain("board");
    expect(Object.keys(seen[1]!.body as object)).not.toContain("fields");
  });
});
