import type { UserCallOptions } from "./call-options.js";
import type { ClientSession } from "./session.js";
import type { Board } from "./types.js";

/**
 * `GET /public/apps/<APP_KEY>/boards`: the boards the caller may see, by position. Private boards
 * are listed only for a user the host vouches for (`userHash`, or an SSO token) whom the board's
 * rule admits; a server without boards answers 404.
 */
export async function listBoards(s: ClientSession, options: UserCallOptions): Promise<Board[]> {
  const data = await s.json<{ boards?: Board[] }>({ method: "GET", path: s.appPath("boards"), headers: await s.identity.readHeaders(options) }, options);
  return [...(data.boards ?? [])].sort((a, b) => a.position - b.position);
}
