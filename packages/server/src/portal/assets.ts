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

/**
 * Reads the bundles from the folder `find` answers, each once. When a file cannot be read there
 * (the packed copy was removed after the server found it, as `npm pack`'s postpack does in a
 * checkout), the folder is looked up again and the file read from the new one.
 */
export function loadPortalAssets(find: () => string | null): PortalAssets {
  const cache = new Map<PortalAssetName, { body: Buffer; etag: string }>();
  let dir = find();
  const read = (from: string, name: PortalAssetName) => {
    try {
      const body = fs.readFileSync(path.join(from, name));
      const stat = fs.statSync(path.join(from, name));
      return { body, etag: `"${body.length.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"` };
    } catch {
      return undefined;
    }
  };
  return {
    get(name) {
      const hit = cache.get(name);
      if (hit !== undefined) return hit;
      let entry = dir === null ? undefined : read(dir, name);
      if (entry === undefined) {
        const again = find();
        if (again !== null && again !== dir) {
          dir = again;
          entry = read(dir, name);
        }
      }
      if (entry !== undefined) cache.set(name, entry);
      return entry;
    },
  };
}
