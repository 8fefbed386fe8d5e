import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { operationIdOf, requireRouteDocs } from "./route-docs.js";

describe("route documentation at registration", () => {
  it("refuses a documented route without a summary, and derives a unique operationId", async () => {
    const app = Fastify({ logger: false });
    requireRouteDocs(app);
    expect(() => app.get("/api/v1/things/:id", { schema: { tags: ["x"] } }, async () => ({}))).toThrow("GET /api/v1/things/:id needs an OpenAPI summary");
    app.get("/api/v1/hidden", { schema: { hide: true } }, async () => ({}));
    app.delete("/api/v1/things/:id/vote", { schema: { summary: "Remove a vote" } }, async () => ({}));
    expect(() => app.post("/api/v1/copy", { schema: { summary: "Copy", operationId: "deleteThingsByIdVote" } }, async () => ({}))).toThrow("operationId deleteThingsByIdVote is taken");
    await app.close();
  });

  it("names operations by method and path", () => {
    expect(operationIdOf("GET", "/api/v1/console/workspaces/:wsId/apps")).toBe("getConsoleWorkspacesByWsIdApps");
    expect(operationIdOf("POST", "/api/v1/public/apps/:appKey/changelog/unsubscribe")).toBe("postPublicAppsByAppKeyChangelogUnsubscribe");
    expect(operationIdOf("GET", "/healthz")).toBe("getHealthz");
  });
});
