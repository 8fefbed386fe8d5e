import Type, { type Static } from "typebox";
import { StringEnum, Timestamp } from "./common.js";

const NullableString = Type.Union([Type.String(), Type.Null()]);

/** A voter as the console sees them: the public id and the attributes the host app reported. */
export const FeatureRequestVoterSchema = Type.Object({
  publicId: Type.String(),
  /** The name and avatar of a voter signed in through SSO (from their latest token), else null. */
  displayName: NullableString,
  avatarUrl: NullableString,
  isPaying: Type.Boolean(),
  plan: NullableString,
  /** Monthly revenue in currency units, or null when unknown. */
  mrr: Type.Union([Type.Number(), Type.Null()]),
  currency: NullableString,
  /** The company the host reported the voter in. */
  company: Type.Union([Type.Object({ id: Type.String(), externalId: Type.String(), name: NullableString }), Type.Null()]),
  votedAt: Timestamp,
  /** Added by the team on the voter's behalf (`addedBy` is the console user), with its `note`. */
  addedByTeam: Type.Boolean(),
  addedBy: NullableString,
  note: NullableString,
  /** The linked feedback whose link added the vote, or null. */
  fromSubmissionId: NullableString,
});
export type FeatureRequestVoter = Static<typeof FeatureRequestVoterSchema>;

/** `POST W/feature-requests/:id/votes`: a vote on a customer's behalf; name exactly one of the three. */
export const VoteOnBehalfBodySchema = Type.Object({
  /** An end user of the request's app, by public id. */
  endUserId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  /** An end user of the request's app, by the email their SSO token carried (case-insensitive). */
  email: Type.Optional(Type.String({ minLength: 3, maxLength: 320 })),
  /** A company of the request's app (`co_…`): the vote is its first user's (earliest known). */
  companyId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  note: Type.Optional(Type.String({ maxLength: 2_000 })),
});

export const VoteOnBehalfResultSchema = Type.Object({
  /** The public id of the end user who now votes. */
  voterPublicId: Type.String(),
  /** False when they voted already (nothing changed). */
  added: Type.Boolean(),
  voteCount: Type.Integer(),
  /**
   * The customer's follow of the request: `confirmed` (the address their SSO token carried),
   * `pending` (a confirmation mail went to the address they typed on their feedback),
   * `declined` (they had stopped following it: left so), `none` (no address known).
   */
  follow: StringEnum(["confirmed", "pending", "declined", "none"]),
});
export type VoteOnBehalfResult = Static<typeof VoteOnBehalfResultSchema>;
