/** Environment variables by name, as `process.env` holds them. */
export type Env = Record<string, string | undefined>;

/** A configuration problem that names the variable at fault. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = "ConfigError";
  }
}

/** A true/false variable (`1`/`0`, `yes`/`no`, `on`/`off` too), `fallback` when unset. */
export function parseBool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === "") return fallback;
  if (["1", "true", "yes", "on"].includes(raw)) return true;
  if (["0", "false", "no", "off"].includes(raw)) return false;
  throw new ConfigError(name, `expected true/false (or 1/0), got "${env[name]}"`);
}

/** A whole number from `min` to `max`, `fallback` when unset. */
export function parseInteger(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `expected an integer ${min}-${max}, got "${raw}"`);
  }
  return Number(raw);
}

/** An absolute http(s) URL without its trailing slashes, null when unset. */
export function parseUrl(env: Env, name: string): string | null {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `expected an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(name, `expected an http(s) URL, got "${raw}"`);
  }
  return raw.replace(/\/+$/, "");
}

/** An optional service URL (it may carry a password, so a bad value is never echoed). */
export function parseServiceUrl(env: Env, name: string, protocols: readonly string[], expected: string): string | null {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return null;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (url === undefined || !protocols.includes(url.protocol) || url.hostname === "") throw new ConfigError(name, expected);
  return raw;
}
