import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpTestServer, type SmtpTestServer } from "@tidings/testing/smtp-test-server";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { testDialects } from "@tidings/testing/test-database";
import { createMailTestApp, type MailTestApp } from "@tidings/testing/changelog-kit";

const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};
const linkIn = (text: string | undefined, part: string) => (text ?? "").match(/https?:\/\/\S+/g)?.find((l) => l.includes(part)) ?? "";

describe.each(testDialects())("ship notifications on %s", (dialect) => {
  let smtp: SmtpTestServer;
  let t: MailTestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    t = await createMailTestApp(dialect, { smtpUrl: smtp.url });
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const newRequest = async (title: string) =>
    (await acme.console.post(`/workspaces/${acme.wsId}/feature-requests`, { appId: acme.appId, title, columnSlug: "planned" })).body.id as string;
  const vote = (id: string, token: string, shipNotifyEmail?: string) =>
    t.app.inject({
      method: "POST",
      url: `/api/v1/feature-requests/${id}/vote`,
      headers: { "x-user-token": token },
      payload: shipNotifyEmail === undefined ? {} : { shipNotifyEmail },
    });
  const confirmShip = async (email: string) => {
    const mail = smtp.to(email).find((m) => m.subject?.startsWith("Confirm ship notifications"));
    const link = linkIn(mail?.text, "/ship-notifications/confirm");
    expect(link).not.toBe("");
    const res = await t.app.inject({ method: "POST", url: pathOf(link) });
    expect(res.json()).toEqual({ confirmed: true });
  };
  const shippedMails = (email: string) => smtp.to(email).filter((m) => m.subject?.startsWith("Shipped in"));

  it("asks a voter to confirm, then mails them once when the request moves to a done column", async () => {
    const id = await newRequest("Widgets");
    expect((await vote(id, "voter-1", "Ann@Example.com")).statusCode).toBe(200);
    expect((await vote(id, "voter-2", "unconfirmed@example.com")).statusCode).toBe(200);
    await t.app.jobs.tick();
    // Pending voters are asked once, not again on later ticks.
    t.clock.advance(60 * 60_000);
    await t.app.jobs.tick();
    expect(smtp.to("unconfirmed@example.com")).toHaveLength(1);
    await confirmShip("ann@example.com");
    await t.app.jobs.tick();
    expect(shippedMails("ann@example.com")).toHaveLength(0);

    expect((await acme.console.put(`/workspaces/${acme.wsId}/feature-requests/${id}`, { columnSlug: "shipped" })).status).toBe(200);
    await t.app.jobs.tick();
    const [mail] = shippedMails("ann@example.com");
    expect(mail?.subject).toBe("Shipped in Acme Notes: Widgets");
    expect(mail?.headerLines.some((h) => h.key === "list-unsubscribe-post")).toBe(true);
    expect(shippedMails("unconfirmed@example.com")).toHaveLength(0);

    // Moving it out and back in, or more ticks, never mails again.
    await acme.console.put(`/workspaces/${acme.wsId}/feature-requests/${id}`, { columnSlug: "planned" });
    await acme.console.put(`/workspaces/${acme.wsId}/feature-requests/${id}`, { columnSlug: "shipped" });
    await t.app.jobs.tick();
    await t.app.jobs.tick();
    expect(shippedMails("ann@example.com")).toHaveLength(1);
  });

  it("mails confirmed voters when the request is linked in a published release", async () => {
    const id = await newRequest("Gadgets");
    await vote(id, "voter-3", "bo@example.com");
    await t.app.jobs.tick();
    await confirmShip("bo@example.com");
    await acme.console.post(`/workspaces/${acme.wsId}/changelog`, { appId: acme.appId, title: "Draft", body: "x", linkedRequestIds: [id] });
    await t.app.jobs.tick();
    expect(shippedMails("bo@example.com")).toHaveLength(0);
    await acme.console.post(`/workspaces/${acme.wsId}/changelog`, { appId: acme.appId, title: "2.0", body: "x", linkedRequestIds: [id], publishNow: true });
    await t.app.jobs.tick();
    expect(shippedMails("bo@example.com").map((m) => m.subject)).toEqual(["Shipped in Acme Notes: Gadgets"]);
  });

  it("mails a voter who confirms after the request shipped, and the voters of a draft release once it is published", async () => {
    const late = await newRequest("Cogs");
    await vote(late, "voter-6", "dee@example.com");
    await t.app.jobs.tick();
    await acme.console.put(`/workspaces/${acme.wsId}/feature-requests/${late}`, { columnSlug: "shipped" });
    await t.app.jobs.tick();
    expect(shippedMails("dee@example.com")).toHaveLength(0);
    await confirmShip("dee@example.com");
    await t.app.jobs.tick();
    expect(shippedMails("dee@example.com").map((m) => m.subject)).toEqual(["Shipped in Acme Notes: Cogs"]);

    const drafted = await newRequest("Levers");
    await vote(drafted, "voter-7", "eve@example.com");
    await t.app.jobs.tick();
    await confirmShip("eve@example.com");
    const entry = await acme.console.post(`/workspaces/${acme.wsId}/changelog`, { appId: acme.appId, title: "3.0", body: "x", linkedRequestIds: [drafted] });
    await t.app.jobs.tick();
    expect(shippedMails("eve@example.com")).toHaveLength(0);
    expect((await acme.console.post(`/workspaces/${acme.wsId}/changelog/${entry.body.id}/publish`)).status).toBe(200);
    await t.app.jobs.tick();
    await t.app.jobs.tick();
    expect(shippedMails("eve@example.com").map((m) => m.subject)).toEqual(["Shipped in Acme Notes: Levers"]);
  });

  it("asks nothing for a vote taken back before the step ran, and once when the voter votes again", async () => {
    const id = await newRequest("Sprockets");
    const asked = () => smtp.to("cy@example.com").filter((m) => m.subject?.startsWith("Confirm ship notifications"));
    expect((await vote(id, "voter-5", "cy@example.com")).json()).toMatchObject({ voted: true });
    expect((await vote(id, "voter-5")).json()).toMatchObject({ voted: false });
    await t.app.jobs.tick();
    expect(asked()).toHaveLength(0);
    expect((await vote(id, "voter-5", "Cy@Example.com")).json()).toMatchObject({ voted: true });
    await t.app.jobs.tick();
    t.clock.advance(60 * 60_000);
    await t.app.jobs.tick();
    expect(asked()).toHaveLength(1);
    // Taken back and given again with the same address: the subscription already exists, so no
    // second mail, whatever its state.
    await vote(id, "voter-5");
    await vote(id, "voter-5", "cy@example.com");
    t.clock.advance(60 * 60_000);
    await t.app.jobs.tick();
    expect(asked()).toHaveLength(1);
  });

  it("refuses a malformed shipNotifyEmail on the vote with 400", async () => {
    const id = await newRequest("Gizmos");
    expect((await vote(id, "voter-4", "not an email")).statusCode).toBe(400);
  });
});

describe.each(testDialects())("mail without SMTP_URL on %s", (dialect) => {
  it("writes .eml files under DATA_DIR/outbox", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-outbox-"));
    const t = await createMailTestApp(dialect, { dataDir, smtpUrl: null });
    try {
      const acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
      await t.app.inject({ method: "POST", url: `/api/v1/public/apps/${acme.appKey}/changelog/subscribe`, payload: { email: "out@example.com" } });
      await t.app.jobs.tick();
      const files = fs.readdirSync(path.join(dataDir, "outbox"));
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/\.eml$/);
      const eml = fs.readFileSync(path.join(dataDir, "outbox", files[0]!), "utf8");
      expect(eml).toContain("To: out@example.com");
      expect(eml).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    } finally {
      await t.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
