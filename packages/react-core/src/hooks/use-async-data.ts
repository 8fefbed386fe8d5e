import { isAbortError } from "@tidings/client";
import { useCallback, useEffect, useRef, useState } from "react";

/** State of a one-shot read. */
export interface AsyncData<T> {
  status: "idle" | "loading" | "ready" | "error";
  data: T | undefined;
  error: unknown;
  /** Reads again (keeps the old data visible meanwhile). */
  reload: () => void;
}

/**
 * Runs `load` whenever `key` changes while `enabled`, aborting the previous read; a late answer
 * of an older key is dropped. The SDK throws, this hook turns the error into state.
 *
 * @example
 * ```ts
 * const versions = useAsyncData(`versions:${appKey}`, (signal) => client.getVersions({ signal }), true);
 * ```
 */
export function useAsyncData<T>(key: string, load: (signal: AbortSignal) => Promise<T>, enabled: boolean): AsyncData<T> {
  const [state, setState] = useState<Omit<AsyncData<T>, "reload">>({ status: "idle", data: undefined, error: undefined });
  const [nonce, setNonce] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    setState((s) => ({ ...s, status: "loading", error: undefined }));
    loadRef.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ status: "ready", data, error: undefined });
      },
      (error: unknown) => {
        if (!controller.signal.aborted && !isAbortError(error)) setState((s) => ({ ...s, status: "error", error }));
      },
    );
    return () => controller.abort();
  }, [key, enabled, nonce]);

  const reload = useCallback(() => setNonce((n) => n + 1), []);
  return { ...state, reload };
}
