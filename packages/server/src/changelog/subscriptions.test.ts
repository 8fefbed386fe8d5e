import type { ParsedMail } from "mailparser";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../http/types.js";
import { startSmtpTestServer, type SmtpTestServer } from "@tidings/testing/smtp-test-server";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { testDialects } from "@tidings/testing/test-database";
import { createMailTestApp, type MailTestApp } from "@tidings/testing/changelog-kit";

/** The first link in a mail's text that contains `part`. */
function linkIn(mail: ParsedMail, part: string): string {
  const link = (mail.text ?? "").match(/https?:\/\/\S+/g)?.find((l) => l.includes(part));
  if (link === undefined) throw new Error(`no ${part} link in: ${mail.text}`);
  return link;
}

/** A header's raw value as it arrived. */
function header(mail: ParsedMail | undefined, name: string): string | undefined {
  const line = mail?.headerLines.find((h) => h.key === name.toLowerCase())?.line;
  return line?.slice(line.indexOf(":") + 1).trim();
}

/** The path and query of an absolute link, for inject. */
const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

describe.each(testDialects())("changelog subscriptions and mail over SMTP on %s", (dialect) => {
  let smtp: SmtpTestServer;
  let t: MailTestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    t = await createMailTestApp(dialect, { smtpUrl: smtp.url, mailFrom: "Acme <news@acme.example>" });
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });
  afterEach(() => {
    smtp.messages.length = 0;
  });

  const subscribe = (email: unknown, headers: Record<string, string> = {}, app: App = t.app) =>
    app.inject({ method: "POST", url: `/api/v1/public/apps/${acme.appKey}/changelog/subscribe`, headers, payload: { email } });
  const tick = () => t.app.jobs.tick();

  /** Subscribes and confirms `email`; answers its confirmation mail. */
  async function confirmedSubscriber(email: string, headers: Record<string, string> = {}): Promise<ParsedMail> {
    expect((await subscribe(email, headers)).statusCode).toBe(201);
    await tick();
    const [mail] = smtp.to(email).slice(-1);
    const res = await t.app.inject({ method: "POST", url: pathOf(linkIn(mail!, "/changelog/confirm")), headers: { accept: "application/json" } });
    expect(res.json()).toEqual({ confirmed: true });
    return mail!;
  }

  it("answers 201 {subscribed, success, alreadySubscribed:false} and mails a confirmation with one-click unsubscribe headers", async () => {
    const res = await subscribe("  Ada@Example.com ");
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ subscribed: true, success: true, alreadySubscribed: false });
    expect(smtp.messages).toHaveLength(0);
    await tick();
    const [mail] = smtp.to("ada@example.com");
    expect(mail?.subject).toBe("Confirm your subscription to Acme Notes updates");
    expect(mail?.from?.text).toBe('"Acme" <news@acme.example>');
    expect(header(mail, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    expect(header(mail, "List-Unsubscribe")).toMatch(
      new RegExp(`^<https://tidings\\.example/api/v1/public/apps/${acme.appKey}/changelog/unsubscribe\\?token=[A-Za-z0-9_.-]+>$`),
    );
    expect(linkIn(mail!, "/changelog/confirm")).toMatch(/^https:\/\/tidings\.example\//);
  });

  it("sends nothing new for a resend within 15 minutes, and a fresh mail after", async () => {
    await subscribe("bob@example.com");
    await tick();
    await subscribe("bob@example.com");
    await tick();
    expect(smtp.to("bob@example.com")).toHaveLength(1);
    t.clock.advance(16 * 60_000);
    await subscribe("bob@example.com");
    await tick();
    expect(smtp.to("bob@example.com")).toHaveLength(2);
  });

  it("shows a harmless page on GET of the confirm link, 405 to JSON clients, and confirms only by POST, once", async () => {
    await subscribe("cleo@example.com");
    await tick();
    const link = pathOf(linkIn(smtp.to("cleo@example.com")[0]!, "/changelog/confirm"));
    const page = await t.app.inject({ url: link, headers: { accept: "text/html" } });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.body).toContain('<form method="post"');
    const json = await t.app.inject({ url: link, headers: { accept: "application/json" } });
    expect(json.statusCode).toBe(405);
    expect(json.headers.allow).toBe("POST");
    const token = new URL(link, "http://x").searchParams.get("token")!;
    // The form post the page makes.
    const confirmed = await t.app.inject({
      method: "POST",
      url: `/api/v1/public/apps/${acme.appKey}/changelog/confirm`,
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
      payload: `token=${encodeURIComponent(token)}`,
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.headers["content-type"]).toContain("text/html");
    const replay = await t.app.inject({ method: "POST", url: `/api/v1/public/apps/${acme.appKey}/changelog/confirm`, payload: { token } });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ error: "Invalid or expired confirmation token", code: "invalid_confirmation_token" });
  });

  it("refuses tampered, expired and missing confirmation tokens with 400", async () => {
    await subscribe("dan@example.com");
    await tick();
    const token = new URL(linkIn(smtp.to("dan@example.com")[0]!, "/changelog/confirm")).searchParams.get("token")!;
    const post = (payload: Record<string, unknown>) =>
      t.app.inject({ method: "POST", url: `/api/v1/public/apps/${acme.appKey}/changelog/confirm`, payload });
    const [body, sig] = token.split(".") as [string, string];
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, "base64url").toString()), exp: 9e15 })).toString("base64url");
    expect((await post({ token: `${forged}.${sig}` })).statusCode).toBe(400);
    // A character of the signature changed for another (its last one carries padding bits too):
    // writing "AA" over the end left one signature in about a thousand as it was.
    const changed = sig.at(-2) === "A" ? "B" : "A";
    expect((await post({ token: `${body}.${sig.slice(0, -2)}${changed}${sig.at(-1)}` })).statusCode).toBe(400);
    expect((await post({})).json()).toMatchObject({ error: "Missing confirmation token" });
    t.clock.advance(8 * 24 * 60 * 60_000);
    expect((await post({ token })).statusCode).toBe(400);
    // An unsubscribe token is not a confirmation token.
    const unsub = new URL(linkIn(smtp.to("dan@example.com")[0]!, "/changelog/unsubscribe")).searchParams.get("token")!;
    expect((await post({ token: unsub })).statusCode).toBe(400);
  });

  it("refuses malformed, over-long and header-injecting addresses with 400 and sends nothing", async () => {
    for (const email of ["not-an-email", "a@b", `${"x".repeat(250)}@example.com`, "eve@example.com\r\nBcc: all@example.com", "eve@example.com, mallory@example.com", "<eve@example.com>", 42]) {
      const res = await subscribe(email);
      expect(res.statusCode, String(email)).toBe(400);
    }
    await tick();
    expect(smtp.messages).toHaveLength(0);
  });

  it("mails a published release to every confirmed subscriber once, and its one-click link unsubscribes", async () => {
    await confirmedSubscriber("fay@example.com");
    await confirmedSubscriber("gus@example.com");
    await subscribe("pending@example.com");
    await tick();
    smtp.messages.length = 0;
    const entry = await acme.console.post(`/workspaces/${acme.wsId}/changelog`, {
      appId: acme.appId,
      title: "Version 2",
      body: "# Big\n\n<img src=x onerror=alert(1)> news",
      publishNow: true,
    });
    expect(entry.body.delivery).toMatchObject({ pending: entry.body.subscriberCount });
    await tick();
    const fay = smtp.to("fay@example.com");
    expect(fay).toHaveLength(1);
    expect(fay[0]?.subject).toBe("Acme Notes: Version 2");
    expect(fay[0]?.html).toContain("<h1>Big</h1>");
    expect(fay[0]?.html).not.toContain("onerror");
    expect(header(fay[0], "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    expect(header(fay[0], "List-Unsubscribe")).toContain("/changelog/unsubscribe?token=");
    expect(smtp.to("pending@example.com")).toHaveLength(0);
    const progress = (await acme.console.get(`/workspaces/${acme.wsId}/changelog/${entry.body.id}`)).body.delivery;
    expect(progress).toMatchObject({ failed: 0, pending: 0 });
    expect(progress.sent).toBe(progress.total);

    // RFC 8058: a POST of List-Unsubscribe=One-Click to the header's URL.
    const oneClick = await t.app.inject({
      method: "POST",
      url: pathOf(linkIn(fay[0]!, "/changelog/unsubscribe")),
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.statusCode).toBe(200);
    expect(oneClick.json()).toEqual({ unsubscribed: true });

    // Unpublish and publish again: nobody is mailed twice; fay is gone.
    await acme.console.post(`/workspaces/${acme.wsId}/changelog/${entry.body.id}/unpublish`);
    await acme.console.post(`/workspaces/${acme.wsId}/changelog/${entry.body.id}/publish`);
    const next = await acme.console.post(`/workspaces/${acme.wsId}/changelog`, { appId: acme.appId, title: "Version 3", body: "more", publishNow: true });
    await tick();
    expect(smtp.to("gus@example.com").map((m) => m.subject)).toEqual(["Acme Notes: Version 2", "Acme Notes: Version 3"]);
    expect(smtp.to("fay@example.com")).toHaveLength(1);
    expect(next.body.subscriberCount).toBeGreaterThanOrEqual(1);
  });

  /** A form body as a client's FormData encodes it: the bytes and the Content-Type with its boundary. */
  async function multipartForm(fields: Record<string, string | Blob>): Promise<{ payload: Buffer; contentType: string }> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    const encoded = new Request("http://localhost/", { method: "POST", body: form });
    return { payload: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get("content-type") ?? "" };
  }

  const statusOf = async (email: string) =>
    (await t.database.db.kysely.selectFrom("emailSubscriptions").select("status").where("email", "=", email).executeTakeFirstOrThrow()).status;

  it("unsubscribes on the RFC 8058 one-click POST in either form encoding a mailbox provider sends", async () => {
    const encodings = {
      urlencoded: async () => ({ payload: Buffer.from("List-Unsubscribe=One-Click"), contentType: "application/x-www-form-urlencoded" }),
      multipart: () => multipartForm({ "List-Unsubscribe": "One-Click" }),
    };
    for (const [name, encode] of Object.entries(encodings)) {
      const email = `one-click-${name}@example.com`;
      const mail = await confirmedSubscriber(email);
      const url = /<([^>]+)>/.exec(header(mail, "List-Unsubscribe") ?? "")?.[1] ?? "";
      const { payload, contentType } = await encode();
      const res = await t.app.inject({ method: "POST", url: pathOf(url), headers: { "content-type": contentType }, payload });
      expect({ name, status: res.statusCode, body: res.json() }).toEqual({ name, status: 200, body: { unsubscribed: true } });
      expect(await statusOf(email)).toBe("unsubscribed");
    }
  });

  it("reads the token from a multipart form field, and refuses a multipart form that carries a file with 413", async () => {
    const mail = await confirmedSubscriber("form-field@example.com");
    const token = new URL(linkIn(mail, "/changelog/unsubscribe")).searchParams.get("token") ?? "";
    const url = `/api/v1/public/apps/${acme.appKey}/changelog/unsubscribe`;
    const withFile = await multipartForm({ token, attachment: new Blob(["x"], { type: "text/plain" }) });
    const refused = await t.app.inject({ method: "POST", url, headers: { "content-type": withFile.contentType }, payload: withFile.payload });
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toMatchObject({ code: "payload_too_large" });
    expect(await statusOf("form-field@example.com")).toBe("confirmed");
    const form = await multipartForm({ token });
    const res = await t.app.inject({ method: "POST", url, headers: { "content-type": form.contentType, accept: "application/json" }, payload: form.payload });
    expect(res.json()).toEqual({ unsubscribed: true });
    expect(await statusOf("form-field@example.com")).toBe("unsubscribed");
  });

  it("refuses a multipart form cut short or without its boundary with 400 malformed_request, and unsubscribes no one", async () => {
    const mail = await confirmedSubscriber("broken-form@example.com");
    const token = new URL(linkIn(mail, "/changelog/unsubscribe")).searchParams.get("token") ?? "";
    const url = `/api/v1/public/apps/${acme.appKey}/changelog/unsubscribe`;
    const form = await multipartForm({ token });
    const boundary = /boundary=(.+)$/.exec(form.contentType)?.[1] ?? "";
    const broken = {
      "cut in its part": { contentType: form.contentType, payload: form.payload.subarray(0, Math.floor(form.payload.length / 2)) },
      "cut before its closing boundary": { contentType: form.contentType, payload: Buffer.from(form.payload.toString("latin1").replace(`--${boundary}--`, ""), "latin1") },
      "cut in a part's head": { contentType: form.contentType, payload: Buffer.from(`--${boundary}\r\nContent-Disposition: form-data;`) },
      "no boundary in its Content-Type": { contentType: "multipart/form-data", payload: form.payload },
      "no boundary and no body": { contentType: "multipart/form-data", payload: Buffer.from("null") },
    };
    for (const [name, { contentType, payload }] of Object.entries(broken)) {
      const res = await t.app.inject({ method: "POST", url, headers: { "content-type": contentType }, payload });
      expect({ name, status: res.statusCode, code: res.json<{ code: string }>().code }).toEqual({ name, status: 400, code: "malformed_request" });
    }
    expect(await statusOf("broken-form@example.com")).toBe("confirmed");
  });

  it("honours an unsubscribe token after its 90 days, and refuses a tampered one with 400", async () => {
    const mail = await confirmedSubscriber("hal@example.com");
    const link = linkIn(mail, "/changelog/unsubscribe");
    t.clock.advance(200 * 24 * 60 * 60_000);
    const url = `/api/v1/public/apps/${acme.appKey}/changelog/unsubscribe`;
    const bad = await t.app.inject({ method: "POST", url, payload: { token: `${new URL(link).searchParams.get("token")}x` } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: "invalid_unsubscribe_token" });
    expect((await t.app.inject({ method: "POST", url, payload: {} })).json()).toMatchObject({ error: "An unsubscribe token is required" });
    const res = await t.app.inject({ method: "POST", url, payload: { token: new URL(link).searchParams.get("token") } });
    expect(res.json()).toEqual({ unsubscribed: true });
    const row = await t.database.db.kysely.selectFrom("emailSubscriptions").select("status").where("email", "=", "hal@example.com").executeTakeFirstOrThrow();
    expect(row.status).toBe("unsubscribed");
  });

  it("legacy {email} unsubscribe: at once for the subscribing token, a mailed link for anyone else, the same answer for unknown addresses", async () => {
    await confirmedSubscriber("ivy@example.com", { "x-user-token": "ivy-token" });
    await confirmedSubscriber("jay@example.com", { "x-user-token": "jay-token" });
    smtp.messages.length = 0;
    const url = `/api/v1/public/apps/${acme.appKey}/changelog/unsubscribe`;
    const status = async (email: string) =>
      (await t.database.db.kysely.selectFrom("emailSubscriptions").select("status").where("email", "=", email).executeTakeFirstOrThrow()).status;

    const own = await t.app.inject({ method: "POST", url, headers: { "x-user-token": "ivy-token" }, payload: { email: "ivy@example.com" } });
    expect(own.json()).toEqual({ unsubscribed: true });
    expect(await status("ivy@example.com")).toBe("unsubscribed");

    const stranger = await t.app.inject({ method: "POST", url, headers: { "x-user-token": "someone" }, payload: { email: "jay@example.com" } });
    const unknown = await t.app.inject({ method: "POST", url, payload: { email: "nobody@example.com" } });
    expect(stranger.body).toBe(unknown.body);
    expect(await status("jay@example.com")).toBe("confirmed");
    await tick();
    const [mail] = smtp.to("jay@example.com");
    expect(mail?.subject).toBe("Unsubscribe from Acme Notes updates");
    await t.app.inject({ method: "POST", url: pathOf(linkIn(mail!, "/changelog/unsubscribe")) });
    expect(await status("jay@example.com")).toBe("unsubscribed");
    expect(smtp.to("nobody@example.com")).toHaveLength(0);
  });

  it("retries a mail the SMTP server refused, with backoff, and shows the failure meanwhile", async () => {
    await confirmedSubscriber("kim@example.com");
    const entry = await acme.console.post(`/workspaces/${acme.wsId}/changelog`, { appId: acme.appId, title: "Retry me", body: "x", publishNow: true });
    smtp.failNext(100);
    await tick();
    const mid = (await acme.console.get(`/workspaces/${acme.wsId}/changelog/${entry.body.id}`)).body.delivery;
    expect(mid.pending).toBeGreaterThan(0);
    expect(mid.lastError).toMatch(/451/);
    smtp.failNext(0);
    await tick(); // not due yet
    expect(smtp.to("kim@example.com").filter((m) => m.subject?.includes("Retry me"))).toHaveLength(0);
    t.clock.advance(60_000);
    await tick();
    expect(smtp.to("kim@example.com").filter((m) => m.subject?.includes("Retry me"))).toHaveLength(1);
  });
});

