import type { ChangelogOverlayData } from "@tidings/client";
import { isAbortError } from "@tidings/client";
import { useCallback, useEffect, useState } from "react";
import { useTidings } from "../context.js";

/** Options of {@link useChangelogOverlay}. */
export interface UseChangelogOverlayOptions {
  /** Show nothing when the newest release was already seen. @default false */
  onlyIfUnseen?: boolean | undefined;
  /** Mark the newest release seen on close. @default true */
  autoMarkSeen?: boolean | undefined;
  /** Prepare at all (e.g. only after onboarding). @default true */
  enabled?: boolean | undefined;
}

/** The overlay's data and visibility. */
export interface ChangelogOverlayState {
  data: ChangelogOverlayData | null;
  visible: boolean;
  status: "idle" | "loading" | "ready" | "error";
  /** Hides the overlay, marking its newest release seen when `autoMarkSeen`. */
  close: () => Promise<void>;
}

/**
 * Rule 8: prepares the changelog overlay through the SDK (config + changelog), null when the flag
 * is off, there is nothing, or (with `onlyIfUnseen`) the newest release was seen.
 *
 * @example
 * ```ts
 * const overlay = useChangelogOverlay({ onlyIfUnseen: true });
 * ```
 */
export function useChangelogOverlay(options: UseChangelogOverlayOptions = {}): ChangelogOverlayState {
  const { client, isEnabled } = useTidings();
  const wanted = (options.enabled ?? true) && isEnabled("changelog");
  const onlyIfUnseen = options.onlyIfUnseen ?? false;
  const autoMarkSeen = options.autoMarkSeen ?? true;
  const [data, setData] = useState<ChangelogOverlayData | null>(null);
  const [visible, setVisible] = useState(false);
  const [status, setStatus] = useState<ChangelogOverlayState["status"]>("idle");

  useEffect(() => {
    if (!wanted) {
      setVisible(false);
      return;
    }
    const controller = new AbortController();
    setStatus("loading");
    client.prepareChangelogOverlay({ onlyIfUnseen, signal: controller.signal }).then(
      (prepared) => {
        if (controller.signal.aborted) return;
        setData(prepared);
        setVisible(prepared !== null);
        setStatus("ready");
      },
      (error: unknown) => {
        if (!controller.signal.aborted && !isAbortError(error)) setStatus("error");
      },
    );
    return () => controller.abort();
  }, [client, wanted, onlyIfUnseen]);

  const close = useCallback(async () => {
    setVisible(false);
    if (autoMarkSeen && data !== null) await client.seenChangelogs.markSeen(data.latestKey);
  }, [autoMarkSeen, client, data]);

  return { data, visible: visible && wanted, status, close };
}
