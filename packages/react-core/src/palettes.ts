import type { ThemeName } from "@tidings/client";

/** The colours of one theme; the web stylesheet declares the same values as `--td-*` variables. */
export interface Palette {
  bg: string;
  card: string;
  cardBorder: string;
  text: string;
  text2: string;
  muted: string;
  primary: string;
  primaryHover: string;
  primaryText: string;
  border: string;
  inputBg: string;
  inputBorder: string;
  accent: string;
  voteActiveBg: string;
  voteActiveText: string;
  voteBg: string;
  voteText: string;
  chipBg: string;
  chipText: string;
  divider: string;
  danger: string;
  dangerBg: string;
  dangerBorder: string;
  success: string;
  focus: string;
}

/** A theme name other than `system`, which follows the device between `light` and `dark`. */
export type PaletteName = Exclude<ThemeName, "system">;

/**
 * Every theme's colours, for renderers without CSS (React Native); `palettes.test.ts` keeps them
 * equal to the web stylesheet's variables.
 *
 * @example
 * ```ts
 * palettes.dark.primary; // "#818cf8"
 * ```
 */
export const palettes: Record<PaletteName, Palette> = {
  light: {
    bg: "#ffffff",
    card: "#ffffff",
    cardBorder: "#e5e7eb",
    text: "#111827",
    text2: "#374151",
    muted: "#6b7280",
    primary: "#4f46e5",
    primaryHover: "#4338ca",
    primaryText: "#ffffff",
    border: "#d1d5db",
    inputBg: "#ffffff",
    inputBorder: "#d1d5db",
    accent: "#4f46e5",
    voteActiveBg: "#4f46e5",
    voteActiveText: "#ffffff",
    voteBg: "#f3f4f6",
    voteText: "#374151",
    chipBg: "#eef2ff",
    chipText: "#3730a3",
    divider: "#e5e7eb",
    danger: "#b91c1c",
    dangerBg: "#fef2f2",
    dangerBorder: "#fecaca",
    success: "#047857",
    focus: "#2563eb",
  },
  dark: {
    bg: "#0f1115",
    card: "#171a21",
    cardBorder: "#262a33",
    text: "#f3f4f6",
    text2: "#d1d5db",
    muted: "#9ca3af",
    primary: "#818cf8",
    primaryHover: "#a5b4fc",
    primaryText: "#0f1115",
    border: "#374151",
    inputBg: "#111318",
    inputBorder: "#374151",
    accent: "#818cf8",
    voteActiveBg: "#818cf8",
    voteActiveText: "#0f1115",
    voteBg: "#1f2430",
    voteText: "#e5e7eb",
    chipBg: "#1e2240",
    chipText: "#c7d2fe",
    divider: "#262a33",
    danger: "#f87171",
    dangerBg: "#2a1212",
    dangerBorder: "#7f1d1d",
    success: "#34d399",
    focus: "#93c5fd",
  },
  midnight: {
    bg: "#0b1020",
    card: "#121a33",
    cardBorder: "#1e2a4d",
    text: "#e6ebff",
    text2: "#c3cbeb",
    muted: "#8d97bd",
    primary: "#7c9cff",
    primaryHover: "#a3baff",
    primaryText: "#0b1020",
    border: "#2a3760",
    inputBg: "#0e1530",
    inputBorder: "#2a3760",
    accent: "#b18cff",
    voteActiveBg: "#7c9cff",
    voteActiveText: "#0b1020",
    voteBg: "#18224a",
    voteText: "#dbe3ff",
    chipBg: "#1c2756",
    chipText: "#c9d5ff",
    divider: "#1e2a4d",
    danger: "#ff8a8a",
    dangerBg: "#2b1220",
    dangerBorder: "#6b2035",
    success: "#5eead4",
    focus: "#b18cff",
  },
  ocean: {
    bg: "#f0f9ff",
    card: "#ffffff",
    cardBorder: "#bae6fd",
    text: "#0c4a6e",
    text2: "#075985",
    muted: "#4b7690",
    primary: "#0369a1",
    primaryHover: "#075985",
    primaryText: "#ffffff",
    border: "#7dd3fc",
    inputBg: "#ffffff",
    inputBorder: "#7dd3fc",
    accent: "#0891b2",
    voteActiveBg: "#0369a1",
    voteActiveText: "#ffffff",
    voteBg: "#e0f2fe",
    voteText: "#0c4a6e",
    chipBg: "#e0f2fe",
    chipText: "#075985",
    divider: "#bae6fd",
    danger: "#b91c1c",
    dangerBg: "#fef2f2",
    dangerBorder: "#fecaca",
    success: "#047857",
    focus: "#0e7490",
  },
  forest: {
    bg: "#f3f8f2",
    card: "#ffffff",
    cardBorder: "#cfe3cb",
    text: "#1c3321",
    text2: "#2f4d35",
    muted: "#5a735e",
    primary: "#2f6b3a",
    primaryHover: "#24552e",
    primaryText: "#ffffff",
    border: "#a9c9a4",
    inputBg: "#ffffff",
    inputBorder: "#a9c9a4",
    accent: "#4d7c0f",
    voteActiveBg: "#2f6b3a",
    voteActiveText: "#ffffff",
    voteBg: "#e4efe1",
    voteText: "#1c3321",
    chipBg: "#e4efe1",
    chipText: "#24552e",
    divider: "#cfe3cb",
    danger: "#b91c1c",
    dangerBg: "#fef2f2",
    dangerBorder: "#fecaca",
    success: "#047857",
    focus: "#15803d",
  },
  sunset: {
    bg: "#fff7ed",
    card: "#ffffff",
    cardBorder: "#fed7aa",
    text: "#431407",
    text2: "#7c2d12",
    muted: "#8a5a44",
    primary: "#c2410c",
    primaryHover: "#9a3412",
    primaryText: "#ffffff",
    border: "#fdba74",
    inputBg: "#ffffff",
    inputBorder: "#fdba74",
    accent: "#db2777",
    voteActiveBg: "#c2410c",
    voteActiveText: "#ffffff",
    voteBg: "#ffedd5",
    voteText: "#431407",
    chipBg: "#ffedd5",
    chipText: "#9a3412",
    divider: "#fed7aa",
    danger: "#b91c1c",
    dangerBg: "#fef2f2",
    dangerBorder: "#fecaca",
    success: "#047857",
    focus: "#be123c",
  },
  candy: {
    bg: "#fdf2f8",
    card: "#ffffff",
    cardBorder: "#fbcfe8",
    text: "#500724",
    text2: "#831843",
    muted: "#8b4f6b",
    primary: "#be185d",
    primaryHover: "#9d174d",
    primaryText: "#ffffff",
    border: "#f9a8d4",
    inputBg: "#ffffff",
    inputBorder: "#f9a8d4",
    accent: "#7c3aed",
    voteActiveBg: "#be185d",
    voteActiveText: "#ffffff",
    voteBg: "#fce7f3",
    voteText: "#500724",
    chipBg: "#fce7f3",
    chipText: "#9d174d",
    divider: "#fbcfe8",
    danger: "#b91c1c",
    dangerBg: "#fef2f2",
    dangerBorder: "#fecaca",
    success: "#047857",
    focus: "#7c3aed",
  },
};

/**
 * The palette a theme shows: `system` follows the device's colour scheme.
 *
 * @example
 * ```ts
 * resolvePalette("system", "dark") === palettes.dark; // true
 * ```
 */
export function resolvePalette(theme: ThemeName, colorScheme: string | null | undefined): Palette {
  if (theme === "system") return colorScheme === "dark" ? palettes.dark : palettes.light;
  return palettes[theme];
}
