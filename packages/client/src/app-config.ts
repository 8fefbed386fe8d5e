import type { CallOptions } from "./call-options.js";
import { enc, type ClientSession } from "./session.js";
import type { PublicAppConfig } from "./types.js";

/** `GET /public/config/<APP_KEY>`; remembers what it says about verification for later intake. */
export async function getConfig(s: ClientSession, options: CallOptions): Promise<PublicAppConfig> {
  const config = await s.json<PublicAppConfig>({ method: "GET", path: `/api/v1/public/config/${enc(s.client.appKey)}` }, options);
  s.verification = config.verification;
  s.configRead = true;
  return config;
}
