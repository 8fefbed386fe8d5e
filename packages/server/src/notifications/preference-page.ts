import escapeHtml from "escape-html";
import type { Kysely } from "kysely";
import type { AppRow } from "../apps/app-row.js";
import type { Context } from "../context.js";
import type { Database } from "../db/schema.js";
import { page } from "../mail/html.js";
import { readPreferencesToken } from "./links.js";
import type { NotificationPreferences } from "./preferences.js";

/** The address and app behind a preference-page token, or undefined when it is not authentic or not this app's. */
export async function tokenOwner(ctx: Context, appId: string, token: string | undefined): Promise<{ email: string } | undefined> {
  if (token === undefined || token === "") return undefined;
  const subscriptionId = await readPreferencesToken(ctx, token);
  if (subscriptionId === undefined) return undefined;
  return ctx.db.kysely.selectFrom("emailSubscriptions").select("email").where("id", "=", subscriptionId).where("appId", "=", appId).executeTakeFirst();
}

/** The confirmed subscriptions of an address in an app, with the title of each followed request. */
export async function activeSubscriptions(db: Kysely<Database>, appId: string, email: string) {
  return db
    .selectFrom("emailSubscriptions as s")
    .leftJoin("featureRequests as fr", "fr.id", "s.featureRequestId")
    .select(["s.id", "s.kind", "fr.title"])
    .where("s.appId", "=", appId)
    .where("s.email", "=", email)
    .where("s.status", "=", "confirmed")
    .orderBy("s.createdAt")
    .execute();
}

/** The preference page: what to be told about, and which subscriptions to keep. */
export function preferencePage(app: AppRow, email: string, token: string, prefs: NotificationPreferences, subs: Awaited<ReturnType<typeof activeSubscriptions>>, notice: string | null): string {
  const box = (name: string, checked: boolean, label: string) =>
    `<label style="display:block"><input type="checkbox" name="${escapeHtml(name)}" value="on"${checked ? " checked" : ""}> ${escapeHtml(label)}</label>`;
  const follows = subs.filter((s) => s.kind !== "changelog" && s.title !== null);
  const changelog = subs.some((s) => s.kind === "changelog");
  return page(
    `Notifications from ${app.name}`,
    [
      `<h1>Notifications from ${escapeHtml(app.name)}</h1>`,
      `<p>For ${escapeHtml(email)}.</p>`,
      notice === null ? "" : `<p role="status"><strong>${escapeHtml(notice)}</strong></p>`,
      `<form method="post" action="/api/v1/public/apps/${encodeURIComponent(app.appKey)}/notifications">`,
      `<input type="hidden" name="token" value="${escapeHtml(token)}">`,
      `<fieldset><legend>About the requests I follow, tell me when</legend>`,
      box("moves", prefs.moves, "it moves on the roadmap"),
      box("replies", prefs.replies, "the team replies"),
      box("ships", prefs.ships, "it ships, with the release notes"),
      `</fieldset>`,
      follows.length === 0 && !changelog
        ? "<p>You follow nothing here any more.</p>"
        : `<fieldset><legend>Keep receiving</legend>${follows.map((s) => box(`keep_${s.id}`, true, s.kind === "ship" ? `“${s.title ?? ""}” ships` : `“${s.title ?? ""}”`)).join("")}${changelog ? box(`keep_${subs.find((s) => s.kind === "changelog")!.id}`, true, "All release notes") : ""}</fieldset>`,
      `<p>Mails are batched: at most one an hour.</p>`,
      `<button type="submit">Save</button></form>`,
    ].join("\n"),
  );
}
