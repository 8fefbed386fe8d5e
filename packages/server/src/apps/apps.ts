import type {
  AppPatch,
  AppRecord,
  PublicAppConfig,
  SdkAppearance,
  VerificationProvider,
} from "@tidings/protocol";
import type { Insertable, Kysely, Selectable } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { AppsTable, Database, Flag } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { newId, randomToken } from "../ids.js";
import { isUniqueViolation } from "../db/constraint-violations.js";
import { insertWithSlug, slugify } from "../slug.js";
import { requiredProvider } from "./verification-policy.js";
import { createDefaultColumns } from "./starting-columns.js";
import { createDefaultBoard } from "./starting-board.js";

export type AppRow = Selectable<AppsTable>;

/** Default attachment cap: 20 MB, what the official mobile SDKs assume. */
export const DEFAULT_MAX_ATTACHMENT_BYTES = 20_000_000;

/** Appearance and feature flags of a new app. */
export const DEFAULT_SDK: SdkAppearance = {
  theme: "system",
  features: { feedback: true, featureRequests: true, roadmap: true, changelog: true },
  changelogOverlay: { title: "What's New", subtitle: "", entryCount: 3, primaryButton: "Continue", closeButton: "Close" },
};

const flag = (value: boolean): Flag => (value ? 1 : 0);

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** The stored `sdk` column, completed with defaults for any key a newer version added. */
export function sdkOf(row: AppRow): SdkAppearance {
  const stored = parseJson<Partial<SdkAppearance>>(row.sdk, {});
  return {
    theme: stored.theme ?? DEFAULT_SDK.theme,
    features: { ...DEFAULT_SDK.features, ...stored.features },
    changelogOverlay: { ...DEFAULT_SDK.changelogOverlay, ...stored.changelogOverlay },
  };
}

function verificationOf(row: AppRow) {
  return {
    provider: row.verificationProvider as VerificationProvider,
    siteKey: row.verificationSiteKey,
    hasSecret: row.verificationSecret !== null,
    exempt: row.verificationExempt === 1,
    trustIdentifiedUsers: row.verificationTrustIdentified === 1,
  };
}

