import type { Platform as TidingsPlatform } from "@tidings/client";
import { Platform } from "react-native";

/**
 * Spec client rule 4 on a device: the platform of the running OS (`Platform.OS`), with anything
 * the API has no name for (Windows, for one) reported as `universal`.
 *
 * @example
 * ```ts
 * runtimePlatform(); // "ios" on an iPhone
 * ```
 */
export function runtimePlatform(os: string = Platform.OS): TidingsPlatform {
  switch (os) {
    case "ios":
    case "android":
    case "macos":
    case "web":
      return os;
    default:
      return "universal";
  }
}
