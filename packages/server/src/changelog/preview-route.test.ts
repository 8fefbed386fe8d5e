import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleClient, createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";

describe.each(testDialects())("console: changelog preview on %s", (dialect) => {
  let t: TestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  beforeAll(async () => {
    t = await createTestApp(dialect, { demo: false });
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
  });
  afterAll(() => t.close());

  it("renders the editor preview as sanitised HTML", async () => {
    const res = await acme.console.post(`/workspaces/${acme.wsId}/changelog/preview`, { body: "## Hi\n\n**bold** <script>alert(1)</script> [x](javascript:alert(1)) <img src=x onerror=alert(1)>" });
    expect(res.status).toBe(200);
    expect(res.body.html).toContain("<h2>Hi</h2>");
    expect(res.body.html).toContain("<strong>bold</strong>");
    expect(res.body.html).not.toMatch(/script|javascript:|onerror/);
    expect((await consoleClient(t.app, "Bearer nope").post(`/workspaces/${acme.wsId}/changelog/preview`, { body: "x" })).status).toBe(401);
  });
});
