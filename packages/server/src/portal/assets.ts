import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/** The files the portal serves, by public name: the browser bundles of `@tidings/react`. */
export const PORTAL_ASSETS = {
  "portal.js": "text/javascript; charset=utf-8",
  "portal.css": "text/css; charset=utf-8",
  "widget.js": "text/javascript; charset=utf-8",
} as const;

export type PortalAssetName = keyof typeof PORTAL_ASSETS;

/**
 * Where the portal bundles are: `@tidings/react`'s `dist/portal`, found through module
 * resolution (the workspace link in a checkout, the dependency when installed). Null when the
 * package is absent or not built, so the server still starts and the portal says it is missing.
 */
export function findPortalAssetDir(): string | null {
  try {
    const pkg = createRequire(import.meta.url).resolve("@tidings/react/package.json");
    const dir = path.join(path.dirname(pkg), "dist", "portal");
    return fs.existsSync(path.join(dir, "portal.js")) ? dir : null;
  } catch {
    return null;
  }
}

/** The portal bundles read once into memory (a few hundred KiB), with their ETags. */
export interface PortalAssets {
  get(name: PortalAssetName): { body: Buffer; etag: string } | undefined;
}

export function loadPortalAssets(dir: string | null): PortalAssets {
  const cache = new Map<PortalAssetName, { body: Buffer; etag: string }>();
  return {
    get(name) {
      if (dir === null) return undefined;
      const hit = cache.get(name);
      if (hit !== undefined) return hit;
      let body: Buffer;
      try {
        body = fs.readFileSync(path.join(dir, name));
      } catch {
        return undefined;
      }
      const stat = fs.statSync(path.join(dir, name));
      const entry = { body, etag: `"${body.length.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"` };
      cache.set(name, entry);
      return entry;
    },
  };
}
