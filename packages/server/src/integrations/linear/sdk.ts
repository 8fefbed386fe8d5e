import type * as LinearSdk from "@linear/sdk";

let loaded: typeof LinearSdk | undefined;

/**
 * `@linear/sdk`, loaded by the first call to Linear rather than at start: an instance without a
 * Linear connection does not hold it (about 27 MB of resident memory).
 *
 * @example
 * ```ts
 * const { LinearClient } = await linearSdk();
 * ```
 */
export async function linearSdk(): Promise<typeof LinearSdk> {
  return (loaded ??= await import("@linear/sdk"));
}

/** The SDK if a call has loaded it: until one has, no error can be one of its classes. */
export function loadedLinearSdk(): typeof LinearSdk | undefined {
  return loaded;
}
