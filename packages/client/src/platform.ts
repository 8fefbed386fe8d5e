/** Platforms a submission may report (`universal` when nothing more precise is known). */
export type Platform = "ios" | "macos" | "android" | "universal" | "web";

/** Every platform a submission may name (wire-contract §7.1), in the order pickers show them. */
export const PLATFORMS: readonly Platform[] = ["ios", "macos", "android", "universal", "web"];

interface NavigatorLike {
  product?: unknown;
  userAgent?: unknown;
}

/**
 * The platform of the running JavaScript runtime, by feature detection only: React Native and
 * Node report `universal` (pass `defaultPlatform: Platform.OS` from React Native), a browser `web`.
 *
 * @example
 * ```ts
 * detectRuntimePlatform(); // "web" in a browser, "universal" in Node
 * ```
 */
export function detectRuntimePlatform(env: { navigator?: unknown; document?: unknown } = globalThis): Platform {
  const nav = (typeof env.navigator === "object" && env.navigator !== null ? env.navigator : undefined) as NavigatorLike | undefined;
  if (nav?.product === "ReactNative") return "universal";
  const ua = typeof nav?.userAgent === "string" ? nav.userAgent : "";
  // Node ≥ 21 has a navigator too, whose user agent names Node.js.
  if (ua === "" || /\bNode\.js\b|\bDeno\b|\bBun\b/.test(ua)) return "universal";
  return typeof env.document === "object" && env.document !== null ? "web" : "universal";
}

/**
 * Rule 4 for composers: the draft's platform, else the client default, else the runtime's; when
 * that is not in a non-empty allowlist, the first allowed platform.
 *
 * @example
 * ```ts
 * resolveSubmissionPlatform({ draft: undefined, defaultPlatform: "web", allowed: ["ios", "android"] }); // "ios"
 * ```
 */
export function resolveSubmissionPlatform(input: {
  draft?: Platform | undefined;
  defaultPlatform?: Platform | undefined;
  runtime?: Platform | undefined;
  allowed?: readonly Platform[] | undefined;
}): Platform {
  const candidate = input.draft ?? input.defaultPlatform ?? input.runtime ?? detectRuntimePlatform();
  const allowed = input.allowed ?? [];
  if (allowed.length === 0 || allowed.includes(candidate)) return candidate;
  return allowed[0]!;
}
