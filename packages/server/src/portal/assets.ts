import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The files the portal serves, by public name: the browser bundles of `@tidings/react`. */
export const PORTAL_ASSETS = {
  "portal.js": "text/javascript; charset=utf-8",
  "portal.css": "text/css; charset=utf-8",
  "widget.js": "text/javascript; charset=utf-8",
} as const;

export type PortalAssetName = keyof typeof PORTAL_ASSETS;

/**
 * Where the portal bundles are: the copy a packed `@tidings/server` carries in `dist/public/portal`
 * (see scripts/bundle-assets.mjs), else `@tidings/react`'s `dist/portal`, found through module
 * resolution (the workspace link in a checkout). Null when neither is there, so the server still
 * starts and the portal says it is missing.
 */
export function findPortalAssetDir(): string | null {
  const bundled = fileURLToPath(new URL("../public/portal", import.meta.url));
  if (fs.existsSync(path.join(bundled, "portal.js"))) return bundled;
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
