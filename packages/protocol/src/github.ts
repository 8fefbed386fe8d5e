import Type, { type Static } from "typebox";
import { MAX_SAFE_INTEGER, StringEnum, Timestamp } from "./common.js";

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** Where GitHub's REST API is unless a connection says otherwise (GitHub Enterprise Server, a test server). */
export const GITHUB_API_BASE_URL = "https://api.github.com";

/**
 * Why a connection stopped calling GitHub: the token (or the GitHub App's key) was refused
 * (`unauthorized`), lacks a permission (`forbidden`), the repository is gone or out of its reach
 * (`repository_not_found`); for a GitHub App installation, the installation was removed
 * (`installation_removed`) or suspended (`installation_suspended`), or the repository was taken
 * out of it (`repository_removed`).
 */
export const GITHUB_BROKEN_REASONS = ["unauthorized", "forbidden", "repository_not_found", "installation_removed", "installation_suspended", "repository_removed"] as const;
export type GithubBrokenReason = (typeof GITHUB_BROKEN_REASONS)[number];

const Owner = Type.String({ minLength: 1, maxLength: 39, pattern: "^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$", description: "The user or organisation owning the repository" });
const Repo = Type.String({ minLength: 1, maxLength: 100, pattern: "^[A-Za-z0-9._-]+$", description: "The repository's name" });
const Token = Type.String({
  minLength: 20,
  maxLength: 255,
  pattern: "^[\\x21-\\x7e]+$",
  description: "A fine-grained personal access token (`github_pat_…`) with Issues read and write and Metadata read on the repository; never shown again",
});
/** A GitHub App installation, the other way to reach a repository than a token. */
export const GithubAppCredentialsSchema = Type.Object(
  {
    appId: Type.String({ minLength: 1, maxLength: 20, pattern: "^[0-9]+$", description: "The GitHub App's id (its settings page, \"App ID\")" }),
    privateKey: Type.String({ minLength: 100, maxLength: 10_000, description: "A private key of the GitHub App, the PEM file GitHub downloads; never shown again" }),
    installationId: Type.String({ minLength: 1, maxLength: 20, pattern: "^[0-9]+$", description: "The installation's id on the account owning the repository (the number ending its settings URL)" }),
  },
  { additionalProperties: false },
);
export type GithubAppCredentials = Static<typeof GithubAppCredentialsSchema>;

const ApiBaseUrl = Type.String({ minLength: 8, maxLength: 2048, description: `GitHub's REST API root (default ${GITHUB_API_BASE_URL}); another host must resolve to a public address or one TIDINGS_WEBHOOK_ALLOW names` });
const ColumnRef = Type.String({ minLength: 1, maxLength: 100, description: "A column of the app, by id or slug" });
const LabelColumn = Type.Object(
  { label: Type.String({ minLength: 1, maxLength: 50, description: "A GitHub label name (compared case-insensitively)" }), column: ColumnRef },
  { additionalProperties: false },
);
const LabelColumns = Type.Array(LabelColumn, { maxItems: 50, description: "An issue labelled with one of these labels moves its request to that column" });
const ClosedColumn = Type.Union([ColumnRef, Type.Null()], {
  description: "Where an issue closed as completed moves its request; null: the app's first done column (Shipped)",
});
const ReopenedColumn = Type.Union([ColumnRef, Type.Null()], { description: "Where a reopened issue moves its request; null: it stays where it is" });

export const ConnectGithubBodySchema = Type.Object(
  {
    owner: Owner,
    repo: Repo,
    /** Exactly one of `token` and `githubApp`. */
    token: Type.Optional(Token),
    githubApp: Type.Optional(GithubAppCredentialsSchema),
    apiBaseUrl: Type.Optional(ApiBaseUrl),
    closedColumn: Type.Optional(ClosedColumn),
    reopenedColumn: Type.Optional(ReopenedColumn),
    labelColumns: Type.Optional(LabelColumns),
  },
  { additionalProperties: false },
);
export type ConnectGithubBody = Static<typeof ConnectGithubBodySchema>;

