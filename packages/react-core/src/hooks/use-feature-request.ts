import type { FeatureRequestItem } from "@tidings/client";
import { useTidings } from "../context.js";
import { useAsyncData, type AsyncData } from "./use-async-data.js";

/**
 * One feature request by id, with the user's `hasVoted`: what a screen opened at a request's
 * address shows before any listing is loaded. Reads nothing while `id` is null.
 *
 * @example
 * ```ts
 * const request = useFeatureRequest(route.id);
 * ```
 */
export function useFeatureRequest(id: string | null): AsyncData<FeatureRequestItem> {
  const { client } = useTidings();
  return useAsyncData(`feature-request:${id ?? ""}`, (signal) => client.getFeatureRequest(id ?? "", { signal }), id !== null);
}
