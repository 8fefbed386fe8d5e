import type { Board } from "@tidings/client";
import { useTidings } from "../context.js";
import { useAsyncData, type AsyncData } from "./use-async-data.js";

/**
 * The app's boards the user may see, by position, for a board switcher (show one only when
 * there are two or more). Read again when the user changes; a server without boards answers an
 * error, which a switcher treats as one board. Nothing is read while `featureRequests` is off.
 *
 * @example
 * ```tsx
 * const { data: boards = [] } = useBoards();
 * {boards.length > 1 ? <BoardSwitcher boards={boards} /> : null}
 * ```
 */
export function useBoards(): AsyncData<Board[]> {
  const { client, userToken, configSettled, isEnabled } = useTidings();
  const token = userToken ?? undefined;
  return useAsyncData(`boards:${client.appKey}:${token ?? ""}`, (signal) => client.listBoards({ signal, userToken: token }), configSettled && isEnabled("featureRequests"));
}
