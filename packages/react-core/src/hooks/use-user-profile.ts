import type { UserProfile } from "@tidings/client";
import { useTidings } from "../context.js";
import { useAsyncData, type AsyncData } from "./use-async-data.js";

/**
 * A public user profile by its app-scoped id (`u_…`).
 *
 * @example
 * ```ts
 * const { data } = useUserProfile("u_0123…");
 * ```
 */
export function useUserProfile(userId: string): AsyncData<UserProfile> {
  const { client } = useTidings();
  return useAsyncData(`profile:${userId}`, (signal) => client.getUserProfile(userId, { signal }), userId !== "");
}
