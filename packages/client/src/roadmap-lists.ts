import type { UserCallOptions } from "./call-options.js";
import { enc, type ClientSession } from "./session.js";

/** `GET /public/<list>/<APP_KEY>`: the roadmap's columns or versions, sorted by position. */
export async function roadmapList<T extends { position: number }>(s: ClientSession, list: "columns" | "versions", options: UserCallOptions): Promise<T[]> {
  const data = await s.json<Partial<Record<typeof list, T[]>>>(
    { method: "GET", path: `/api/v1/public/${list}/${enc(s.client.appKey)}`, headers: await s.identity.readHeaders(options) },
    options,
  );
  return [...(data[list] ?? [])].sort((a, b) => a.position - b.position);
}
