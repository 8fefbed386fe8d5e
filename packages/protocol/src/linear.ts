import Type, { type Static } from "typebox";
import { StringEnum, Timestamp } from "./common.js";

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** Where Linear's GraphQL API is unless a connection says otherwise (a test server). */
export const LINEAR_API_URL = "https://api.linear.app/graphql";

/** Why a connection stopped calling Linear: the API key was refused (`unauthorized`) or lacks access (`forbidden`). */
export const LINEAR_BROKEN_REASONS = ["unauthorized", "forbidden"] as const;
export type LinearBrokenReason = (typeof LINEAR_BROKEN_REASONS)[number];

const TeamId = Type.String({ minLength: 1, maxLength: 100, pattern: "^[A-Za-z0-9-]+$", description: "The Linear team's id (a UUID, from the team's settings or `teams` query)" });
const ApiKey = Type.String({ minLength: 20, maxLength: 255, pattern: "^[\\x21-\\x7e]+$", description: "A Linear personal API key (`lin_api_…`) of a member of the team; never shown again" });
const WebhookSecret = Type.String({ minLength: 8, maxLength: 255, pattern: "^[\\x21-\\x7e]+$", description: "The signing secret Linear shows for the webhook; never shown again" });
const ApiUrl = Type.String({ minLength: 8, maxLength: 2048, description: `Linear's GraphQL endpoint (default ${LINEAR_API_URL}); another host must resolve to a public address or one TIDINGS_WEBHOOK_ALLOW names` });
const ColumnRef = Type.String({ minLength: 1, maxLength: 100, description: "A column of the app, by id or slug" });
const CompletedColumn = Type.Union([ColumnRef, Type.Null()], { description: "Where an issue entering a `completed` state moves its request; null: the app's first done column (Shipped)" });
const StartedColumn = Type.Union([ColumnRef, Type.Null()], { description: "Where an issue entering a `started` state moves its request; null: the app's `in-progress` column if it has one" });
const CanceledColumn = Type.Union([ColumnRef, Type.Null()], { description: "Where an issue entering a `canceled` state moves its request; null: it stays where it is" });

export const ConnectLinearBodySchema = Type.Object(
  {
    teamId: TeamId,
    apiKey: ApiKey,
    webhookSecret: WebhookSecret,
    apiUrl: Type.Optional(ApiUrl),
    completedColumn: Type.Optional(CompletedColumn),
    startedColumn: Type.Optional(StartedColumn),
    canceledColumn: Type.Optional(CanceledColumn),
  },
  { additionalProperties: false },
);
export type ConnectLinearBody = Static<typeof ConnectLinearBodySchema>;

export const LinearConnectionPatchSchema = Type.Object(
  {
    apiKey: Type.Optional(ApiKey),
    webhookSecret: Type.Optional(WebhookSecret),
    completedColumn: Type.Optional(CompletedColumn),
    startedColumn: Type.Optional(StartedColumn),
    canceledColumn: Type.Optional(CanceledColumn),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type LinearConnectionPatch = Static<typeof LinearConnectionPatchSchema>;

const ColumnInfo = Type.Object({ id: Type.String(), slug: Type.String(), name: Type.String() });

/** A connection as the console shows it: never with its API key or webhook secret. */
export const LinearConnectionSchema = Type.Object({
  id: Type.String(),
  appId: Type.String(),
  teamId: Type.String(),
  /** The API key's last four characters. */
  keyHint: Type.String(),
  apiUrl: Type.String(),
  /** The URL to give Linear's webhook settings (the "Issues" data change events). */
  webhookUrl: Type.String(),
  /** Where an issue entering a state of each type moves the linked request (null: nowhere). */
  mapping: Type.Object({ completed: Nullable(ColumnInfo), started: Nullable(ColumnInfo), canceled: Nullable(ColumnInfo) }),
  /** `broken`: Linear refused the API key; nothing is called until a new key is saved. */
  status: StringEnum(["active", "broken"] as const),
  brokenReason: Nullable(StringEnum(LINEAR_BROKEN_REASONS)),
  brokenAt: Nullable(Timestamp),
  /** Linear's rate limit: no call is made before this time. */
  pausedUntil: Nullable(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type LinearConnection = Static<typeof LinearConnectionSchema>;

export const CreateLinearIssueBodySchema = Type.Object(
  {
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: "The request's title unless given" })),
    description: Type.Optional(Type.String({ maxLength: 50_000, description: "The request's description unless given; a link back and the demand block are added" })),
  },
  { additionalProperties: false },
);
export type CreateLinearIssueBody = Static<typeof CreateLinearIssueBodySchema>;

export const LinkLinearIssueBodySchema = Type.Object(
  { issue: Type.String({ minLength: 1, maxLength: 2048, description: "The issue's identifier (`ENG-123`) or its URL (`https://linear.app/acme/issue/ENG-123/…`)" }) },
  { additionalProperties: false },
);
export type LinkLinearIssueBody = Static<typeof LinkLinearIssueBodySchema>;

/** A request's link to a Linear issue. */
export const LinearIssueLinkSchema = Type.Object({
  featureRequestId: Type.String(),
  connectionId: Type.String(),
  issueId: Type.String(),
  /** `ENG-123`. */
  issueIdentifier: Type.String(),
  issueUrl: Type.String(),
  issueTitle: Type.String(),
  /** The workflow state's type as last seen (`started`, `completed`, …), or null before any. */
  issueState: Nullable(Type.String()),
  /** When the demand block was last written to the issue. */
  lastSyncedAt: Nullable(Timestamp),
  /** Why the block is no longer kept (`issue_not_found`), or null. */
  syncError: Nullable(Type.String()),
  createdAt: Timestamp,
});
export type LinearIssueLink = Static<typeof LinearIssueLinkSchema>;
