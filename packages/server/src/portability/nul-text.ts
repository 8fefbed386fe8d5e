export const NUL_MESSAGE = "contains a NUL character (U+0000), which the database cannot store";

export function hasNul(...texts: Array<string | null | undefined>): boolean {
  return texts.some((t) => t?.includes("\u0000") === true);
}
