import { describe, expect, it } from "vitest";
import { signUserAttributes, userAttributesSigningString } from "./signing.js";
import { client, recorder } from "./testing/recorder.js";

describe("FeedbackClient users", () => {
  it("reads a profile with the app key by default, and without it when asked", async () => {
    const { seen, fetch } = recorder(() => Response.json({ profile: {}, recentComments: [] }));
    const c = client(fetch);
    await c.getUserProfile("u_1");
    await c.getUserProfile("u_1", { withAppKey: false });
    expect(seen.map((s) => s.url.pathname + s.url.search)).toEqual(["/api/v1/users/u_1/profile?appKey=app_demo", "/api/v1/users/u_1/profile"]);
  });

  it("signs user attributes with sdkSigningSecret at the injected time", async () => {
    const { seen, fetch } = recorder(() => Response.json({ ok: true, updatedAt: "2025-01-01T00:00:00.000Z" }));
    const timers = { now: () => 1758000000_000, setTimeout: () => 0, clearTimeout: () => undefined };
    const c = client(fetch, {
      appKey: "app_demo12345",
      userToken: "3fa85f64-5717-4562-b3fc-2c963f66afa6",
      sdkSigningSecret: "cpt_sk_test_secret_0123456789abcdef",
      timers,
    });
    await c.reportUserAttributes({ isPaying: true, plan: "pro", mrr: 299.5, currency: "USD" });
    expect(seen[0]!.method).toBe("PUT");
    expect(seen[0]!.body).toEqual({
      isPaying: true,
      plan: "pro",
      mrr: 299.5,
      currency: "USD",
      timestamp: 1758000000,
      signature: "59bc1177751f4c36f9caeed8c763cde9ee18835196acd1b6d4ce3b1ea2dc0273",
    });
  });

  it("sends the user's company with a cpt-user-attrs-v2 signature", async () => {
    const { seen, fetch } = recorder(() => Response.json({ ok: true, updatedAt: "2025-01-01T00:00:00.000Z" }));
    const timers = { now: () => 1758000000_000, setTimeout: () => 0, clearTimeout: () => undefined };
    const secret = "cpt_sk_test_secret_0123456789abcdef";
    const c = client(fetch, { appKey: "app_demo12345", userToken: "user-42", sdkSigningSecret: secret, timers });
    const company = { id: "acct_42", name: "Acme GmbH", mrr: 1200.5, currency: "EUR", attributes: { seats: 40 } };
    await c.reportUserAttributes({ company });
    const expected = await signUserAttributes({ secret, appKey: "app_demo12345", userToken: "user-42", attributes: { company }, timestamp: 1758000000 });
    expect(seen[0]!.body).toEqual({ company, timestamp: 1758000000, signature: expected.signature });
    expect(userAttributesSigningString({ appKey: "app_demo12345", userToken: "user-42", attributes: { company }, timestamp: 1758000000 })).toMatch(/^cpt-user-attrs-v2\n/);
  });
});
