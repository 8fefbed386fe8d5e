import Type, { type Static } from "typebox";
import { Timestamp } from "./common.js";
import { RoleSchema } from "./console.js";

// People signing in to the console (the dashboard): first-run setup, sign-in, invitations.

/** The name of the dashboard's session cookie (sign-in sets it; the server keeps only its SHA-256). */
export const CONSOLE_SESSION_COOKIE = "tidings_session";

const Email = Type.String({ format: "email", minLength: 3, maxLength: 320 });
/** 10–200 characters: long passphrases welcome, argon2 cost bounded. */
const Password = Type.String({ minLength: 10, maxLength: 200 });
const Name = Type.String({ minLength: 1, maxLength: 100 });

export const SetupBodySchema = Type.Object(
  {
    /** The one-time code the server prints at start-up (or `TIDINGS_SETUP_CODE`); missing or wrong is `403 invalid_setup_code`. */
    setupCode: Type.Optional(Type.String({ maxLength: 200 })),
    email: Email,
    password: Password,
    name: Name,
    workspaceName: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type SetupBody = Static<typeof SetupBodySchema>;

export const LoginBodySchema = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 320 }), password: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBodySchema>;

export const AcceptInviteBodySchema = Type.Object(
  { token: Type.String({ minLength: 10, maxLength: 200 }), password: Password, name: Type.Optional(Name) },
  { additionalProperties: false },
);
export type AcceptInviteBody = Static<typeof AcceptInviteBodySchema>;

export const SessionUserSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  displayName: Type.Union([Type.String(), Type.Null()]),
});

/** `GET /auth/session`: whether first-run setup is open, and who the cookie signs in (if anyone). */
export const SessionStateSchema = Type.Object({
  setupRequired: Type.Boolean(),
  user: Type.Union([SessionUserSchema, Type.Null()]),
  /** Send as `X-CSRF-Token` on every cookie-authenticated write; null when signed out. */
  csrfToken: Type.Union([Type.String(), Type.Null()]),
  expiresAt: Type.Union([Timestamp, Type.Null()]),
});
export type SessionState = Static<typeof SessionStateSchema>;

export const CreateInvitationBodySchema = Type.Object({ email: Email, role: RoleSchema }, { additionalProperties: false });
export type CreateInvitationBody = Static<typeof CreateInvitationBodySchema>;

export const InvitationSchema = Type.Object({
  id: Type.String(),
  workspaceId: Type.String(),
  email: Type.String(),
  role: RoleSchema,
  createdAt: Timestamp,
  expiresAt: Timestamp,
  acceptedAt: Type.Union([Timestamp, Type.Null()]),
});
export type Invitation = Static<typeof InvitationSchema>;

/** The answer to creating an invitation: the token is shown once, inside `url`. */
export const InvitationCreatedSchema = Type.Object({ invitation: InvitationSchema, token: Type.String(), url: Type.String() });

/** `GET /auth/invitation?token=`: what the invitee is about to accept. */
export const InvitationPreviewSchema = Type.Object({
  email: Type.String(),
  role: RoleSchema,
  workspaceName: Type.String(),
  /** True when the email already has a password: accepting then asks for it, not a new one. */
  existingUser: Type.Boolean(),
});