describe.each(testDialects())("a blast interrupted by a restart on %s", (dialect) => {
  it("sends each subscriber exactly one mail across the restart", async () => {
    const smtp = await startSmtpTestServer();
    const t = await createMailTestApp(dialect, { smtpUrl: smtp.url });
    try {
      const acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
      const emails = Array.from({ length: 6 }, (_, i) => `reader${i}@example.com`);
      for (const email of emails) {
        await t.app.inject({ method: "POST", url: `/api/v1/public/apps/${acme.appKey}/changelog/subscribe`, payload: { email } });
      }
      await t.app.jobs.tick();
      for (const email of emails) {
        const link = linkIn(smtp.to(email)[0]!, "/changelog/confirm");
        await t.app.inject({ method: "POST", url: pathOf(link) });
      }
      smtp.messages.length = 0;
      await acme.console.post(`/workspaces/${acme.wsId}/changelog`, { appId: acme.appId, title: "Big release", body: "x", publishNow: true });

      // The first process sends two mails, then dies in the middle of the third (never acknowledged).
      const { default: nodemailer } = await import("nodemailer");
      const transport = nodemailer.createTransport(smtp.url);
      let sent = 0;
      let kill: (error: Error) => void = () => undefined;
      let dyingNow: () => void = () => undefined;
      const reachedThird = new Promise<void>((resolve) => {
        dyingNow = resolve;
      });
      const killed = new Promise<void>((_resolve, reject) => {
        kill = reject;
      });
      const dying = {
        send: async (m: { to: string; subject: string; text: string; html: string; headers: Record<string, string>; messageId: string }) => {
          if (sent >= 2) {
            dyingNow();
            return killed;
          }
          sent++;
          await transport.sendMail({ from: "x@example.com", ...m });
        },
        close: () => transport.close(),
      };
      await t.app.close();
      const first = await t.restart({ mailer: dying });
      void first.jobs.tick();
      await reachedThird;
      expect(smtp.messages).toHaveLength(2);
      // The process is gone: its lease runs out. A new process takes over.
      const second = await t.restart();
      t.clock.advance(10 * 60_000);
      await second.jobs.tick();
      for (const email of emails) expect(smtp.to(email), email).toHaveLength(1);
      // The dead process's send finally fails: it must not undo the new process's work.
      kill(new Error("process killed"));
      await first.jobs.stop();
      await second.jobs.tick();
      for (const email of emails) expect(smtp.to(email), email).toHaveLength(1);
      const jobs = await t.database.db.kysely.selectFrom("jobs").select("status").where("kind", "=", "mail").where("dedupeKey", "like", "release:%").execute();
      expect(jobs.map((j) => j.status)).toEqual(emails.map(() => "done"));
    } finally {
      await t.close().catch(() => undefined);
      await smtp.close();
    }
  });
});
