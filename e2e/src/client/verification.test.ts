import { FeedbackClient, FeedbackComposerController, QuotaExceededException, userIdentityHash, VerificationRequiredException, type FetchLike } from "@tidings/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRealServer, type RealServer } from "./real-server.js";

let server: RealServer;

// Production enforces human verification: apps without a provider get the built-in altcha.
beforeAll(async () => {
  server = await startRealServer({ NODE_ENV: "production" });
});
afterAll(async () => {
  await server?.close();
});

/** A 1×1 PNG. */
const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="), (c) => c.charCodeAt(0));

const demoClient = () => new FeedbackClient({ baseUrl: server.baseUrl, appKey: "app_demo", warn: () => undefined });

describe("built-in altcha against a production server", () => {
  it("the demo app's config requires altcha", async () => {
    expect((await demoClient().getConfig()).verification).toEqual({ provider: "altcha", siteKey: null, required: true, trustIdentifiedUsers: true });
  });

  it("submits feedback and a feature request without any provider configured", async () => {
    const client = demoClient();
    const feedback = await client.submitFeedback({ title: "Crash on start", details: "Solved a challenge first.", platform: "ios" });
    expect(typeof feedback.submissionId).toBe("string");
    const proposal = await client.submitFeatureRequest({ title: "Offline mode from the altcha e2e" });
    expect(proposal.featureRequestId).toMatch(/^fr_/);
  });

  it("solves up front once the config was read", async () => {
    const client = demoClient();
    await client.getConfig();
    expect((await client.submitFeatureRequest({ title: "Widgets from the altcha e2e" })).featureRequestId).toMatch(/^fr_/);
  });

  it("refuses a reused token with 403, as VerificationRequiredException", async () => {
    const client = demoClient();
    const verificationToken = await client.createVerificationToken();
    await client.submitFeatureRequest({ title: "First use of a token", verificationToken });
    const error = await client.submitFeatureRequest({ title: "Second use of the token", verificationToken }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VerificationRequiredException);
    expect((error as VerificationRequiredException).status).toBe(403);
    expect((error as VerificationRequiredException).code).toBe("verification_required");
  });

  it("takes a signed-in user's feedback without a challenge, and asks for one once the app stops trusting identified users", async () => {
    const app = await server.createApp("trusts-identified");
    const challenges: string[] = [];
    const fetchSeen: FetchLike = (input, init) => {
      if (String(input).includes("/verification/challenge")) challenges.push(String(input));
      return fetch(input, init);
    };
    const signedIn = () =>
      new FeedbackClient({ baseUrl: server.baseUrl, appKey: app.appKey, userToken: "host-user-7", userHash: (token) => userIdentityHash(app.signingSecret, token), fetch: fetchSeen, warn: () => undefined });
    const client = signedIn();
    await client.getConfig();
    expect(typeof (await client.submitFeedback({ title: "Signed in", details: "No proof of work", platform: "ios" })).submissionId).toBe("string");
    expect(challenges).toEqual([]);

    await app.settings({ verification: { trustIdentifiedUsers: false } });
    expect(typeof (await signedIn().submitFeedback({ title: "Signed in", details: "With proof of work", platform: "ios" })).submissionId).toBe("string");
    expect(challenges).toHaveLength(1);
  });
});

describe("FeedbackComposerController against a production server", () => {
  it("uploads a pick, submits through the built-in altcha and clears the draft", async () => {
    const client = demoClient();
    const composer = new FeedbackComposerController(client, { config: await client.getConfig() });
    composer.setTitle("Crash with a screenshot");
    composer.setDetails("See the attachment.");
    composer.addAttachment({ file: PNG, filename: "dot.png", mimeType: "image/png" });
    const result = await composer.submit();
    expect(typeof result?.submissionId).toBe("string");
    expect(composer.getState()).toMatchObject({ status: "sent", draft: { title: "", details: "", attachments: [] } });
  });

  it("keeps the draft when the workspace is over its quota", async () => {
    const app = await server.createApp("composer-quota");
    await app.workspace({ monthlySubmissionQuota: 0 });
    const client = new FeedbackClient({ baseUrl: server.baseUrl, appKey: app.appKey, warn: () => undefined });
    const composer = new FeedbackComposerController(client);
    composer.setTitle("Over quota");
    composer.setDetails("Still here afterwards.");
    const draft = composer.getState().draft;
    expect(await composer.submit()).toBeNull();
    expect(composer.getState().error).toBeInstanceOf(QuotaExceededException);
    expect(composer.getState().draft).toBe(draft);
  });
});
