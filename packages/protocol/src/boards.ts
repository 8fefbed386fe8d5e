import Type, { type Static } from "typebox";
import { StringEnum, Timestamp } from "./common.js";
import { SlugSchema } from "./console.js";

/** The most boards one app may have. */
export const MAX_BOARDS_PER_APP = 50;
/** The most plans one private board's access rule may name. */
export const MAX_ACCESS_RULE_PLANS = 20;

export const BOARD_VISIBILITIES = ["public", "private"] as const;
/** `public`: everyone who may read the app; `private`: the team and the identified users its access rule admits. */
export type BoardVisibility = (typeof BOARD_VISIBILITIES)[number];
export const BoardVisibilitySchema = StringEnum(BOARD_VISIBILITIES);

/**
 * Which identified users a private board admits, matched on the attributes the host reports for
 * them (the signed user-attributes call or SSO claims). Every condition given must hold; an empty
 * rule admits every identified user. Anonymous and unsigned callers are never admitted.
 */
export const BoardAccessRuleSchema = Type.Object(
  {
    /** The user's plan is one of these (exact match). */
    plans: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: MAX_ACCESS_RULE_PLANS })),
    /** The user is (true) or is not (false) a paying customer. */
    isPaying: Type.Optional(Type.Boolean()),
    /** The user is a member of this segment of the app (see docs/segments.md). */
    segmentId: Type.Optional(Type.String({ pattern: "^seg_[0-9a-z]{26}$" })),
  },
  // Refused, not stripped: a misspelt condition must not silently open the board to everyone.
  { additionalProperties: Type.Never() },
);
export type BoardAccessRule = Static<typeof BoardAccessRuleSchema>;

const BoardName = Type.String({ minLength: 1, maxLength: 80 });
const BoardDescription = Type.String({ maxLength: 500 });

/** A board as the public API shows it. */
export const PublicBoardSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  description: Type.String(),
  position: Type.Integer(),
  visibility: BoardVisibilitySchema,
  /** The board proposals go to when they name none. */
  isDefault: Type.Boolean(),
});
export type PublicBoard = Static<typeof PublicBoardSchema>;

/** A board as the console shows it: the public fields, its access rule and its request count. */
export const BoardSchema = Type.Object({
  ...PublicBoardSchema.properties,
  appId: Type.String(),
  /** Private boards only; null admits every identified user. */
  accessRule: Type.Union([BoardAccessRuleSchema, Type.Null()]),
  /** Requests on the board, every moderation state and merged ones included. */
  requestCount: Type.Integer({ minimum: 0 }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Board = Static<typeof BoardSchema>;

export const PublicBoardsResponseSchema = Type.Object({ boards: Type.Array(PublicBoardSchema) });
export const BoardsResponseSchema = Type.Object({ boards: Type.Array(BoardSchema) });

export const CreateBoardBodySchema = Type.Object(
  {
    name: BoardName,
    slug: Type.Optional(SlugSchema),
    description: Type.Optional(BoardDescription),
    visibility: Type.Optional(BoardVisibilitySchema),
    accessRule: Type.Optional(Type.Union([BoardAccessRuleSchema, Type.Null()])),
  },
  { additionalProperties: false },
);
export type CreateBoardBody = Static<typeof CreateBoardBodySchema>;

export const UpdateBoardBodySchema = Type.Object(
  {
    name: Type.Optional(BoardName),
    slug: Type.Optional(SlugSchema),
    description: Type.Optional(BoardDescription),
    visibility: Type.Optional(BoardVisibilitySchema),
    accessRule: Type.Optional(Type.Union([BoardAccessRuleSchema, Type.Null()])),
    /** Make this the board proposals go to when they name none (only `true` is accepted). */
    isDefault: Type.Optional(Type.Literal(true)),
  },
  { additionalProperties: false },
);
export type UpdateBoardBody = Static<typeof UpdateBoardBodySchema>;

export const ReorderBoardsBodySchema = Type.Object({
  boardIds: Type.Array(Type.String(), { minItems: 1, maxItems: MAX_BOARDS_PER_APP }),
});

/** Moves requests to another board of the same app; their votes, comments and followers go with them. */
export const MoveRequestsBodySchema = Type.Object({
  boardId: Type.String(),
  featureRequestIds: Type.Array(Type.String(), { minItems: 1, maxItems: 500 }),
});
export const MoveRequestsResponseSchema = Type.Object({ moved: Type.Integer({ minimum: 0 }) });
