/**
 * Row types of every table, in the camelCase the CamelCasePlugin maps to snake_case columns.
 * Booleans are stored as 0/1 integers and timestamps as ISO-8601 UTC text so that the same query
 * returns the same values on SQLite and PostgreSQL.
 */
export type Flag = 0 | 1;

export interface WorkspacesTable {
  id: string;
  name: string;
  slug: string;
  plan: string;
  subscriptionStatus: string;
  monthlySubmissionQuota: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface ConsoleUsersTable {
  id: string;
  email: string;
  displayName: string | null;
  passwordHash: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface MembershipsTable {
  id: string;
  workspaceId: string;
  userId: string;
  role: string;
  createdAt: string;
  updatedAt: string;
}

export interface ApiTokensTable {
  id: string;
  userId: string;
  name: string;
  tokenHash: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface AppsTable {
  id: string;
  workspaceId: string;
  appKey: string;
  name: string;
  slug: string;
  signingSecret: string;
  storeUrl: string | null;
  storeKind: string | null;
  appStoreUrl: string | null;
  googlePlayUrl: string | null;
  websiteUrl: string | null;
  iconUrl: string | null;
  hideSiteBranding: Flag;
  allowedEmbedOrigins: string;
  allowPublic: Flag;
  allowAnonymousRoadmap: Flag;
  allowAnonymousVote: Flag;
  allowAnonymousFeedback: Flag;
  allowAnonymousChangelog: Flag;
  allowedPlatforms: string;
  maxAttachmentBytes: number;
  moderationPolicy: string;
  sdk: string;
  verificationProvider: string;
  verificationSiteKey: string | null;
  verificationSecret: string | null;
  verificationExempt: Flag;
  createdAt: string;
  updatedAt: string;
}

export interface BoardColumnsTable {
  id: string;
  appId: string;
  name: string;
  slug: string;
  position: number;
  isVisible: Flag;
  isSystem: Flag;
  kind: string;
  color: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface AppVersionsTable {
  id: string;
  appId: string;
  label: string;
  position: number;
  released: Flag;
  releasedAt: string | null;
  description: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface EndUsersTable {
  id: string;
  appId: string;
  tokenHash: string;
  publicId: string;
  createdAt: string;
  lastSeenAt: string;
}

/** The whole database as Kysely sees it. */
export interface Database {
  workspaces: WorkspacesTable;
  consoleUsers: ConsoleUsersTable;
  memberships: MembershipsTable;
  apiTokens: ApiTokensTable;
  apps: AppsTable;
  boardColumns: BoardColumnsTable;
  appVersions: AppVersionsTable;
  endUsers: EndUsersTable;
}
