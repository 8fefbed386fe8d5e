import dns from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";

/** What `TIDINGS_WEBHOOK_ALLOW` lets through besides public addresses: host names and address ranges. */
export interface WebhookAllowList {
  hosts: ReadonlySet<string>;
  ranges: ReadonlyArray<[ipaddr.IPv4 | ipaddr.IPv6, number]>;
}

/** Nothing allowed beyond public unicast addresses. */
export const NO_WEBHOOK_ALLOW: WebhookAllowList = { hosts: new Set(), ranges: [] };

/**
 * Parses `TIDINGS_WEBHOOK_ALLOW`: comma-separated host names, addresses and CIDR ranges. Throws
 * an Error naming the entry it cannot read.
 *
 * @example
 * ```ts
 * parseWebhookAllow("127.0.0.0/8, ::1, hooks.internal");
 * ```
 */
export function parseWebhookAllow(raw: string): WebhookAllowList {
  const hosts = new Set<string>();
  const ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  for (const entry of raw.split(",").map((e) => e.trim().toLowerCase())) {
    if (entry === "") continue;
    if (entry.includes("/")) {
      if (!ipaddr.isValidCIDR(entry)) throw new Error(`"${entry}" is not a CIDR range`);
      ranges.push(ipaddr.parseCIDR(entry));
    } else if (ipaddr.isValid(entry)) {
      const address = ipaddr.parse(entry);
      ranges.push([address, address.kind() === "ipv4" ? 32 : 128]);
    } else if (/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/.test(entry)) {
      hosts.add(entry.replace(/\.$/, ""));
    } else {
      throw new Error(`"${entry}" is neither a host name, an address nor a CIDR range`);
    }
  }
  return { hosts, ranges };
}

/** A URL or address webhooks may not reach; `reason` is shown to the user. */
export class RefusedAddressError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "RefusedAddressError";
  }
}

/**
 * True when webhooks may connect to `address`: a public unicast address (never loopback,
 * private, link-local — cloud metadata lives there —, carrier-grade NAT, NAT64/6to4 wrappers or
 * anything reserved), or one inside a range of the allow list.
 */
export function addressAllowed(address: string, allow: WebhookAllowList): boolean {
  if (!ipaddr.isValid(address)) return false;
  // An IPv4-mapped IPv6 address is judged as the IPv4 address it reaches.
  const parsed = ipaddr.process(address);
  if (parsed.range() === "unicast") return true;
  return allow.ranges.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits));
}

/** The host of a URL without IPv6 brackets or a trailing dot, lower case. */
export function urlHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "").toLowerCase();
}

/** Throws {@link RefusedAddressError} unless `raw` is an absolute http(s) URL. */
export function parseWebhookUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RefusedAddressError("Not an absolute URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new RefusedAddressError("Only http and https URLs are allowed");
  if (urlHost(url) === "") throw new RefusedAddressError("The URL has no host");
  return url;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request` that resolves the host and keeps only addresses webhooks may
 * reach, so the address checked is the address connected to (no second resolution to race). A
 * host named in the allow list may resolve anywhere.
 *
 * @example
 * ```ts
 * http.request(url, { lookup: guardedLookup(allow) });
 * ```
 */
export function guardedLookup(allow: WebhookAllowList) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error !== null) return callback(error, []);
      const named = allow.hosts.has(hostname.replace(/\.$/, "").toLowerCase());
      const usable = named ? addresses : addresses.filter((a) => addressAllowed(a.address, allow));
      if (usable.length === 0) {
        const refused = new RefusedAddressError(`${hostname} resolves only to private or reserved addresses`) as NodeJS.ErrnoException;
        refused.code = "EWEBHOOKREFUSED";
        return callback(refused, []);
      }
      if (options.all === true) return callback(null, usable);
      callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}

/**
 * Checks a URL before it is saved or requested: http(s), and a host that is allowed by name, an
 * allowed address, or a name resolving to at least one allowed address. Throws
 * {@link RefusedAddressError} with the reason.
 *
 * @example
 * ```ts
 * await checkWebhookUrl("http://169.254.169.254/latest", allow); // throws
 * ```
 */
export async function checkWebhookUrl(raw: string, allow: WebhookAllowList): Promise<URL> {
  const url = parseWebhookUrl(raw);
  const host = urlHost(url);
  if (allow.hosts.has(host)) return url;
  if (net.isIP(host) !== 0) {
    if (!addressAllowed(host, allow)) throw new RefusedAddressError(`${host} is a private, loopback, link-local or reserved address`);
    return url;
  }
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true });
  } catch {
    throw new RefusedAddressError(`${host} does not resolve`);
  }
  if (!addresses.some((a) => addressAllowed(a.address, allow))) {
    throw new RefusedAddressError(`${host} resolves only to private, loopback, link-local or reserved addresses`);
  }
  return url;
}
