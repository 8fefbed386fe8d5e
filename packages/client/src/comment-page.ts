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
