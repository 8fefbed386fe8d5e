import { useCallback } from "react";
import { useTidings } from "../context.js";

/** The user token in force and the host's login/logout switches (rule 9). */
export interface UserTokenState {
  /** The explicit `userToken` prop, else the store's token; null until read from storage. */
  token: string | null;
  ready: boolean;
  /** After login: the host's user id becomes the token on every screen. */
  setToken: (token: string) => Promise<void>;
  /** After logout: a fresh anonymous token. */
  resetToken: () => Promise<string>;
}

/**
 * The effective user token and the token store's login/logout operations.
 *
 * @example
 * ```ts
 * const { setToken } = useUserToken();
 * await setToken(user.id);
 * ```
 */
export function useUserToken(): UserTokenState {
  const { client, userToken } = useTidings();
  const setToken = useCallback((token: string) => client.tokens.setToken(token), [client]);
  const resetToken = useCallback(() => client.tokens.resetToken(), [client]);
  return { token: userToken, ready: userToken !== null, setToken, resetToken };
}