export const GithubConnectionPatchSchema = Type.Object(
  {
    /** A new token, or new GitHub App credentials (at most one of the two): either repairs a broken connection and replaces how it reaches GitHub. */
    token: Type.Optional(Token),
    githubApp: Type.Optional(GithubAppCredentialsSchema),
    apiBaseUrl: Type.Optional(ApiBaseUrl),
    closedColumn: Type.Optional(ClosedColumn),
    reopenedColumn: Type.Optional(ReopenedColumn),
    labelColumns: Type.Optional(LabelColumns),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type GithubConnectionPatch = Static<typeof GithubConnectionPatchSchema>;

const ColumnInfo = Type.Object({ id: Type.String(), slug: Type.String(), name: Type.String() });

/** A connection as the console shows it: never with its token or webhook secret. */
export const GithubConnectionSchema = Type.Object({
  id: Type.String(),
  appId: Type.String(),
  owner: Type.String(),
  repo: Type.String(),
  /** How the connection reaches GitHub: a fine-grained `token`, or a GitHub `app` installation. */
  auth: StringEnum(["token", "app"] as const),
  /** The token's last four characters ("" for a GitHub App installation). */
  tokenHint: Type.String(),
  /** The GitHub App's id and installation id (null for a token). */
  githubAppId: Nullable(Type.String()),
  installationId: Nullable(Type.String()),
  apiBaseUrl: Type.String(),
  /** The payload URL to give GitHub's webhook settings (content type `application/json`, the "Issues" event). */
  webhookUrl: Type.String(),
  /** Where each issue change moves the linked request. `closed` is the column in effect (the first done column unless chosen). */
  mapping: Type.Object({
    closed: Nullable(ColumnInfo),
    reopened: Nullable(ColumnInfo),
    labels: Type.Array(Type.Object({ label: Type.String(), column: ColumnInfo })),
  }),
  /** `broken`: GitHub refused the token or the repository is gone; nothing is called until a new token is saved. */
  status: StringEnum(["active", "broken"] as const),
  brokenReason: Nullable(StringEnum(GITHUB_BROKEN_REASONS)),
  brokenAt: Nullable(Timestamp),
  /** GitHub's rate limit: no call is made before this time. */
  pausedUntil: Nullable(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type GithubConnection = Static<typeof GithubConnectionSchema>;

/** The answer of connect and rotate: the only time the webhook secret is shown. */
export const GithubConnectionWithSecretSchema = Type.Intersect([
  GithubConnectionSchema,
  Type.Object({ webhookSecret: Type.String({ description: "The secret to paste in GitHub's webhook settings; shown once" }) }),
]);

export const CreateGithubIssueBodySchema = Type.Object(
  {
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: "The request's title unless given" })),
    body: Type.Optional(Type.String({ maxLength: 50_000, description: "The request's description unless given; a link back and the demand block are added" })),
  },
  { additionalProperties: false },
);
export type CreateGithubIssueBody = Static<typeof CreateGithubIssueBodySchema>;

export const LinkGithubIssueBodySchema = Type.Object(
  {
    issue: Type.Union([
      Type.Integer({ minimum: 1, maximum: MAX_SAFE_INTEGER }),
      Type.String({ minLength: 1, maxLength: 2048, description: "An issue number (`42`, `#42`) or the issue's URL in the connected repository" }),
    ]),
  },
  { additionalProperties: false },
);
export type LinkGithubIssueBody = Static<typeof LinkGithubIssueBodySchema>;

/** A request's link to an issue. */
export const GithubIssueLinkSchema = Type.Object({
  featureRequestId: Type.String(),
  connectionId: Type.String(),
  /** `owner/repo`. */
  repository: Type.String(),
  issueNumber: Type.Integer(),
  issueUrl: Type.String(),
  issueTitle: Type.String(),
  /** `open` or `closed`, as last seen. */
  issueState: Type.String(),
  /** When the demand block was last written to the issue. */
  lastSyncedAt: Nullable(Timestamp),
  /** Why the block is no longer kept (`issue_not_found`), or null. */
  syncError: Nullable(Type.String()),
  createdAt: Timestamp,
});
export type GithubIssueLink = Static<typeof GithubIssueLinkSchema>;
