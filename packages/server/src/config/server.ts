import { ConfigError, type Env } from "./env.js";

/** What one instance does; see `Config.role`. */
export type InstanceRole = "web" | "worker" | "all";

const ROLES: readonly InstanceRole[] = ["web", "worker", "all"];

/** `TIDINGS_ROLE`: `web`, `worker` or `all` (the default). */
export function parseRole(env: Env): InstanceRole {
  const raw = env.TIDINGS_ROLE?.trim().toLowerCase();
  if (raw === undefined || raw === "") return "all";
  if (!(ROLES as readonly string[]).includes(raw)) throw new ConfigError("TIDINGS_ROLE", `expected web, worker or all, got "${env.TIDINGS_ROLE}"`);
  return raw as InstanceRole;
}

/** `PORT`: 0-65535, 8787 when unset. */
export function parsePort(env: Env): number {
  const raw = env.PORT?.trim();
  if (raw === undefined || raw === "") return 8787;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) {
    throw new ConfigError("PORT", `expected a port number 0-65535, got "${raw}"`);
  }
  return Number(raw);
}

/** `TRUST_PROXY`: true, false, a hop count, or proxy addresses and CIDR ranges. */
export function parseTrustProxy(env: Env): boolean | number | string[] {
  const raw = env.TRUST_PROXY?.trim();
  if (raw === undefined || raw === "" || ["false", "0", "no", "off"].includes(raw.toLowerCase())) return false;
  if (["true", "yes", "on"].includes(raw.toLowerCase())) return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const parts = raw.split(",").map((p) => p.trim()).filter(Boolean);
  const addressLike = /^(?:[0-9.]+|[0-9a-fA-F:]+)(?:\/\d{1,3})?$|^(?:loopback|linklocal|uniquelocal)$/;
  const bad = parts.find((p) => !addressLike.test(p));
  if (bad !== undefined || parts.length === 0) {
    throw new ConfigError(
      "TRUST_PROXY",
      `expected true, false, a hop count, or comma-separated addresses/CIDRs; "${bad ?? raw}" is none of these`,
    );
  }
  return parts;
}
