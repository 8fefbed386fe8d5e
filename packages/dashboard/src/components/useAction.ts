import { useState } from "react";

/**
 * Runs a change a page makes: clears the last notice and failure, awaits `work`, then shows
 * `message` (when given) or keeps the failure, and finally calls `after` (typically reloads).
 * `run` answers whether the work succeeded.
 */
export function useAction(after: () => void) {
  const [failure, setFailure] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const run = async (work: () => Promise<unknown>, message?: string): Promise<boolean> => {
    setFailure(null);
    setNotice(null);
    try {
      await work();
      if (message !== undefined) setNotice(message);
      return true;
    } catch (error) {
      setFailure(error);
      return false;
    } finally {
      after();
    }
  };
  return { failure, setFailure, notice, setNotice, run };
}
