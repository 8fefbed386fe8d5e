import type { ThemeName } from "@tidings/client";

/**
 * The themes of wire-contract §7.1, in the order pickers show them; each renderer maps a name to
 * its own styling (CSS variables on the web, style objects in React Native).
 *
 * @example
 * ```ts
 * THEMES.includes("midnight"); // true
 * ```
 */
export const THEMES: readonly ThemeName[] = ["system", "light", "dark", "midnight", "ocean", "forest", "sunset", "candy"];
