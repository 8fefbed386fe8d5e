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
