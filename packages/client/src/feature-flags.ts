import type { PublicAppConfig } from "./types.js";

/** A client surface a remote flag can switch off. */
export type Surface = "feedback" | "featureRequests" | "roadmap" | "changelog";

/**
 * Rule 6: a surface is off only when the loaded config sets its flag to exactly `false`; while
 * loading, after a failure, or on servers without `sdk.features`, every surface is on.
 *
 * @example
 * ```ts
 * isSurfaceEnabled(loader.state.config, "roadmap"); // true unless sdk.features.roadmap === false
 * ```
 */
export function isSurfaceEnabled(config: Pick<PublicAppConfig, "sdk"> | null | undefined, surface: Surface): boolean {
  return config?.sdk?.features?.[surface] !== false;
}
