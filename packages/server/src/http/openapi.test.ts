import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";

const serverRoot = fileURLToPath(new URL("../..", import.meta.url));

/** Type-checks `files` (name → source) as one program; answers the diagnostics as text. */
function typeCheck(dir: string, files: Record<string, string>): string[] {
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  const program = ts.createProgram(
    Object.keys(files).map((name) => path.join(dir, name)),
    { strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, lib: ["lib.es2022.d.ts", "lib.dom.d.ts"], types: [] },
  );
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
}

describe("the OpenAPI document", () => {
  let t: TestApp;
  let doc: Record<string, unknown>;
  let dir: string;
  beforeAll(async () => {
    t = await createTestApp("sqlite", { demo: false });
    doc = (await t.app.inject({ url: "/api/v1/openapi.json" })).json();
    // Inside the package, so the generated client resolves openapi-fetch from its node_modules.
    fs.mkdirSync(path.join(serverRoot, "node_modules/.cache"), { recursive: true });
    dir = fs.mkdtempSync(path.join(serverRoot, "node_modules/.cache/openapi-client-"));
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("gives openapi-typescript + openapi-fetch a client that types X-User-Token and the answer", async () => {
    const types = astToString(await openapiTS(doc as never));
    const client = [
      `import createClient from "openapi-fetch";`,
      `import type { paths } from "./api";`,
      `const client = createClient<paths>({ baseUrl: "https://tidings.example" });`,
      `export async function firstTitle(): Promise<string | undefined> {`,
      `  const { data, error } = await client.GET("/api/v1/feature-requests", {`,
      `    params: { query: { appKey: "app_demo" }, header: { "X-User-Token": "user-42", "X-User-Hash": "ab12" } },`,
      `  });`,
      `  if (error !== undefined) return error.code;`,
      `  return data.requests[0]?.title;`,
      `}`,
      `export const vote = client.POST("/api/v1/feature-requests/{id}/vote", {`,
      `  params: { path: { id: "fr_x" }, header: { "X-User-Token": "user-42", "Idempotency-Key": "k-1" } },`,
      `  body: {},`,
      `});`,
      // The header is typed: a number is refused (an unused expectation would be an error too).
      `// @ts-expect-error X-User-Token is a string`,
      `export const wrong = client.GET("/api/v1/feature-requests", { params: { query: {}, header: { "X-User-Token": 42 } } });`,
    ].join("\n");
    expect(typeCheck(dir, { "api.ts": types, "client.ts": client })).toEqual([]);
    // Generating types for the whole API and checking them takes a while on a busy machine.
  }, 180_000);

  it("declares who may call each operation, its refusals, and the headers it reads", () => {
    const paths = doc.paths as Record<string, Record<string, { security?: unknown; responses: Record<string, unknown>; parameters?: { in: string; name: string }[] }>>;
    const feedback = paths["/api/v1/feedback"]!.post!;
    expect(feedback.security).toEqual([]);
    expect(feedback.responses["4XX"]).toBeDefined();
    expect(feedback.parameters?.filter((p) => p.in === "header").map((p) => p.name)).toEqual(
      expect.arrayContaining(["X-User-Token", "X-User-Hash", "X-SSO-Token", "X-App-Key", "Idempotency-Key"]),
    );
    expect(paths["/api/v1/console/workspaces/{wsId}"]!.put!.security).toEqual([{ bearer: [] }, { session: [], csrf: [] }]);
    const unsubscribe = (paths["/api/v1/public/apps/{appKey}/changelog/unsubscribe"]!.post as unknown as { requestBody: { content: object } }).requestBody;
    // JSON, the form an unsubscribe page posts, and the multipart one-click POST of RFC 8058.
    expect(Object.keys(unsubscribe.content).sort()).toEqual(["application/json", "application/x-www-form-urlencoded", "multipart/form-data"]);
    expect(doc.servers).toEqual([{ url: "/", description: "This instance" }]);
  });
});
