import type { AppVersion } from "@tidings/client";
import { useTidings } from "../context.js";
import { useAsyncData, type AsyncData } from "./use-async-data.js";

/**
 * Released versions, for the listing's version filter.
 *
 * @example
 * ```ts
 * const { data: versions = [] } = useVersions();
 * ```
 */
export function useVersions(): AsyncData<AppVersion[]> {
  const { client, configSettled, isEnabled } = useTidings();
  return useAsyncData(`versions:${client.appKey}`, (signal) => client.getVersions({ signal }), configSettled && isEnabled("featureRequests"));
}
