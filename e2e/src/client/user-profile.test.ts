import { FeedbackClient, UnexpectedStatusException } from "@tidings/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRealServer, type RealServer } from "./real-server.js";

const NOT_FOUND = '{"error":"User profile not found"}';

let server: RealServer;
beforeAll(async () => {
  server = await startRealServer();
});
afterAll(async () => {
  await server?.close();
});

describe("public user profiles through the SDK, without an app key", () => {
  it("reads an end user's profile key-less, as the mobile SDKs do; hides it once the app is private", async () => {
    const home = await server.createApp("profile-home");
    const elsewhere = await server.createApp("profile-elsewhere");
    const request = await server.consoleCall("POST", `/workspaces/${home.wsId}/feature-requests`, { appId: home.appId, title: "Offline mode" });
    const author = new FeedbackClient({ baseUrl: server.baseUrl, appKey: home.appKey, warn: () => undefined });
    const comment = await author.postComment(String(request.id), { body: "Needed on the train" });
    const userId = comment.authorClerkId!;
    expect(userId).toMatch(/^u_[0-9a-f]{32}$/);

    // A client of another app, e.g. a profile link followed from elsewhere.
    const reader = new FeedbackClient({ baseUrl: server.baseUrl, appKey: elsewhere.appKey, warn: () => undefined });
    const profile = await reader.getUserProfile(userId, { withAppKey: false });
    expect(profile.profile).toMatchObject({ clerkUserId: userId, isTeam: false });
    expect(profile.recentComments).toEqual([expect.objectContaining({ body: "Needed on the train", featureRequestTitle: "Offline mode", appId: home.appId })]);
    expect(await author.getUserProfile(userId)).toEqual(profile);

    // A key that is sent must be the user's app.
    const mismatched = await reader.getUserProfile(userId).catch((e: unknown) => e);
    expect(mismatched).toBeInstanceOf(UnexpectedStatusException);
    expect((mismatched as UnexpectedStatusException).status).toBe(404);
    expect((mismatched as UnexpectedStatusException).rawBody).toBe(NOT_FOUND);

    await home.settings({ allowPublic: false });
    const hidden = await reader.getUserProfile(userId, { withAppKey: false }).catch((e: unknown) => e);
    const unknown = await reader.getUserProfile(`u_${"0".repeat(32)}`, { withAppKey: false }).catch((e: unknown) => e);
    for (const error of [hidden, unknown]) {
      expect(error).toBeInstanceOf(UnexpectedStatusException);
      expect((error as UnexpectedStatusException).status).toBe(404);
      expect((error as UnexpectedStatusException).rawBody).toBe(NOT_FOUND);
    }
  });
});
