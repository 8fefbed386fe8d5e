import { SearchPacer, type FeatureRequestItem, type SearchPacerOptions } from "@tidings/client";
import { useEffect, useRef, useState } from "react";
import { useTidings } from "../context.js";

/** Titles shorter than this are not looked up (a letter or two matches half the board). */
export const SIMILAR_MIN_CHARS = 3;

export interface SimilarRequestsState {
  /** The requests most like the title, most similar first; the last answer stays while typing. */
  items: FeatureRequestItem[];
  /** True during a cooldown after the server refused a search for its pace. */
  rateLimited: boolean;
}

/**
 * Existing requests like a title being typed, for a compose sheet to offer a vote instead of a
 * duplicate. Looked up through `findSimilarFeatureRequests`, paced like the listing's search (the
 * SDK's SearchPacer: 250 ms debounce, 2.5 s between lookups, a cooldown after a 429), so a
 * typing user stays inside the server's search budget.
 *
 * @example
 * ```ts
 * const similar = useSimilarRequests(title);
 * similar.items.map((item) => item.title);
 * ```
 */
export function useSimilarRequests(title: string, options: { enabled?: boolean; limit?: number; pacing?: Omit<SearchPacerOptions, "timers"> } = {}): SimilarRequestsState {
  const { client } = useTidings();
  const [state, setState] = useState<SimilarRequestsState>({ items: [], rateLimited: false });
  const pacerRef = useRef<SearchPacer | null>(null);
  const limit = options.limit ?? 5;
  const enabled = options.enabled ?? true;

  useEffect(() => {
    let latest = 0;
    const pacer = new SearchPacer(
      async (key) => {
        const generation = ++latest;
        const items = key.query.length < SIMILAR_MIN_CHARS ? [] : await client.findSimilarFeatureRequests(key.query, { limit });
        if (generation === latest) setState((s) => ({ ...s, items }));
      },
      { ...options.pacing, timers: client.timers },
    );
    const unsubscribe = pacer.subscribe(() => setState((s) => (s.rateLimited === pacer.rateLimited ? s : { ...s, rateLimited: pacer.rateLimited })));
    pacerRef.current = pacer;
    return () => {
      unsubscribe();
      pacer.dispose();
      pacerRef.current = null;
    };
    // The pacing options are read once per client, like the listing's.
  }, [client, limit]);

  useEffect(() => {
    const query = title.trim();
    // Short titles clear the list at once, without a lookup (the pacer does not pace empty keys).
    pacerRef.current?.update(enabled && query.length >= SIMILAR_MIN_CHARS ? query : "");
  }, [title, enabled, client, limit]);

  return state;
}
