import type { Platform } from "./platform.js";
import type { MarkdownBlock } from "./markdown-blocks.js";

/** Remote feature flags of the SDK surfaces (`sdk.features`); a missing key means enabled. */
export interface SdkFeatures {
  feedback?: boolean;
  featureRequests?: boolean;
  roadmap?: boolean;
  changelog?: boolean;
}

/** Theme names the server may set; clients show unknown names as `system`. */
export type ThemeName = "system" | "light" | "dark" | "midnight" | "ocean" | "forest" | "sunset" | "candy";

/** Texts and size of the changelog overlay. */
export interface ChangelogOverlayAppearance {
  title?: string;
  subtitle?: string;
  entryCount?: number;
  primaryButton?: string;
  closeButton?: string;
}

/** `sdk` block of the public config. Older servers omit it or parts of it. */
export interface SdkAppearance {
  theme?: string;
  features?: SdkFeatures;
  changelogOverlay?: ChangelogOverlayAppearance;
}

/** `GET /public/config/<APP_KEY>`: the app's public configuration (wire-contract §7.1). */
export interface PublicAppConfig {
  appId: string;
  appKey: string;
  name: string;
  slug?: string;
  iconUrl?: string | null;
  allowPublic: boolean;
  allowedPlatforms: Platform[];
  allowAnonymousRoadmap: boolean;
  allowAnonymousVote: boolean;
  allowAnonymousFeedback: boolean;
  allowAnonymousChangelog: boolean;
  maxAttachmentBytes: number;
  /**
   * `trustIdentifiedUsers`: a caller with a user hash or an SSO token needs no verification token
   * (absent from servers that predate it).
   */
  verification?: { provider: string; siteKey: string | null; required: boolean; trustIdentifiedUsers?: boolean };
  sdk?: SdkAppearance;
  [field: string]: unknown;
}

