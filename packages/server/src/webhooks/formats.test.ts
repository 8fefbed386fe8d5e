import { WEBHOOK_EVENT_TYPES } from "@tidings/protocol";
import { describe, expect, it } from "vitest";
import type { RequestSnapshot } from "./request-snapshot.js";
import type { WebhookEvent, WebhookEventName } from "./event-envelope.js";
import { clip, renderBody } from "./formats.js";

const links = { base: "https://feedback.example.com" };

/** An event of `type` whose every user-written text is `text`. */
function eventOf(type: WebhookEventName, text: string): WebhookEvent {
  const request: RequestSnapshot = {
    id: "fr_1",
    title: text,
    description: text,
    status: { id: "col_1", name: text, kind: "in_progress" },
    voteCount: 12,
    commentCount: 3,
    mergedIntoId: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    board: { id: "brd_1", slug: text.slice(0, 64), name: text, visibility: "public" },
  };
  const data: Record<string, unknown> = {
    request,
    into: { ...request, id: "fr_2" },
    previousStatus: { id: "col_0", name: text, kind: "planned" },
    comment: { id: "cmt_1", body: text, authorName: text, parentId: null, isTeam: false, createdAt: request.createdAt },
    voter: { endUserId: "eu_1" },
    feedback: { id: "sub_1", title: text, description: text, platform: "ios", reporterName: text, reporterEmail: null },
    entry: { id: "cl_1", title: text, versionLabel: text, body: text, publishedAt: request.createdAt, linkedRequests: [] },
    subscriber: { id: "esub_1", kind: "changelog", email: `${"a".repeat(60)}@example.com`, requestId: null },
  };
  return { type, version: 1, id: "whe_1", timestamp: "2026-01-01T00:00:00.000Z", app: { id: "app_1", key: "app_key", name: text }, data };
}

// Texts that stress the limits: long, astral characters (two UTF-16 units each), markup that
// would mention everyone or fake a link.
const TEXTS = ["Dark mode", "x".repeat(10_000), "😀".repeat(5_000), "<!channel> @everyone <https://evil.example|click> & <@U123>", "a\nb\r\n\t*bold* _i_ `code` ~s~"];
const TYPES: WebhookEventName[] = [...WEBHOOK_EVENT_TYPES, "webhook.test"];
const cases = TYPES.flatMap((type) => TEXTS.map((text) => [type, text.slice(0, 20), text] as const));

/** No lone surrogate halves: a service would refuse or mangle them. */
const wellFormed = (s: string) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

interface SlackText {
  type: string;
  text: string;
}
interface SlackBlock {
  type: string;
  text?: SlackText;
  elements?: SlackText[];
}

describe("Slack incoming-webhook bodies", () => {
  // Slack's documented shape: `text` (required as the notification and fallback when `blocks`
  // are sent), at most 50 blocks; a header holds plain_text of 1–150 characters, a section's
  // text 1–3000 characters, a context block at most 10 elements.
  it.each(cases)("%s with %j keeps to the documented shape and limits", (type, _label, text) => {
    const body = JSON.parse(renderBody("slack", eventOf(type, text), links)) as { text: string; blocks: SlackBlock[] };
    expect(Object.keys(body).sort()).toEqual(["blocks", "text"]);
    expect(typeof body.text).toBe("string");
    expect(body.text.length).toBeGreaterThan(0);
    expect(body.text.length).toBeLessThanOrEqual(3000);
    expect(body.blocks.length).toBeGreaterThan(0);
    expect(body.blocks.length).toBeLessThanOrEqual(50);
    for (const block of body.blocks) {
      expect(["header", "section", "context"]).toContain(block.type);
      if (block.type === "header") {
        expect(block.text!.type).toBe("plain_text");
        expect(block.text!.text.length).toBeGreaterThan(0);
        expect(block.text!.text.length).toBeLessThanOrEqual(150);
      }
      if (block.type === "section") {
        expect(["mrkdwn", "plain_text"]).toContain(block.text!.type);
        expect(block.text!.text.trim().length).toBeGreaterThan(0);
        expect(block.text!.text.length).toBeLessThanOrEqual(3000);
      }
      if (block.type === "context") {
        expect(block.elements!.length).toBeGreaterThan(0);
        expect(block.elements!.length).toBeLessThanOrEqual(10);
        for (const element of block.elements!) expect(element.text.length).toBeLessThanOrEqual(3000);
      }
    }
    expect(wellFormed(body.text)).toBe(true);
    for (const block of body.blocks) expect(wellFormed(block.text?.text ?? "")).toBe(true);
  });

  it("escapes user text so it cannot mention a channel or fake a link, and links to the portal", () => {
    const body = JSON.parse(renderBody("slack", eventOf("comment.created", "<!channel> <https://evil.example|click> & co"), links)) as { text: string; blocks: SlackBlock[] };
    const mrkdwn = body.blocks.filter((b) => b.text?.type === "mrkdwn").map((b) => b.text!.text);
    expect(mrkdwn.join("\n")).not.toMatch(/<!channel>|<https:\/\/evil/);
    expect(mrkdwn.join("\n")).toContain("&lt;!channel&gt; &lt;https://evil.example|click&gt; &amp; co");
    expect(mrkdwn.join("\n")).toContain("<https://feedback.example.com/p/app_key/requests/fr_1-channel-https-evil-example-click-co|Open in Tidings>");
    expect(body.text).toBe("New comment on &lt;!channel&gt; &lt;https://evil.example|click&gt; &amp; co");
  });

  it("shows the request's status and vote count", () => {
    const body = JSON.parse(renderBody("slack", eventOf("vote.added", "Dark mode"), links)) as { blocks: SlackBlock[] };
    expect(JSON.stringify(body.blocks)).toContain("*Status:* Dark mode\\n*Votes:* 12");
  });
});

