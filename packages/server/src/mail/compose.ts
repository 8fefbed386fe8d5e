import escapeHtml from "escape-html";
import type { Config } from "../config.js";
import type { MailMessage } from "./mailer.js";

/** The origin links in mail point at: `PUBLIC_URL`, else this server on localhost. */
export function publicBase(config: Pick<Config, "publicUrl" | "port">): string {
  return config.publicUrl ?? `http://localhost:${config.port}`;
}

/** Removes line breaks and control characters from text placed in a subject or display name. */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  return text.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
}

/**
 * A mail with the RFC 8058 one-click unsubscribe headers every mail to a list carries.
 *
 * @example
 * ```ts
 * composeMail({ to, subject: "Confirm", paragraphs: ["…"], action: { label: "Confirm", url }, unsubscribeUrl, messageId: "confirm.sub_1@tidings" });
 * ```
 */
export function composeMail(input: {
  to: string;
  subject: string;
  paragraphs: readonly string[];
  /** Already sanitised HTML placed after the paragraphs (a release's rendered notes). */
  htmlBlock?: string;
  textBlock?: string;
  action?: { label: string; url: string };
  /** Absent only for mail about the reader's own account or service (no list to leave). */
  unsubscribeUrl?: string;
  messageId: string;
}): MailMessage {
  const text = [
    ...input.paragraphs,
    ...(input.textBlock === undefined ? [] : [input.textBlock]),
    ...(input.action === undefined ? [] : [`${input.action.label}: ${input.action.url}`]),
    ...(input.unsubscribeUrl === undefined ? [] : [`Unsubscribe: ${input.unsubscribeUrl}`]),
  ].join("\n\n");
  const html = [
    ...input.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    input.htmlBlock ?? "",
    input.action === undefined ? "" : `<p><a href="${escapeHtml(input.action.url)}">${escapeHtml(input.action.label)}</a></p>`,
    input.unsubscribeUrl === undefined ? "" : `<p style="font-size:12px;color:#666"><a href="${escapeHtml(input.unsubscribeUrl)}">Unsubscribe</a></p>`,
  ].join("\n");
  return {
    to: input.to,
    subject: oneLine(input.subject),
    text,
    html,
    headers:
      input.unsubscribeUrl === undefined
        ? {}
        : { "List-Unsubscribe": `<${input.unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    messageId: `<${input.messageId}>`,
    links: [...(input.action === undefined ? [] : [input.action.url]), ...(input.unsubscribeUrl === undefined ? [] : [input.unsubscribeUrl])],
  };
}
