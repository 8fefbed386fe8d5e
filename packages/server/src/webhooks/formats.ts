import type { WebhookFormat } from "@tidings/protocol";
import type { WebhookEvent } from "./event-envelope.js";
import { withLinks, type EventLinks } from "./event-links.js";
import { describeEvent, type EventMessage } from "./messages.js";

/**
 * Cuts `text` to at most `max` UTF-16 units (so it fits however a service counts characters),
 * never inside a surrogate pair, ending with … when cut.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  if (end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end--;
  return `${text.slice(0, end)}…`;
}

/** Slack's markup characters: `<!channel>` in user text would ping everyone. */
function slackEscape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Slack Block Kit limits: header text 150, section text 3000, a context element 2000, top-level text kept short. */
export const SLACK_LIMITS = { header: 150, section: 3000, context: 2000, text: 3000 } as const;

/**
 * A Slack incoming-webhook body: `text` (the notification and fallback) and `blocks` (a header,
 * the user's text, the fields, a link, the app's name), user text escaped so it cannot mention
 * or link, every text within Block Kit's limits.
 */
export function slackBody(message: EventMessage): Record<string, unknown> {
  const link = `<${message.url}|Open in Tidings>`;
  const blocks: Record<string, unknown>[] = [{ type: "header", text: { type: "plain_text", text: clip(message.title, SLACK_LIMITS.header), emoji: false } }];
  if (message.body.trim() !== "") blocks.push({ type: "section", text: { type: "mrkdwn", text: slackEscape(clip(message.body, 2900)) } });
  const fields = message.fields.map((f) => `*${slackEscape(clip(f.name, 100))}:* ${slackEscape(clip(f.value, 500))}`);
  blocks.push({ type: "section", text: { type: "mrkdwn", text: clip([...fields, link].join("\n"), SLACK_LIMITS.section) } });
  blocks.push({ type: "context", elements: [{ type: "mrkdwn", text: slackEscape(clip(message.footer, 1900)) }] });
  return { text: slackEscape(clip(message.title, 1000)), blocks };
}

/** Discord embed limits (per the Message resource documentation). */
export const DISCORD_LIMITS = { embeds: 10, title: 256, description: 4096, fieldName: 256, fieldValue: 1024, fields: 25, footer: 2048, total: 6000 } as const;

/**
 * A Discord execute-webhook body (`embeds` without `content`, the title being in the embed): one embed (title linking to the request, the user's text,
 * inline fields, the app's name as footer) within Discord's limits, and `allowed_mentions` empty
 * so user text never pings anyone.
 */
export function discordBody(message: EventMessage, timestamp: string): Record<string, unknown> {
  const title = clip(message.title, DISCORD_LIMITS.title);
  const footer = clip(message.footer, 200);
  const fields = message.fields.slice(0, DISCORD_LIMITS.fields).map((f) => ({ name: clip(f.name, 100), value: clip(f.value || "—", 500), inline: true }));
  const used = title.length + footer.length + fields.reduce((n, f) => n + f.name.length + f.value.length, 0);
  // The whole embed stays under 6000 characters: the description takes what is left.
  const description = clip(message.body, Math.min(DISCORD_LIMITS.description, DISCORD_LIMITS.total - used - 100));
  const embed: Record<string, unknown> = { title, url: message.url, fields, footer: { text: footer }, timestamp };
  if (description.trim() !== "") embed.description = description;
  return { embeds: [embed], allowed_mentions: { parse: [] } };
}

/**
 * The JSON body of a delivery in an endpoint's format.
 *
 * @example
 * ```ts
 * const body = renderBody("slack", event, { base: "https://feedback.example.com" });
 * ```
 */
export function renderBody(format: WebhookFormat, event: WebhookEvent, links: EventLinks): string {
  if (format === "standard") return JSON.stringify(withLinks(event, links));
  const message = describeEvent(event, links);
  return JSON.stringify(format === "slack" ? slackBody(message) : discordBody(message, event.timestamp));
}
