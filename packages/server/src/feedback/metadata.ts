import { dropLoneSurrogates, truncateText } from "@tidings/protocol";

/** Limits of submission metadata (wire-contract §2.9). */
export const METADATA_LIMITS = { maxKeys: 24, maxString: 512, maxDepth: 4, maxBytes: 8192 } as const;

/** What replaces the value of a key that looks like a credential. */
export const REDACTED = "[redacted]";
/** What ends a string cut at {@link METADATA_LIMITS}.maxString UTF-16 units. */
export const TRUNCATED_SUFFIX = "…[truncated]";

const KEY = /^[A-Za-z0-9_.:-]{1,64}$/;
const CREDENTIAL = /pass(word|wd|phrase)?|secret|token|api[-_.:]?key|auth|cookie|session|credential|private[-_.:]?key|bearer|signature|jwt|otp/i;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function clean(value: unknown, depth: number): unknown {
  if (depth >= METADATA_LIMITS.maxDepth) return null;
  if (typeof value === "string") {
    const text = dropLoneSurrogates(value);
    return text.length > METADATA_LIMITS.maxString ? truncateText(text, METADATA_LIMITS.maxString) + TRUNCATED_SUFFIX : text;
  }
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "boolean" || value === null) return value;
  if (Array.isArray(value)) return value.slice(0, METADATA_LIMITS.maxKeys).map((item) => clean(item, depth + 1));
  if (isPlainObject(value)) return cleanObject(value, depth);
  return null;
}

function cleanObject(value: Record<string, unknown>, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const keys = Object.keys(value)
    .filter((key) => KEY.test(key))
    .sort()
    .slice(0, METADATA_LIMITS.maxKeys);
  for (const key of keys) out[key] = CREDENTIAL.test(key) ? REDACTED : clean(value[key], depth + 1);
  return out;
}

/**
 * Metadata as stored: never rejected, only trimmed. Keys must match `[A-Za-z0-9_.:-]{1,64}`
 * (others are dropped); at most 24 keys per object (first 24 in sorted order); keys that look
 * like credentials get `"[redacted]"`; strings lose lone surrogates, and those over 512 UTF-16 units are cut between grapheme clusters and marked
 * `…[truncated]`; values nested 4 deep or more become null; the whole stays within 8192 bytes of
 * JSON by keeping top-level keys in sorted order while they fit. Anything but an object is `{}`.
 *
 * @example
 * ```ts
 * sanitizeMetadata({ apiKey: "sk_live", screen: "Settings", "bad key": 1 }); // { apiKey: "[redacted]", screen: "Settings" }
 * ```
 */
export function sanitizeMetadata(input: unknown): Record<string, unknown> {
  if (!isPlainObject(input)) return {};
  const cleaned = cleanObject(input, 0);
  const out: Record<string, unknown> = {};
  let bytes = 2; // "{}"
  for (const key of Object.keys(cleaned)) {
    const entry = Buffer.byteLength(JSON.stringify(key)) + 1 + Buffer.byteLength(JSON.stringify(cleaned[key])) + (bytes > 2 ? 1 : 0);
    if (bytes + entry > METADATA_LIMITS.maxBytes) continue;
    out[key] = cleaned[key];
    bytes += entry;
  }
  return out;
}
