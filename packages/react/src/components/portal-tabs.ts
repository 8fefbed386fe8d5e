import type { PortalRoute, Surface } from "@tidings/client";
import type { StringId } from "@tidings/react-core";

/** A section of the portal. */
export type PortalTab = "roadmap" | "requests" | "changelog" | "feedback";

/** The portal's sections in order, each with the surface flag that shows it and its label. */
export const TABS: readonly { id: PortalTab; surface: Surface; label: StringId }[] = [
  { id: "roadmap", surface: "roadmap", label: "portal.roadmap" },
  { id: "requests", surface: "featureRequests", label: "portal.requests" },
  { id: "changelog", surface: "changelog", label: "portal.changelog" },
  { id: "feedback", surface: "feedback", label: "portal.feedback" },
];

/** The section a screen belongs to; undefined for the home screen (the first enabled section). */
export function tabOf(route: PortalRoute): PortalTab | undefined {
  switch (route.screen) {
    case "home":
    case "profile":
      return undefined;
    case "request":
      return "requests";
    case "release":
      return "changelog";
    default:
      return route.screen;
  }
}
