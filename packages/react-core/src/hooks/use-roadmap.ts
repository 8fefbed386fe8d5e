import { groupRoadmapRequests, type BoardColumn, type FeatureRequestItem, type RoadmapGroup } from "@tidings/client";
import { useCallback, useMemo, useState } from "react";
import { useTidings } from "../context.js";
import { useAsyncData } from "./use-async-data.js";
import { useToggleVote, type ToggleVote, type VotePatch } from "./use-toggle-vote.js";

/** Requests read for the board at most (pages of 200). */
const MAX_ROADMAP_REQUESTS = 1000;

/** The roadmap board's data. */
export interface RoadmapState {
  enabled: boolean;
  status: "idle" | "loading" | "ready" | "error";
  error: string | undefined;
  /** Visible columns by position, then the automatic Other tab when needed (rule 7). */
  groups: RoadmapGroup[];
  columns: BoardColumn[];
  reload: () => void;
  votes: ToggleVote;
}

/**
 * Columns and requests grouped for the board. With the `roadmap` flag off nothing is fetched,
 * and nothing is fetched before the config has settled (so a disabled board never reads).
 *
 * @example
 * ```ts
 * const { groups } = useRoadmap();
 * groups.map((g) => g.column?.name ?? "Other");
 * ```
 */
export function useRoadmap(): RoadmapState {
  const { client, userToken, configSettled, isEnabled, errorMessage } = useTidings();
  const enabled = isEnabled("roadmap");
  const [patches, setPatches] = useState<Record<string, VotePatch>>({});
  const data = useAsyncData(
    `roadmap:${client.appKey}:${userToken ?? ""}`,
    async (signal) => {
      const columns = await client.getColumns({ signal });
      const requests: FeatureRequestItem[] = [];
      let cursor: string | undefined;
      for (;;) {
        const page = await client.listFeatureRequests({ signal, limit: 200, sort: "top", cursor, offset: requests.length, userToken: userToken ?? undefined });
        requests.push(...page.requests);
        if (!page.hasMore || page.requests.length === 0 || requests.length >= MAX_ROADMAP_REQUESTS) break;
        cursor = page.nextCursor ?? undefined;
      }
      setPatches({});
      return { columns, requests };
    },
    enabled && configSettled && userToken !== null,
  );
  const apply = useCallback((id: string, patch: VotePatch) => setPatches((old) => ({ ...old, [id]: patch })), []);
  const votes = useToggleVote(apply);
  const groups = useMemo(() => {
    if (data.data === undefined) return [];
    const requests = data.data.requests.map((r) => (patches[r.id] === undefined ? r : { ...r, ...patches[r.id] }));
    return groupRoadmapRequests(data.data.columns, requests);
  }, [data.data, patches]);
  return {
    enabled,
    status: data.status,
    error: data.status === "error" ? errorMessage(data.error) : undefined,
    groups,
    columns: data.data?.columns ?? [],
    reload: data.reload,
    votes,
  };
}
