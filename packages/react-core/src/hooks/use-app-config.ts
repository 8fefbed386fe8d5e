import type { ConfigState, PublicAppConfig, Surface } from "@tidings/client";
import { useTidings } from "../context.js";

/** The app config as the provider loaded it (rule 5). */
export interface AppConfigState {
  config: PublicAppConfig | null;
  status: ConfigState["status"];
  /** Set once the initial load and its retry failed; cleared by a successful refresh. */
  error: unknown;
  refresh: () => Promise<void>;
}

/**
 * The app config, its load status, error and manual refresh.
 *
 * @example
 * ```tsx
 * const { error, refresh } = useAppConfig();
 * if (error) return <button onClick={refresh}>Retry</button>;
 * ```
 */
export function useAppConfig(): AppConfigState {
  const { config, configStatus, configError, refreshConfig } = useTidings();
  return { config, status: configStatus, error: configError, refresh: refreshConfig };
}

/**
 * Rule 6: false only when the loaded config sets the surface's flag to `false`.
 *
 * @example
 * ```ts
 * const roadmapOn = useSurfaceEnabled("roadmap");
 * ```
 */
export function useSurfaceEnabled(surface: Surface): boolean {
  return useTidings().isEnabled(surface);
}
