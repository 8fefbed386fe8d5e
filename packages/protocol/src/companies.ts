import Type, { type Static } from "typebox";
import { IdParam, MAX_LIST_OFFSET, PageOffset, StringEnum, Timestamp } from "./common.js";
import { CompanyAttributeValueSchema } from "./users.js";

const NullableString = Type.Union([Type.String(), Type.Null()]);
const NullableNumber = Type.Union([Type.Number(), Type.Null()]);

/**
 * Monthly revenue behind something, one entry per currency (never converted, never summed
 * across currencies), largest first.
 *
 * @example
 * ```ts
 * const revenue: RevenueByCurrency = [{ currency: "EUR", mrr: 1200.5 }, { currency: "USD", mrr: 49 }];
 * ```
 */
export const RevenueByCurrencySchema = Type.Array(Type.Object({ currency: Type.String(), mrr: Type.Number() }));
export type RevenueByCurrency = Static<typeof RevenueByCurrencySchema>;

/** A company as a request's console record lists it: with how many of its users voted. */
export const RequestCompanySchema = Type.Object({
  id: Type.String(),
  /** The host's id. */
  externalId: Type.String(),
  name: NullableString,
  /** Monthly revenue in currency units, or null when unknown. */
  mrr: NullableNumber,
  currency: Type.String(),
  plan: NullableString,
  /** Its users who voted for the request. */
  voters: Type.Integer(),
});
export type RequestCompany = Static<typeof RequestCompanySchema>;

/** A company as the console's company list and page show it. */
export const CompanySchema = Type.Object({
  id: Type.String(),
  appId: Type.String(),
  externalId: Type.String(),
  name: NullableString,
  mrr: NullableNumber,
  currency: Type.String(),
  plan: NullableString,
  attributes: Type.Record(Type.String(), CompanyAttributeValueSchema),
  /** End users the host last reported in it. */
  userCount: Type.Integer(),
  /** Feature requests at least one of them voted for. */
  requestCount: Type.Integer(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Company = Static<typeof CompanySchema>;

export const COMPANY_SORTS = ["mrr", "name", "users", "newest"] as const;

export const CompanyListQuerySchema = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
  offset: Type.Optional(PageOffset(MAX_LIST_OFFSET)),
  /** `mrr` (default, highest first; currencies are not converted), `name`, `users`, `newest`. */
  sort: Type.Optional(StringEnum(COMPANY_SORTS)),
  /** Substring of the name or the host's id, case-insensitive for ASCII letters. */
  q: Type.Optional(Type.String({ maxLength: 200 })),
  plan: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
});

export const CompanyListSchema = Type.Object({ companies: Type.Array(CompanySchema), total: Type.Integer() });

export const CompanyParams = Type.Object({ wsId: IdParam("ws"), companyId: IdParam("co") });

const CompanyUserSchema = Type.Object({
  publicId: Type.String(),
  displayName: NullableString,
  email: NullableString,
  isPaying: Type.Union([Type.Boolean(), Type.Null()]),
  plan: NullableString,
  mrr: NullableNumber,
  currency: NullableString,
  lastSeenAt: Timestamp,
});

const CompanyVoteSchema = Type.Object({
  featureRequestId: Type.String(),
  title: Type.String(),
  userPublicId: Type.String(),
  votedAt: Timestamp,
});

const CompanyCommentSchema = Type.Object({
  id: Type.String(),
  featureRequestId: Type.String(),
  title: Type.String(),
  userPublicId: Type.String(),
  body: Type.String(),
  hidden: Type.Boolean(),
  createdAt: Timestamp,
});

const CompanyFeedbackSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  userPublicId: Type.String(),
  triageStatus: Type.String(),
  createdAt: Timestamp,
});

/** How many users, votes, comments and feedback items a company page lists (newest first). */
export const COMPANY_PAGE_LIMIT = 200;

/**
 * `GET /api/v1/console/workspaces/<wsId>/companies/<companyId>`: a company with its users and
 * their votes, comments and feedback, newest first, at most {@link COMPANY_PAGE_LIMIT} of each.
 */
export const CompanyDetailSchema = Type.Object({
  company: CompanySchema,
  users: Type.Array(CompanyUserSchema),
  votes: Type.Array(CompanyVoteSchema),
  comments: Type.Array(CompanyCommentSchema),
  feedback: Type.Array(CompanyFeedbackSchema),
});
export type CompanyDetail = Static<typeof CompanyDetailSchema>;
