import escapeHtml from "escape-html";
import type { Kysely } from "kysely";
import { isoNow } from "../clock.js";
import { renderMarkdown } from "../changelog/markdown.js";
import { mailJob, messageHost, unsubscribeUrl, type MailApp } from "../changelog/subscription-mail.js";
import type { Context } from "../context.js";
import type { Database } from "../db/schema.js";
import { enqueueJobs } from "../jobs/queue.js";
import { type JobRow } from "../jobs/job-claims.js";
import { composeMail, oneLine, publicBase } from "../mail/compose.js";
import type { DigestJobPayload } from "../feature-requests/notices.js";
import { preferenceOf, readPreferences } from "./preferences.js";
import { preferencesUrl } from "./links.js";

type NoticeRow = { id: string; kind: "moved" | "replied" | "shipped"; data: string; featureRequestId: string; subscriptionId: string; status: string | null; title: string | null };

function pendingNotices(trx: Kysely<Database>, payload: DigestJobPayload, now: string): Promise<NoticeRow[]> {
  return trx
    .selectFrom("requestUpdateNotices as n")
    .leftJoin("emailSubscriptions as s", "s.id", "n.subscriptionId")
    .leftJoin("featureRequests as fr", "fr.id", "n.featureRequestId")
    .select(["n.id", "n.kind", "n.data", "n.featureRequestId", "n.subscriptionId", "s.status", "fr.title"])
    .where("n.appId", "=", payload.appId)
    .where("n.email", "=", payload.email)
    .where("n.sentAt", "is", null)
    .where("n.createdAt", "<=", now)
    .orderBy("n.createdAt")
    .orderBy("n.id")
    .execute();
}

function line(notice: NoticeRow): string | null {
  const data = JSON.parse(notice.data) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === "string" ? oneLine(value) : null);
  if (notice.kind === "moved") {
    const column = text(data.toColumn);
    return column === null ? "Moved on the roadmap." : `Moved to ${column}.`;
  }
  if (notice.kind === "replied") return `${text(data.author) ?? "The team"} replied: “${text(data.body) ?? ""}”`;
  return typeof data.entryId === "string" ? null : "Shipped!";
}

/** The published releases that ship `featureRequestIds`, oldest first. */
async function releaseNotes(trx: Kysely<Database>, featureRequestIds: string[]) {
  if (featureRequestIds.length === 0) return [];
  return trx
    .selectFrom("changelogEntryRequests as l")
    .innerJoin("changelogEntries as e", "e.id", "l.entryId")
    .select(["e.id", "e.title", "e.body", "e.versionLabel", "e.publishedAt"])
    .where("l.featureRequestId", "in", featureRequestIds)
    .where("e.status", "=", "published")
    .distinct()
    .orderBy("e.publishedAt")
    .orderBy("e.id")
    .execute();
}

/**
 * The digest job: every update of the address's followed requests not mailed yet becomes one
 * mail (grouped by request, shipped requests with their release notes), queued as a `mail` job
 * in the transaction that marks the notices sent, so a retried digest never mails twice.
 * Updates the address no longer wants (unfollowed, unsubscribed, switched off on the preference
 * page) are marked sent without a mail.
 */
export function digestJobHandler(ctx: Context) {
  return async (raw: unknown, job: JobRow): Promise<void> => {
    const payload = raw as DigestJobPayload;
    await ctx.db.kysely.transaction().execute(async (trx) => {
      const now = isoNow(ctx.clock);
      const notices = await pendingNotices(trx, payload, now);
      if (notices.length === 0) return;
      const claimed = await trx
        .updateTable("requestUpdateNotices")
        .set({ sentAt: now })
        .where(
          "id",
          "in",
          notices.map((n) => n.id),
        )
        .where("sentAt", "is", null)
        .executeTakeFirst();
      // Another digest of this address took some meanwhile: roll back and let the retry see what is left.
      if (Number(claimed.numUpdatedRows) !== notices.length) throw new Error("notices were claimed by another digest");
      const prefs = await readPreferences(trx, payload.appId, payload.email);
      const wanted = notices.filter((n) => n.status === "confirmed" && n.title !== null && prefs[preferenceOf(n.kind)]);
      const first = wanted[0];
      if (first === undefined) return;
      const app: MailApp = await trx.selectFrom("apps").select(["id", "appKey", "name"]).where("id", "=", payload.appId).executeTakeFirstOrThrow();

      const byRequest = new Map<string, NoticeRow[]>();
      for (const notice of wanted) byRequest.set(notice.featureRequestId, [...(byRequest.get(notice.featureRequestId) ?? []), notice]);
      const paragraphs: string[] = [];
      for (const group of byRequest.values()) {
        paragraphs.push(`“${oneLine(group[0]!.title ?? "")}”`);
        const lines = [...new Set(group.map(line).filter((l): l is string => l !== null))];
        paragraphs.push(...(lines.length === 0 ? ["Shipped!"] : lines));
      }
      const shipped = [...byRequest.entries()].filter(([, group]) => group.some((n) => n.kind === "shipped")).map(([id]) => id);
      const releases = await releaseNotes(trx, shipped);
      const releaseTitle = (r: (typeof releases)[number]) => oneLine(r.versionLabel === null ? r.title : `${r.title} (${r.versionLabel})`);
      const appName = oneLine(app.name);
      const message = composeMail({
        to: payload.email,
        subject: byRequest.size === 1 ? `${appName}: news about “${oneLine(first.title ?? "")}”` : `${appName}: news about ${byRequest.size} requests you follow`,
        paragraphs: [`Here is what happened to the requests you follow in ${appName}.`, ...paragraphs, `See the board: ${publicBase(ctx.config)}/p/${encodeURIComponent(app.appKey)}`],
        ...(releases.length === 0
          ? {}
          : {
              htmlBlock: releases.map((r) => `<h3>${escapeHtml(releaseTitle(r))}</h3>\n${renderMarkdown(r.body)}`).join("\n"),
              textBlock: releases.map((r) => `${releaseTitle(r)}\n\n${r.body}`).join("\n\n"),
            }),
        action: { label: "Choose what you hear about", url: await preferencesUrl(ctx, app, first.subscriptionId) },
        unsubscribeUrl: await unsubscribeUrl(ctx, app, first.subscriptionId),
        messageId: `digest.${job.id}@${messageHost(ctx)}`,
      });
      await enqueueJobs(trx, ctx.clock, [mailJob(`request-digest-mail:${job.id}`, payload.appId, { subscriptionId: first.subscriptionId, requireStatus: "confirmed", message })]);
    });
  };
}
