import Type, { type Static } from "typebox";

/**
 * A string enum schema whose static type is the union of `values`.
 *
 * @example
 * ```ts
 * const Role = StringEnum(["owner", "admin"] as const); // Static: "owner" | "admin"
 * ```
 */
export function StringEnum<const T extends readonly string[]>(values: T, options: { description?: string } = {}) {
  return Type.Unsafe<T[number]>({ type: "string", enum: [...values], ...options });
}

/** Platforms a submission may report. An empty allowlist means every platform is accepted. */
export const PLATFORMS = ["ios", "macos", "android", "universal", "web"] as const;
/** A platform value. */
export type Platform = (typeof PLATFORMS)[number];
export const PlatformSchema = StringEnum(PLATFORMS);

/**
 * The largest integer that JSON readers, JavaScript and both SQL engines hold exactly (2^53 − 1):
 * the upper bound of any count, size or timestamp a client sends that has no tighter one.
 */
export const MAX_SAFE_INTEGER = Number.MAX_SAFE_INTEGER;

/** How far console lists page by offset. */
export const MAX_LIST_OFFSET = 1_000_000;

/**
 * A page offset of 0–`maximum`. Every offset is bounded: a querystring's `Infinity`, `1e309` or
 * 23 digits would otherwise pass as an "integer" and reach SQL, where SQLite refuses it (500)
 * and PostgreSQL does not; the bound makes them a 400 on both engines and shows in the OpenAPI
 * document.
 *
 * @example
 * ```ts
 * const Query = Type.Object({ offset: Type.Optional(PageOffset(MAX_LIST_OFFSET)) });
 * ```
 */
export function PageOffset(maximum: number, options: { description?: string } = {}) {
  return Type.Integer({ minimum: 0, maximum, ...options });
}

/** ISO-8601 timestamp in UTC. */
export const Timestamp = Type.String({ format: "date-time" });

/** The envelope of every error answer. */
export const ErrorBodySchema = Type.Object(
  {
    error: Type.String(),
    code: Type.Optional(Type.String()),
    details: Type.Optional(Type.Unknown()),
  },
);
export type ErrorBodyStatic = Static<typeof ErrorBodySchema>;

/** Opaque identifiers minted by the server: a prefix, an underscore, then 26 base32 characters. */
export const IdParam = (prefix: string) =>
  Type.String({ pattern: `^${prefix}_[0-9a-z]{26}$`, description: `An id starting with ${prefix}_` });
