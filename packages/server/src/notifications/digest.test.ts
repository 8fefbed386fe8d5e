import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMailTestApp, type MailTestApp } from "@tidings/testing/changelog-kit";
import { startSmtpTestServer, type SmtpTestServer } from "@tidings/testing/smtp-test-server";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { signTestSsoToken } from "@tidings/testing/sso-tokens";
import { testDialects } from "@tidings/testing/test-database";
import { DIGEST_WINDOW_MS } from "../feature-requests/notices.js";

const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};
const linkIn = (text: string | undefined, part: string) => (text ?? "").match(/https?:\/\/\S+/g)?.find((l) => l.includes(part)) ?? "";
const header = (mail: { headerLines: ReadonlyArray<{ key: string; line: string }> }, key: string) => mail.headerLines.find((h) => h.key === key)?.line ?? "";

describe.each(testDialects())("request updates for followers on %s", (dialect) => {
  let smtp: SmtpTestServer;
  let t: MailTestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  let inbox: number;

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    t = await createMailTestApp(dialect, { smtpUrl: smtp.url });
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  /** Moves the clock to the start of the next digest window. */
  const nextWindow = () => t.clock.advance(DIGEST_WINDOW_MS - (t.clock.now().getTime() % DIGEST_WINDOW_MS));
  const newRequest = async (title: string) =>
    (await acme.console.post(`/workspaces/${acme.wsId}/feature-requests`, { appId: acme.appId, title, columnSlug: "under-review" })).body.id as string;
  const move = (id: string, columnSlug: string) => acme.console.put(`/workspaces/${acme.wsId}/feature-requests/${id}`, { columnSlug });
  const ssoHeaders = async (sub: string, email: string) => ({
    "x-sso-token": await signTestSsoToken(acme.signingSecret, acme.appKey, t.clock.now(), { sub, email, name: sub }),
  });
  const follow = async (id: string, headers: Record<string, string>, payload: Record<string, unknown> = {}) =>
    t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/subscription`, headers, payload });
  /** A due digest queues its mail; the next tick sends it. */
  const runJobs = async () => {
    await t.app.jobs.tick();
    await t.app.jobs.tick();
  };
  const digests = (email: string) => smtp.to(email).filter((m) => !m.subject?.startsWith("Confirm"));

  it("mails a voter exactly one digest when their request moves twice and ships within the hour, and nothing after unsubscribing", async () => {
    nextWindow();
    const id = await newRequest("Dark mode");
    const ada = await ssoHeaders("ada", "Ada@Example.com");
    expect((await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote`, headers: ada, payload: {} })).json().voted).toBe(true);
    expect((await follow(id, ada)).json()).toEqual({ following: true, pending: false });

    t.clock.advance(5 * 60_000);
    expect((await move(id, "planned")).status).toBe(200);
    t.clock.advance(10 * 60_000);
    expect((await move(id, "in-progress")).status).toBe(200);
    t.clock.advance(10 * 60_000);
    await acme.console.post(`/workspaces/${acme.wsId}/changelog`, {
      appId: acme.appId,
      title: "Version 2.0",
      body: "Dark mode is **here**.",
      linkedRequestIds: [id],
      publishNow: true,
    });
    expect((await move(id, "shipped")).status).toBe(200);
    // Nothing before the hour is over, however often the runner ticks.
    await t.app.jobs.tick();
    t.clock.advance(20 * 60_000);
    await t.app.jobs.tick();
    expect(digests("ada@example.com")).toHaveLength(0);

    nextWindow();
    await runJobs();
    const mails = digests("ada@example.com");
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe("Acme Notes: news about “Dark mode”");
    expect(mail.text).toContain("Moved to Planned.");
    expect(mail.text).toContain("Moved to In progress.");
    expect(mail.text).toContain("Moved to Shipped.");
    expect(mail.text).toContain("Version 2.0");
    expect(mail.html).toContain("<strong>here</strong>");
    expect(header(mail, "list-unsubscribe-post")).toContain("List-Unsubscribe=One-Click");

    // RFC 8058: the mail client POSTs the List-Unsubscribe URL with the one-click body.
    const unsubscribe = /<([^>]+)>/.exec(header(mail, "list-unsubscribe"))?.[1] ?? "";
    const oneClick = await t.app.inject({
      method: "POST",
      url: pathOf(unsubscribe),
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.statusCode).toBe(200);
    inbox = smtp.messages.length;
    await move(id, "planned");
    await acme.console.post(`/workspaces/${acme.wsId}/feature-requests/${id}/comments`, { body: "Thanks for the votes!" });
    nextWindow();
    await runJobs();
    expect(digests("ada@example.com")).toHaveLength(1);
    expect(smtp.messages.length).toBe(inbox);
  });

  it("batches several requests into one mail and tells team replies with their text", async () => {
    nextWindow();
    const [a, b] = [await newRequest("Offline mode"), await newRequest("Calendar sync")];
    const bo = await ssoHeaders("bo", "bo@example.com");
    await follow(a, bo);
    await follow(b, bo);
    await move(a, "planned");
    await acme.console.post(`/workspaces/${acme.wsId}/feature-requests/${b}/comments`, { body: "We are on it." });
    nextWindow();
    await runJobs();
    const mails = digests("bo@example.com");
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Acme Notes: news about 2 requests you follow");
    expect(mails[0]!.text).toContain("“Offline mode”");
    expect(mails[0]!.text).toContain("replied: “We are on it.”");
  });

  it("asks an address nobody vouched for to confirm first, and mails nothing until then", async () => {
    nextWindow();
    const id = await newRequest("Widgets");
    const res = await follow(id, { "x-user-token": "anon-1" }, { email: "cy@example.com" });
    expect(res.json()).toEqual({ following: false, pending: true });
    await t.app.jobs.tick();
    await move(id, "planned");
    nextWindow();
    await runJobs();
    expect(digests("cy@example.com")).toHaveLength(0);
    const confirmation = smtp.to("cy@example.com").find((m) => m.subject === "Confirm updates about \"Widgets\"");
    const link = linkIn(confirmation?.text, "/request-updates/confirm");
    expect((await t.app.inject({ method: "POST", url: pathOf(link) })).json()).toEqual({ confirmed: true });
    await move(id, "in-progress");
    nextWindow();
    await runJobs();
    expect(digests("cy@example.com").map((m) => m.text?.includes("Moved to In progress."))).toEqual([true]);
  });

  it("honours the preference page: moves switched off, replies still mailed, an unfollowed request silent", async () => {
    nextWindow();
    const [a, b] = [await newRequest("Tags"), await newRequest("Export")];
    const di = await ssoHeaders("di", "di@example.com");
    await follow(a, di);
    await follow(b, di);
    await acme.console.post(`/workspaces/${acme.wsId}/feature-requests/${a}/comments`, { body: "First reply" });
    nextWindow();
    await runJobs();
    const [first] = digests("di@example.com");
    const prefsLink = linkIn(first?.text, "/notifications?token=");
    const pageRes = await t.app.inject({ url: pathOf(prefsLink) });
    expect(pageRes.statusCode).toBe(200);
    expect(pageRes.body).toContain("di@example.com");
    const keep = [...pageRes.body.matchAll(/name="(keep_[^"]+)"/g)].map((m) => m[1]!);
    expect(keep).toHaveLength(2);
    const token = new URL(prefsLink).searchParams.get("token")!;
    // Keep "Tags" (the first), drop "Export"; replies and ships on, moves off.
    const form = new URLSearchParams({ token, replies: "on", ships: "on", [keep[0]!]: "on" });
    const saved = await t.app.inject({
      method: "POST",
      url: `/api/v1/public/apps/${acme.appKey}/notifications`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: form.toString(),
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.body).toContain("Saved.");

    await move(a, "planned");
    await move(b, "planned");
    await acme.console.post(`/workspaces/${acme.wsId}/feature-requests/${b}/comments`, { body: "Not for you" });
    nextWindow();
    await runJobs();
    expect(digests("di@example.com")).toHaveLength(1);
    await acme.console.post(`/workspaces/${acme.wsId}/feature-requests/${a}/comments`, { body: "Second reply" });
    nextWindow();
    await runJobs();
    const all = digests("di@example.com");
    expect(all).toHaveLength(2);
    expect(all[1]!.text).toContain("Second reply");
    expect(all[1]!.text).not.toContain("Moved to");
  });

  it("tells a follower who also asked for a ship notification that it shipped once, in the digest", async () => {
    nextWindow();
    const id = await newRequest("Sync");
    const eve = await ssoHeaders("eve", "eve@example.com");
    await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote`, headers: eve, payload: { shipNotifyEmail: "eve@example.com" } });
    await runJobs();
    const confirmation = smtp.to("eve@example.com").find((m) => m.subject?.startsWith("Confirm ship notifications"));
    expect((await t.app.inject({ method: "POST", url: pathOf(linkIn(confirmation?.text, "/ship-notifications/confirm")) })).json()).toEqual({ confirmed: true });
    await follow(id, eve);
    await move(id, "shipped");
    nextWindow();
    await runJobs();
    await runJobs();
    expect(smtp.to("eve@example.com").filter((m) => m.subject?.startsWith("Shipped in"))).toHaveLength(0);
    const news = digests("eve@example.com");
    expect(news).toHaveLength(1);
    expect(news[0]!.text).toContain("Shipped!");
  });

  it("refuses a follow without any address, and a preference page with a forged token", async () => {
    const id = await newRequest("Themes");
    const res = await follow(id, { "x-user-token": "anon-2" });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe("validation_failed");
    const bad = await follow(id, { "x-user-token": "anon-2" }, { email: "not an address" });
    expect(bad.statusCode).toBe(400);
    const forged = await t.app.inject({ url: `/api/v1/public/apps/${acme.appKey}/notifications?token=abc.def` });
    expect(forged.statusCode).toBe(400);
    const post = await t.app.inject({ method: "POST", url: `/api/v1/public/apps/${acme.appKey}/notifications`, payload: { token: "abc.def" } });
    expect(post.statusCode).toBe(400);
  });
});
