/** What an entry costs beyond its value: the key, the maps' slots and the tag index's, roughly. */
export const ENTRY_OVERHEAD_BYTES = 200;

/** Past this depth a value is counted as a pointer: cached values are plain data a few levels deep. */
const MAX_DEPTH = 12;

/**
 * About how many bytes of the heap `value` holds: strings by their length (V8 keeps ASCII text in
 * one byte a character, other text in two: the larger is counted), numbers and booleans as a
 * slot, arrays, objects, maps and sets by their slots plus what they hold. Shared references are
 * counted each time they are met, so the figure errs high. It is an estimate for bounding a cache,
 * not a measure: V8 gives no cheap size of an object graph.
 *
 * @example
 * ```ts
 * approximateBytes({ title: "Dark mode", votes: 3 }); // 2 slots + 9 characters + 2 keys
 * ```
 */
export function approximateBytes(value: unknown, depth = 0): number {
  switch (typeof value) {
    case "string":
      return 16 + 2 * value.length;
    case "number":
    case "boolean":
    case "bigint":
    case "undefined":
    case "symbol":
    case "function":
      return 8;
    case "object":
      break;
  }
  if (value === null) return 8;
  if (depth >= MAX_DEPTH) return 8;
  if (Array.isArray(value)) {
    let bytes = 16 + 8 * value.length;
    for (const item of value) bytes += approximateBytes(item, depth + 1);
    return bytes;
  }
  if (value instanceof Map) {
    let bytes = 32 + 24 * value.size;
    for (const [k, v] of value) bytes += approximateBytes(k, depth + 1) + approximateBytes(v, depth + 1);
    return bytes;
  }
  if (value instanceof Set) {
    let bytes = 32 + 16 * value.size;
    for (const item of value) bytes += approximateBytes(item, depth + 1);
    return bytes;
  }
  if (ArrayBuffer.isView(value)) return 64 + value.byteLength;
  let bytes = 24;
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    // The key's name lives in the object's shape, shared by objects built alike: a slot here.
    bytes += 8 + approximateBytes((value as Record<string, unknown>)[key], depth + 1);
  }
  return bytes;
}

/**
 * About what the value serialised as `json` holds, by {@link approximateBytes}'s measure, told
 * from the text's length alone: twice it. Pages of requests, whose values are mostly text,
 * measure 1.5–1.6 times their JSON, so this errs high for them as that measure does; values that
 * are mostly short numbers hold more than this says. For a cache entry that keeps a page beside
 * its JSON, where walking the page cost as much as serialising it.
 *
 * @example
 * ```ts
 * const bytes = approximateBytes(body) + approximateBytesOfJson(body.json);
 * ```
 */
export function approximateBytesOfJson(json: string): number {
  return 2 * json.length;
}