/** A roadmap column (§7.2). */
export interface BoardColumn {
  id: string;
  appId: string;
  name: string;
  slug: string;
  position: number;
  isVisible: boolean;
  isSystem: boolean;
  kind: "pending_review" | "normal" | "done" | (string & {});
  color?: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A release version (§7.3). */
export interface AppVersion {
  id: string;
  appId: string;
  label: string;
  position: number;
  released: boolean;
  releasedAt?: string | null;
  description?: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A feature request as listed (§7.4). */
export interface FeatureRequestItem {
  id: string;
  appId: string;
  title: string;
  description: string;
  status: string;
  approved: boolean;
  voteCount: number;
  hasVoted: boolean;
  isOwnRequest: boolean;
  commentCount?: number;
  columnId?: string | null;
  columnSlug?: string | null;
  columnName?: string | null;
  columnColor?: string | null;
  versionId?: string | null;
  versionLabel?: string | null;
  releasedVersion?: string | null;
  requesterName?: string | null;
  requesterAvatarUrl?: string | null;
  requesterClerkId?: string | null;
  recentCommenters?: { authorName?: string | null; clerkUserId?: string | null; avatarUrl?: string | null }[];
  hasMoreCommenters?: boolean;
  /** The board it is on (servers without boards leave it out). */
  boardId?: string;
  /** Its public tags, by name (servers without tags leave them out). */
  tags?: PublicTag[];
  createdAt: string;
  updatedAt: string;
}

/** A tag as shown on a request. */
export interface PublicTag {
  name: string;
  slug: string;
  /** `#rrggbb`, or null for the theme's neutral chip colour. */
  color: string | null;
}

/** One of an app's boards the caller may see. */
export interface Board {
  id: string;
  name: string;
  slug: string;
  description: string;
  position: number;
  /** `private` boards are shown only to identified users the team admits. */
  visibility: "public" | "private";
  /** Proposals that name no board go to the default one. */
  isDefault: boolean;
}

/** What a custom field holds: one line of text, a longer text, a number, one option, several, or a checkbox. */
export type CustomFieldType = "text" | "long_text" | "number" | "single_select" | "multi_select" | "checkbox";

/** The forms a custom field is asked on: proposing a feature request, sending feedback. */
export type CustomFieldForm = "feature_request" | "feedback";

/** One choice of a select: `value` is what is sent, `label` what people read. */
export interface CustomFieldOption {
  value: string;
  label: string;
}

/**
 * The bounds a value must keep: `maxLength` (text and long text, in characters as the server
 * counts them, code points), `min`, `max` and `integer` (number), `maxSelected` (multi select).
 */
export interface CustomFieldLimits {
  maxLength?: number;
  min?: number;
  max?: number;
  integer?: boolean;
  maxSelected?: number;
}

/** A custom field a form asks for (`GET /public/apps/<APP_KEY>/fields`). */
export interface CustomField {
  /** The name the value is sent under in `fields`; it never changes. */
  key: string;
  label: string;
  /** Help text under the label; may be empty. */
  description: string;
  type: CustomFieldType;
  /** A required checkbox is one that must be ticked. */
  required: boolean;
  appliesTo: CustomFieldForm[];
  /** Selects only; empty for the other types. */
  options: CustomFieldOption[];
  limits: CustomFieldLimits;
  position: number;
}

/**
 * A value sent for a custom field: text (text, long text, a single select's option value), a
 * number, a boolean (checkbox) or a list of option values (multi select).
 */
export type CustomFieldValue = string | number | boolean | string[];

/** Custom field values by key, as proposals and feedback send them in `fields`. */
export type CustomFieldValues = Record<string, CustomFieldValue>;

/** A page of the feature-request listing. */
export interface FeatureRequestPage {
  requests: FeatureRequestItem[];
  total: number;
  hasMore: boolean;
  nextCursor: string | null;
}

/** Sort orders of the listing. */
export type FeatureRequestSort = "newest" | "top" | "trending";

/** A comment or reply (§7.5). */
export interface Comment {
  id: string;
  featureRequestId: string;
  body: string;
  authorName?: string | null;
  authorAvatarUrl?: string | null;
  authorClerkId?: string | null;
  parentId?: string | null;
  replyToClerkId?: string | null;
  replyToAuthorName?: string | null;
  isTeam?: boolean;
  isHidden?: boolean;
  createdAt: string;
}

/** One page of a request's comments, oldest first; pass `nextCursor` back for the next one. */
export interface CommentPage {
  comments: Comment[];
  total: number;
  hasMore: boolean;
  nextCursor: string | null;
}

/** A published changelog release (§7.6), Markdown body. */
export interface ChangelogEntry {
  id: string;
  title: string;
  /** The notes as Markdown. */
  body: string;
  /** The notes rendered to sanitised HTML, for browsers. */
  html?: string;
  /**
   * The notes as renderer-neutral tokens (the same parse as `html`), for renderers without HTML.
   * Absent from servers older than this field: show `body` as plain text then.
   */
  blocks?: MarkdownBlock[];
  versionLabel?: string | null;
  publishedAt: string;
  linkedRequests?: { id: string; title: string }[];
}

/** One page of published releases, newest first; pass `nextCursor` back for the next one. */
export interface ChangelogPage {
  entries: ChangelogEntry[];
  hasMore: boolean;
  nextCursor: string | null;
}

/** The answer to a feature-request proposal. */
export interface ProposeResult {
  featureRequestId: string;
  /** True while the request waits for moderation. */
  pending: boolean;
}

/** A request's vote state for the caller after a vote or unvote. */
export interface VoteResult {
  voted: boolean;
  voteCount: number;
}

/** The caller's follow of a request. */
export interface FollowResult {
  following: boolean;
  /** A confirmation mail went to the address; nothing is sent until it is confirmed. */
  pending: boolean;
}

/** The answer to a feedback submission: its id, plus whatever else the server sends. */
export interface FeedbackResult {
  submissionId: string;
  [field: string]: unknown;
}

/** A public user profile (§7.7); its fields differ between server versions. */
export interface UserProfile {
  profile: Record<string, unknown>;
  [field: string]: unknown;
}
