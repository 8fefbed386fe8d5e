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
