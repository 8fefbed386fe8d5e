import { compact } from "./blank.js";
import type { CallOptions, UserCallOptions } from "./call-options.js";
import { enc, type ClientSession } from "./session.js";
import { signUserAttributes, type UserAttributes } from "./signing.js";
import type { UserProfile } from "./types.js";

/** Options of {@link FeedbackClient.getUserProfile}. */
export interface UserProfileCallOptions extends CallOptions {
  /** Send the client's app key, so only users of this app resolve. @default true */
  withAppKey?: boolean | undefined;
}

/** `PUT /public/apps/<APP_KEY>/user`, signed with `sdkSigningSecret` when one is configured. */
export async function reportUserAttributes(s: ClientSession, attributes: UserAttributes, options: UserCallOptions): Promise<{ ok: boolean; updatedAt?: string }> {
  const token = await s.identity.userToken(options.userToken);
  const clean = compact({
    isPaying: attributes.isPaying,
    plan: typeof attributes.plan === "string" ? attributes.plan.trim() : attributes.plan,
    mrr: attributes.mrr,
    currency: attributes.currency?.trim(),
    company: attributes.company,
  }) as UserAttributes;
  const secret = s.options.sdkSigningSecret;
  const signed =
    secret === undefined || Object.keys(clean).length === 0
      ? {}
      : await signUserAttributes({
          secret,
          appKey: s.client.appKey,
          userToken: token,
          attributes: clean,
          timestamp: Math.floor(s.client.timers.now() / 1000),
        });
  return s.json<{ ok: boolean; updatedAt?: string }>(
    { method: "PUT", path: s.appPath("user"), json: { ...clean, ...signed }, headers: await s.identity.userHeaders(token) },
    options,
  );
}

/** `GET /users/<user_id>/profile`, with the client's app key unless `withAppKey: false`. */
export async function getUserProfile(s: ClientSession, userId: string, options: UserProfileCallOptions): Promise<UserProfile> {
  const query = options.withAppKey === false ? {} : { appKey: s.client.appKey };
  return s.json<UserProfile>({ method: "GET", path: `/api/v1/users/${enc(userId)}/profile`, query }, options);
}