/** The console view of an app (never the signing or verification secret). */
export function toAppRecord(row: AppRow): AppRecord {
  return {
    appId: row.id,
    workspaceId: row.workspaceId,
    appKey: row.appKey,
    slug: row.slug,
    name: row.name,
    storeUrl: row.storeUrl,
    storeKind: row.storeKind,
    appStoreUrl: row.appStoreUrl,
    googlePlayUrl: row.googlePlayUrl,
    websiteUrl: row.websiteUrl,
    iconUrl: row.iconUrl,
    hideSiteBranding: row.hideSiteBranding === 1,
    allowedEmbedOrigins: parseJson<string[]>(row.allowedEmbedOrigins, []),
    allowPublic: row.allowPublic === 1,
    allowAnonymousRoadmap: row.allowAnonymousRoadmap === 1,
    allowAnonymousVote: row.allowAnonymousVote === 1,
    allowAnonymousFeedback: row.allowAnonymousFeedback === 1,
    allowAnonymousChangelog: row.allowAnonymousChangelog === 1,
    portalIndexable: row.portalIndexable === 1,
    requireIdentifiedUsers: row.requireIdentifiedUsers === 1,
    allowedPlatforms: parseJson<AppRecord["allowedPlatforms"]>(row.allowedPlatforms, []),
    maxAttachmentBytes: row.maxAttachmentBytes,
    moderationPolicy: row.moderationPolicy as AppRecord["moderationPolicy"],
    sdk: sdkOf(row),
    verification: verificationOf(row),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The settings view (wire-contract AppSettings plus the rest of the settings). */
export function toAppSettings(row: AppRow) {
  const r = toAppRecord(row);
  return {
    appId: r.appId,
    allowPublic: r.allowPublic,
    allowAnonymousRoadmap: r.allowAnonymousRoadmap,
    allowAnonymousVote: r.allowAnonymousVote,
    allowAnonymousFeedback: r.allowAnonymousFeedback,
    allowAnonymousChangelog: r.allowAnonymousChangelog,
    portalIndexable: r.portalIndexable,
    requireIdentifiedUsers: r.requireIdentifiedUsers,
    allowedPlatforms: r.allowedPlatforms,
    maxAttachmentBytes: r.maxAttachmentBytes,
    moderationPolicy: r.moderationPolicy,
    sdk: r.sdk,
    verification: r.verification,
    updatedAt: r.updatedAt,
  };
}

/**
 * The public configuration of a public app. `production` matters because production enforces
 * human verification (the built-in altcha) on apps that configured no provider.
 */
export function toPublicConfig(row: AppRow, workspaceSlug: string, production: boolean): PublicAppConfig {
  const r = toAppRecord(row);
  const provider = requiredProvider(row, production);
  const config: PublicAppConfig = {
    appId: r.appId,
    appKey: r.appKey,
    workspaceSlug,
    slug: r.slug,
    name: r.name,
    storeUrl: r.storeUrl,
    storeKind: r.storeKind,
    appStoreUrl: r.appStoreUrl,
    googlePlayUrl: r.googlePlayUrl,
    websiteUrl: r.websiteUrl,
    iconUrl: r.iconUrl,
    allowPublic: true,
    hideSiteBranding: r.hideSiteBranding,
    allowedPlatforms: r.allowedPlatforms,
    maxAttachmentBytes: r.maxAttachmentBytes,
    allowAnonymousRoadmap: r.allowAnonymousRoadmap,
    allowAnonymousVote: r.allowAnonymousVote,
    allowAnonymousFeedback: r.allowAnonymousFeedback,
    allowAnonymousChangelog: r.allowAnonymousChangelog,
    verification: {
      provider: provider ?? r.verification.provider,
      siteKey: provider === "altcha" ? null : r.verification.siteKey,
      required: provider !== null,
      trustIdentifiedUsers: r.verification.trustIdentifiedUsers,
    },
    sdk: r.sdk,
  };
  if (r.allowedEmbedOrigins.length > 0) config.allowedEmbedOrigins = r.allowedEmbedOrigins;
  return config;
}

/** Column values for a patch, merging `sdk` and `verification` into what `current` stores. */
export function patchColumns(patch: AppPatch, current: AppRow | null): Partial<AppRow> {
  const out: Partial<AppRow> = {};
  const copy = <K extends keyof AppPatch & keyof AppRow>(key: K) => {
    if (patch[key] !== undefined) (out as Record<string, unknown>)[key] = patch[key];
  };
  copy("name");
  copy("slug");
  copy("storeUrl");
  copy("storeKind");
  copy("appStoreUrl");
  copy("googlePlayUrl");
  copy("websiteUrl");
  copy("iconUrl");
  copy("maxAttachmentBytes");
  copy("moderationPolicy");
  for (const key of [
    "hideSiteBranding",
    "allowPublic",
    "allowAnonymousRoadmap",
    "allowAnonymousVote",
    "allowAnonymousFeedback",
    "allowAnonymousChangelog",
    "portalIndexable",
    "requireIdentifiedUsers",
  ] as const) {
    const value = patch[key];
    if (value !== undefined) out[key] = flag(value);
  }
  if (patch.allowedPlatforms !== undefined) out.allowedPlatforms = JSON.stringify(patch.allowedPlatforms);
  if (patch.allowedEmbedOrigins !== undefined) out.allowedEmbedOrigins = JSON.stringify(patch.allowedEmbedOrigins);
  if (patch.sdk !== undefined) {
    const base = current === null ? DEFAULT_SDK : sdkOf(current);
    const merged: SdkAppearance = {
      theme: patch.sdk.theme ?? base.theme,
      features: { ...base.features, ...patch.sdk.features },
      changelogOverlay: { ...base.changelogOverlay, ...patch.sdk.changelogOverlay },
    };
    out.sdk = JSON.stringify(merged);
  }
  const v = patch.verification;
  if (v !== undefined) {
    if (v.provider !== undefined) out.verificationProvider = v.provider;
    if (v.siteKey !== undefined) out.verificationSiteKey = v.siteKey;
    if (v.secretKey !== undefined) out.verificationSecret = v.secretKey;
    if (v.exempt !== undefined) out.verificationExempt = flag(v.exempt);
    if (v.trustIdentifiedUsers !== undefined) out.verificationTrustIdentified = flag(v.trustIdentifiedUsers);
  }
  return out;
}

/** A new app key: `app_` + 28 URL-safe random characters. */
export function newAppKey(): string {
  return `app_${randomToken(28)}`;
}

/** A new signing secret for identity hashes and attribute signatures. */
export function newSigningSecret(): string {
  return `tsk_${randomToken(40)}`;
}

/**
 * Creates an app with default settings and the default roadmap columns. Runs inside the
 * caller's transaction.
 */
export async function createApp(
  trx: Kysely<Database>,
  clock: Clock,
  workspaceId: string,
  input: AppPatch & { name: string },
  fixed: { appKey?: string } = {},
): Promise<{ row: AppRow; signingSecret: string }> {
  const now = isoNow(clock);
  const signingSecret = newSigningSecret();
  const id = newId("app", clock.now());
  const appKey = fixed.appKey ?? newAppKey();
  const rowWith = (slug: string): AppRow => ({
    id,
    workspaceId,
    appKey,
    name: input.name,
    slug,
    signingSecret,
    storeUrl: null,
    storeKind: null,
    appStoreUrl: null,
    googlePlayUrl: null,
    websiteUrl: null,
    iconUrl: null,
    hideSiteBranding: 0,
    allowedEmbedOrigins: "[]",
    allowPublic: 1,
    allowAnonymousRoadmap: 1,
    allowAnonymousVote: 1,
    allowAnonymousFeedback: 1,
    allowAnonymousChangelog: 1,
    portalIndexable: 0,
    allowedPlatforms: "[]",
    maxAttachmentBytes: DEFAULT_MAX_ATTACHMENT_BYTES,
    moderationPolicy: "anonymous",
    sdk: JSON.stringify(DEFAULT_SDK),
    verificationProvider: "none",
    verificationSiteKey: null,
    verificationSecret: null,
    verificationExempt: 0,
    verificationTrustIdentified: 1,
    requireIdentifiedUsers: 0,
    createdAt: now,
    updatedAt: now,
    ...patchColumns({ ...input, slug }, null),
  });
  // A client's slug that another request took meanwhile is 409 slug_taken; a derived one is derived again.
  const slug = await insertWithSlug(
    input.slug,
    slugify(input.name, "app"),
    async () => new Set((await trx.selectFrom("apps").select("slug").where("workspaceId", "=", workspaceId).execute()).map((r) => r.slug)),
    async (candidate) =>
      (await trx
        .insertInto("apps")
        .values(insertedColumns(rowWith(candidate)))
        .onConflict((oc) => oc.columns(["workspaceId", "slug"]).doNothing())
        .returning("id")
        .executeTakeFirst()) !== undefined,
  );
  const row = rowWith(slug);
  await createDefaultColumns(trx, clock, row.id);
  await createDefaultBoard(trx, clock, row.id);
  return { row, signingSecret };
}

/**
 * The columns an insert names: settings added by later migrations are left to their column
 * default when they hold it, so creating an app also works on a database that an upgrade has not
 * reached yet (the migration tests create apps on old schemas).
 */
function insertedColumns(row: AppRow): Insertable<AppsTable> {
  const { portalIndexable, requireIdentifiedUsers, verificationTrustIdentified, ...rest } = row;
  return {
    ...rest,
    ...(portalIndexable === 0 ? {} : { portalIndexable }),
    ...(requireIdentifiedUsers === 0 ? {} : { requireIdentifiedUsers }),
    ...(verificationTrustIdentified === 1 ? {} : { verificationTrustIdentified }),
  };
}

/** Applies a patch to an app in `workspaceId`; 404 when it is not there, 409 on a taken slug. */
export async function updateApp(
  trx: Kysely<Database>,
  clock: Clock,
  workspaceId: string,
  appId: string,
  patch: AppPatch,
): Promise<AppRow> {
  const current = await findAppInWorkspace(trx, workspaceId, appId);
  if (patch.slug !== undefined && patch.slug !== current.slug) {
    const clash = await trx
      .selectFrom("apps")
      .select("id")
      .where("workspaceId", "=", workspaceId)
      .where("slug", "=", patch.slug)
      .executeTakeFirst();
    if (clash !== undefined) throw new ApiError("slug_taken");
  }
  const changes = { ...patchColumns(patch, current), updatedAt: isoNow(clock) };
  // A concurrent rename may take the slug after the check: the unique index decides.
  await trx
    .updateTable("apps")
    .set(changes)
    .where("id", "=", appId)
    .execute()
    .catch((error: unknown) => {
      throw isUniqueViolation(error, "slug") ? new ApiError("slug_taken") : error;
    });
  return { ...current, ...changes };
}

/** Replaces the signing secret; the old one stops working at once. */
export async function rotateSigningSecret(
  trx: Kysely<Database>,
  clock: Clock,
  workspaceId: string,
  appId: string,
): Promise<string> {
  await findAppInWorkspace(trx, workspaceId, appId);
  const signingSecret = newSigningSecret();
  await trx.updateTable("apps").set({ signingSecret, updatedAt: isoNow(clock) }).where("id", "=", appId).execute();
  return signingSecret;
}

/** The app `appId` of `workspaceId`, or 404 `app_not_found`. */
export async function findAppInWorkspace(db: Kysely<Database>, workspaceId: string, appId: string): Promise<AppRow> {
  const row = await db
    .selectFrom("apps")
    .selectAll()
    .where("id", "=", appId)
    .where("workspaceId", "=", workspaceId)
    .executeTakeFirst();
  if (row === undefined) throw new ApiError("app_not_found");
  return row;
}

/** An app by id with its workspace's slug, or undefined. */
export async function findAppById(db: Kysely<Database>, appId: string): Promise<AppRow | undefined> {
  return db.selectFrom("apps").selectAll().where("id", "=", appId).executeTakeFirst();
}

/** What any app key looks like (`app_demo`, `app_` + random URL-safe characters). */
const APP_KEY_SHAPE = /^[A-Za-z0-9_-]{4,128}$/;

/** An app by its public key with its workspace's slug, or undefined. */
export async function findAppByKey(
  db: Kysely<Database>,
  appKey: string,
): Promise<{ app: AppRow; workspaceSlug: string } | undefined> {
  if (!APP_KEY_SHAPE.test(appKey)) return undefined;
  const row = await db
    .selectFrom("apps")
    .innerJoin("workspaces", "workspaces.id", "apps.workspaceId")
    .selectAll("apps")
    .select("workspaces.slug as workspaceSlug")
    .where("apps.appKey", "=", appKey)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const { workspaceSlug, ...app } = row;
  return { app, workspaceSlug };
}
