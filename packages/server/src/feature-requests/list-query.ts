import type { FeatureRequestItem, FeatureRequestSort } from "@tidings/protocol";

/** What a listing asks for, and the page it answers: the shapes every part of the listing shares. */
export interface ListQuery {
  appId: string;
  /** The viewer's end-user id: personalises `hasVoted`/`isOwnRequest` and shows their pending requests. */
  viewerEndUserId: string | null;
  limit: number;
  offset: number;
  cursor: string | undefined;
  versionId: string | undefined;
  /** Only requests on these boards (one of a board filter, or the boards a caller may see); undefined: every board. */
  boardIds?: readonly string[] | undefined;
  /** Only requests carrying every one of these tags. */
  tagIds?: readonly string[] | undefined;
  q: string | undefined;
  sort: FeatureRequestSort;
}

export interface ListPage {
  requests: FeatureRequestItem[];
  total: number;
  hasMore: boolean;
  nextCursor: string | null;
}
