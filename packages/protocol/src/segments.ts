import Type, { type Static } from "typebox";
import { Timestamp } from "./common.js";
import { COMPANY_MRR_MAX } from "./users.js";

/** The most segments one app may have. */
export const MAX_SEGMENTS_PER_APP = 50;
/** The most conditions one rule may hold (each list, flag, range and attribute counts one). */
export const MAX_SEGMENT_CONDITIONS = 20;
/** The most values one condition may list. */
export const MAX_SEGMENT_VALUES = 100;

// Unknown keys are refused, not stripped: a misspelt condition must not silently widen a segment.
const strict = { additionalProperties: Type.Never() };
const Values = <T extends Type.TSchema>(item: T) => Type.Array(item, { minItems: 1, maxItems: MAX_SEGMENT_VALUES });
const Plan = Type.String({ minLength: 1, maxLength: 64 });

/**
 * A monthly revenue range in currency units, both ends included, in one currency (revenue is
 * never converted: a user or company reporting another currency is outside the range).
 */
export const MrrRangeSchema = Type.Object(
  {
    min: Type.Optional(Type.Number({ minimum: 0, maximum: COMPANY_MRR_MAX })),
    max: Type.Optional(Type.Number({ minimum: 0, maximum: COMPANY_MRR_MAX })),
    /** ISO 4217, any case. */
    currency: Type.String({ pattern: "^[A-Za-z]{3}$" }),
  },
  strict,
);
export type MrrRange = Static<typeof MrrRangeSchema>;

/** A company attribute (as the host reports it) equal to one of `in` (type and value both). */
export const AttributeConditionSchema = Type.Object(
  {
    key: Type.String({ pattern: "^[A-Za-z0-9_.-]{1,64}$" }),
    in: Values(Type.Union([Type.String({ maxLength: 1000 }), Type.Number({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }), Type.Boolean()])),
  },
  strict,
);
export type AttributeCondition = Static<typeof AttributeConditionSchema>;

/**
 * Who a segment holds: end users for whom every condition given holds (an empty rule holds every
 * end user of the app). Company conditions need the user to be in a company, as the host last
 * reported it.
 *
 * @example
 * ```ts
 * const rule: SegmentRule = { user: { isPaying: true }, company: { plans: ["enterprise"], mrr: { min: 1000, currency: "USD" } } };
 * ```
 */
export const SegmentRuleSchema = Type.Object(
  {
    user: Type.Optional(
      Type.Object(
        {
          /** The user's plan is one of these (exact match). */
          plans: Type.Optional(Values(Plan)),
          isPaying: Type.Optional(Type.Boolean()),
          mrr: Type.Optional(MrrRangeSchema),
        },
        strict,
      ),
    ),
    company: Type.Optional(
      Type.Object(
        {
          /** The host's company ids. */
          ids: Type.Optional(Values(Type.String({ minLength: 1, maxLength: 128 }))),
          plans: Type.Optional(Values(Plan)),
          mrr: Type.Optional(MrrRangeSchema),
          attributes: Type.Optional(Type.Array(AttributeConditionSchema, { minItems: 1, maxItems: MAX_SEGMENT_CONDITIONS })),
        },
        strict,
      ),
    ),
  },
  strict,
);
export type SegmentRule = Static<typeof SegmentRuleSchema>;

/** A segment as the console shows it. */
export const SegmentSchema = Type.Object({
  id: Type.String(),
  appId: Type.String(),
  name: Type.String(),
  rule: SegmentRuleSchema,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Segment = Static<typeof SegmentSchema>;

/** A segment with how many end users it holds now. */
export const SegmentDetailSchema = Type.Object({ ...SegmentSchema.properties, memberCount: Type.Integer({ minimum: 0 }) });
export type SegmentDetail = Static<typeof SegmentDetailSchema>;

export const SegmentsResponseSchema = Type.Object({ segments: Type.Array(SegmentSchema) });

const SegmentName = Type.String({ minLength: 1, maxLength: 80 });

export const CreateSegmentBodySchema = Type.Object({ name: SegmentName, rule: SegmentRuleSchema }, strict);
export type CreateSegmentBody = Static<typeof CreateSegmentBodySchema>;

export const UpdateSegmentBodySchema = Type.Object({ name: Type.Optional(SegmentName), rule: Type.Optional(SegmentRuleSchema) }, strict);
export type UpdateSegmentBody = Static<typeof UpdateSegmentBodySchema>;

/** An end user as a segment's member list shows them. */
export const SegmentMemberSchema = Type.Object({
  id: Type.String(),
  publicId: Type.String(),
  displayName: Type.Union([Type.String(), Type.Null()]),
  email: Type.Union([Type.String(), Type.Null()]),
  isPaying: Type.Union([Type.Boolean(), Type.Null()]),
  plan: Type.Union([Type.String(), Type.Null()]),
  /** Currency units. */
  mrr: Type.Union([Type.Number(), Type.Null()]),
  currency: Type.Union([Type.String(), Type.Null()]),
  company: Type.Union([Type.Object({ id: Type.String(), externalId: Type.String(), name: Type.Union([Type.String(), Type.Null()]) }), Type.Null()]),
});
export type SegmentMember = Static<typeof SegmentMemberSchema>;

export const SegmentMembersQuerySchema = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
  /** `nextCursor` of the previous page. */
  cursor: Type.Optional(Type.String({ maxLength: 200 })),
});

/** A page of members, newest end users first, with the segment's size. */
export const SegmentMembersSchema = Type.Object({
  members: Type.Array(SegmentMemberSchema),
  total: Type.Integer({ minimum: 0 }),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export type SegmentMembers = Static<typeof SegmentMembersSchema>;
