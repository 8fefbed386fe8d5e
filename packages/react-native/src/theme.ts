import { resolvePalette, useTidings, type Palette } from "@tidings/react-core";
import { useColorScheme } from "react-native";

/** The smallest touch target, in points (Apple HIG: 44 pt; Material: 48 dp). */
export const MIN_TOUCH = 44;

/**
 * The palette of the theme in force: the provider's theme (prop, else the config's), with
 * `system` following the device's light or dark scheme as it changes.
 *
 * @example
 * ```tsx
 * const palette = usePalette();
 * <Text style={{ color: palette.text }}>Hi</Text>
 * ```
 */
export function usePalette(): Palette {
  const { theme } = useTidings();
  return resolvePalette(theme, useColorScheme());
}
