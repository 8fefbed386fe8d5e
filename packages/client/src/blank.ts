/** `value` when it holds more than white space, else undefined: blank options and fields count as unset. */
export function nonBlank(value: string | null | undefined): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

/** A copy of `value` without its undefined properties (exactOptionalPropertyTypes-friendly bodies). */
export function compact<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