interface DiscordEmbed {
  title?: string;
  description?: string;
  url?: string;
  timestamp?: string;
  fields?: { name: string; value: string; inline?: boolean }[];
  footer?: { text: string };
}

describe("Discord execute-webhook bodies", () => {
  // Discord's documented limits: `content` ≤ 2000 characters, one of content/embeds required, at
  // most 10 embeds; an embed's title ≤ 256, description ≤ 4096, at most 25 fields (name ≤ 256,
  // value ≤ 1024, neither empty), footer text ≤ 2048, and 6000 characters across all of them.
  it.each(cases)("%s with %j keeps to the documented shape and limits", (type, _label, text) => {
    const body = JSON.parse(renderBody("discord", eventOf(type, text), links)) as { content?: string; embeds: DiscordEmbed[]; allowed_mentions: { parse: string[] } };
    expect(body.content !== undefined || body.embeds.length > 0).toBe(true);
    if (body.content !== undefined) expect(body.content.length).toBeLessThanOrEqual(2000);
    expect(body.embeds.length).toBeLessThanOrEqual(10);
    expect(body.allowed_mentions).toEqual({ parse: [] });
    let total = 0;
    for (const embed of body.embeds) {
      expect(embed.title!.length).toBeGreaterThan(0);
      expect(embed.title!.length).toBeLessThanOrEqual(256);
      expect((embed.description ?? "").length).toBeLessThanOrEqual(4096);
      expect(embed.fields!.length).toBeLessThanOrEqual(25);
      for (const field of embed.fields!) {
        expect(field.name.length).toBeGreaterThan(0);
        expect(field.name.length).toBeLessThanOrEqual(256);
        expect(field.value.length).toBeGreaterThan(0);
        expect(field.value.length).toBeLessThanOrEqual(1024);
        expect(wellFormed(field.name) && wellFormed(field.value)).toBe(true);
      }
      expect(embed.footer!.text.length).toBeLessThanOrEqual(2048);
      expect(new URL(embed.url!).origin).toBe("https://feedback.example.com");
      expect(new Date(embed.timestamp!).toISOString()).toBe(embed.timestamp);
      expect(wellFormed(embed.title!) && wellFormed(embed.description ?? "")).toBe(true);
      total += embed.title!.length + (embed.description ?? "").length + embed.footer!.text.length + embed.fields!.reduce((n, f) => n + f.name.length + f.value.length, 0);
    }
    expect(total).toBeLessThanOrEqual(6000);
  });

  it("titles the embed with the request, links it to the portal and lists status and votes", () => {
    const body = JSON.parse(renderBody("discord", eventOf("request.status_changed", "Dark mode"), links)) as { embeds: DiscordEmbed[] };
    expect(body.embeds[0]).toMatchObject({
      title: "Dark mode moved to Dark mode",
      url: "https://feedback.example.com/p/app_key/requests/fr_1-dark-mode",
      fields: [
        { name: "From", value: "Dark mode", inline: true },
        { name: "Status", value: "Dark mode", inline: true },
        { name: "Votes", value: "12", inline: true },
      ],
    });
  });
});

describe("clip", () => {
  it("never cuts a surrogate pair and marks the cut", () => {
    expect(clip("😀😀😀", 4)).toBe("😀…");
    expect(clip("ab😀", 3)).toBe("ab…");
    expect(clip("short", 10)).toBe("short");
    expect(clip("abcdef", 4)).toBe("abc…");
  });
});

describe("standard bodies", () => {
  it("are the recorded event with links added", () => {
    const event = eventOf("request.created", "Dark mode");
    const body = JSON.parse(renderBody("standard", event, links)) as WebhookEvent & { data: { request: { url: string } } };
    expect(body).toMatchObject({ type: "request.created", version: 1, id: "whe_1", app: { key: "app_key" } });
    expect(body.data.request.url).toBe("https://feedback.example.com/p/app_key/requests/fr_1-dark-mode");
  });

  it("link a merge to both requests' pages, a release to its page and a deleted request to the list", () => {
    const merged = JSON.parse(renderBody("standard", eventOf("request.merged", "Dark mode"), links)) as { data: { request: { url: string }; into: { url: string } } };
    expect(merged.data.request.url).toBe("https://feedback.example.com/p/app_key/requests/fr_1-dark-mode");
    expect(merged.data.into.url).toBe("https://feedback.example.com/p/app_key/requests/fr_2-dark-mode");
    const released = JSON.parse(renderBody("standard", eventOf("changelog.published", "Spring"), links)) as { data: { entry: { url: string } } };
    expect(released.data.entry.url).toBe("https://feedback.example.com/p/app_key/changelog/cl_1-spring");
    const deleted = JSON.parse(renderBody("standard", eventOf("request.deleted", "Gone"), links)) as { data: { request: { url: string } } };
    expect(deleted.data.request.url).toBe("https://feedback.example.com/p/app_key/requests");
  });
});
