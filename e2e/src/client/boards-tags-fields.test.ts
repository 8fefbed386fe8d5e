import { checkCustomFieldValues, customFieldErrors, FeedbackClient, UnexpectedStatusException, userIdentityHash } from "@tidings/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRealServer, type RealServer } from "./real-server.js";

let server: RealServer;
let app: Awaited<ReturnType<RealServer["createApp"]>>;
const ids = { ui: "", internal: "" };

beforeAll(async () => {
  server = await startRealServer();
  app = await server.createApp("organised");
  await app.settings({ moderationPolicy: "none" });
  const w = `/workspaces/${app.wsId}`;
  const a = `${w}/apps/${app.appId}`;
  const bugs = (await server.consoleCall("POST", `${a}/boards`, { name: "Bugs", description: "Things that break" })) as unknown as { id: string };
  await server.consoleCall("POST", `${a}/boards`, { name: "Beta", visibility: "private" });
  ids.ui = ((await server.consoleCall("POST", `${a}/tags`, { name: "UI", color: "#336699" })) as unknown as { id: string }).id;
  ids.internal = ((await server.consoleCall("POST", `${a}/tags`, { name: "Internal", visibility: "team" })) as unknown as { id: string }).id;
  await server.consoleCall("POST", `${a}/fields`, {
    label: "Severity",
    type: "single_select",
    required: true,
    appliesTo: ["feature_request", "feedback"],
    options: [
      { value: "low", label: "Low" },
      { value: "high", label: "High" },
    ],
  });
  await server.consoleCall("POST", `${a}/fields`, { label: "Build", type: "text", appliesTo: ["feature_request"], boardId: bugs.id, limits: { maxLength: 10 } });
});
afterAll(async () => {
  await server?.close();
});

const anonymous = () => new FeedbackClient({ baseUrl: server.baseUrl, appKey: app.appKey, warn: () => undefined });
const vouched = (token: string) =>
  new FeedbackClient({ baseUrl: server.baseUrl, appKey: app.appKey, userToken: token, userHash: (t) => userIdentityHash(app.signingSecret, t), warn: () => undefined });

describe("boards, tags and custom fields through the SDK against the real server", () => {
  it("lists the boards the user may see: private ones only for a user the host vouches for", async () => {
    const boards = await anonymous().listBoards();
    expect(boards.map((b) => [b.slug, b.isDefault, b.visibility])).toEqual([
      ["feature-requests", true, "public"],
      ["bugs", false, "public"],
    ]);
    expect(boards[1]!.description).toBe("Things that break");
    expect((await vouched("ada").listBoards()).map((b) => b.slug)).toEqual(["feature-requests", "bugs", "beta"]);
  });

  it("lists a board's fields: the app-wide ones and its own", async () => {
    const client = anonymous();
    expect((await client.listCustomFields()).map((f) => f.key)).toEqual(["severity"]);
    const bugFields = await client.listCustomFields({ board: "bugs" });
    expect(bugFields.map((f) => [f.key, f.type, f.required])).toEqual([
      ["severity", "single_select", true],
      ["build", "text", false],
    ]);
    expect(bugFields[1]!.limits).toEqual({ maxLength: 10 });
    const refused = await client.listCustomFields({ board: "beta" }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UnexpectedStatusException);
    expect((refused as UnexpectedStatusException).code).toBe("unknown_board");
  });

  it("proposes to a board with its fields; the client's check and the server's refusal name the same fields", async () => {
    const client = anonymous();
    const fields = await client.listCustomFields({ board: "bugs" });
    const bad = { severity: "urgent", build: "far too long a build" };
    expect(Object.keys(checkCustomFieldValues(fields, bad).problems).sort()).toEqual(["build", "severity"]);
    const refused = await client.submitFeatureRequest({ title: "Crash on save", board: "bugs", fields: bad }).catch((e: unknown) => e);
    expect(Object.keys(customFieldErrors(refused) ?? {}).sort()).toEqual(["build", "severity"]);

    const { values, problems } = checkCustomFieldValues(fields, { severity: "high", build: " 4.2.1 " });
    expect(problems).toEqual({});
    const proposed = await client.submitFeatureRequest({ title: "Crash on save", board: "bugs", fields: values });
    expect(proposed.pending).toBe(false);

    const intoPrivate = await client.submitFeatureRequest({ title: "Secret idea", board: "beta", fields: { severity: "low" } }).catch((e: unknown) => e);
    expect((intoPrivate as UnexpectedStatusException).code).toBe("unknown_board");

    await server.consoleCall("POST", `/workspaces/${app.wsId}/apps/${app.appId}/feature-requests/tags`, {
      featureRequestIds: [proposed.featureRequestId],
      add: [ids.ui, ids.internal],
    });
    const boards = await client.listBoards();
    const page = await client.listFeatureRequests({ board: "bugs", tags: ["ui"] });
    expect(page.requests.map((r) => [r.title, r.boardId, r.tags])).toEqual([["Crash on save", boards[1]!.id, [{ name: "UI", slug: "ui", color: "#336699" }]]]);
    expect((await client.listFeatureRequests({ board: "feature-requests" })).requests).toEqual([]);
    const teamTag = await client.listFeatureRequests({ tags: ["internal"] }).catch((e: unknown) => e);
    expect((teamTag as UnexpectedStatusException).code).toBe("unknown_tag");
  });

  it("sends feedback with its fields, and names a required one left out", async () => {
    const client = anonymous();
    const fields = (await client.listCustomFields()).filter((f) => f.appliesTo.includes("feedback"));
    expect(fields.map((f) => f.key)).toEqual(["severity"]);
    const refused = await client.submitFeedback({ title: "Slow start", details: "Ten seconds" }).catch((e: unknown) => e);
    expect(customFieldErrors(refused)).toEqual({ severity: { code: "rejected", message: "Required" } });
    const sent = await client.submitFeedback({ title: "Slow start", details: "Ten seconds", fields: { severity: "low" } });
    expect(sent.submissionId).toEqual(expect.any(String));
  });
});
