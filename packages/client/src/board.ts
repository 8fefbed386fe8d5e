import type { UserCallOptions } from "./call-options.js";
import { enc, type ClientSession } from "./session.js";
import type { AppVersion, BoardColumn } from "./types.js";

function byPosition<T extends { position: number }>(items: T[]): T[] {
  return [...items].sort((a, b) => a.position - b.position);
}

/** `GET /public/columns/<APP_KEY>`, sorted by position (hidden columns included). */
export async function getColumns(s: ClientSession, options: UserCallOptions): Promise<BoardColumn[]> {
  const data = await s.json<{ columns?: BoardColumn[] }>(
    { method: "GET", path: `/api/v1/public/columns/${enc(s.client.appKey)}`, headers: await s.identity.readHeaders(options) },
    options,
  );
  return byPosition(data.columns ?? []);
}

/** `GET /public/versions/<APP_KEY>`, sorted by position. */
export async function getVersions(s: ClientSession, options: UserCallOptions): Promise<AppVersion[]> {
  const data = await s.json<{ versions?: AppVersion[] }>(
    { method: "GET", path: `/api/v1/public/versions/${enc(s.client.appKey)}`, headers: await s.identity.readHeaders(options) },
    options,
  );
  return byPosition(data.versions ?? []);
}
