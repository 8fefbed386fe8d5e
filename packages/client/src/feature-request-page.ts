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

/** A page of the feature-request listing. */
export interface FeatureRequestPage {
  requests: FeatureRequestItem[];
  total: number;
  hasMore: boolean;
  nextCursor: string | null;
}

/** Sort orders of the listing. */
export type FeatureRequestSort = "newest" | "top" | "trending";
