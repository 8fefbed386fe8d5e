/**
 * Tidings' share of a release bundle, per package, and the size budget a mobile team holds it to.
 */
import path from "node:path";
import { build } from "esbuild";
import { byPackage, duplicatedModules, sourceShare } from "./bundle-share.js";
import type { ReleaseBundle } from "./example-app.js";
import { ROOT } from "./packs.js";

/** What Tidings may add to an app's minified JavaScript, all packages together. */
export const TIDINGS_BUDGET_BYTES = 150 * 1024;

/** One bundle measured. */
export interface ReleaseSize {
  label: string;
  /** Minified bytes of each @tidings package. */
  tidings: Map<string, number>;
  /** Their sum. */
  tidingsBytes: number;
  /** The whole bundle's minified bytes. */
  totalBytes: number;
  /** Hermes bytecode of the whole bundle, when compiled. */
  bytecodeBytes?: number;
  /** Every source path in the bundle. */
  sources: string[];
  /** Modules held twice. */
  duplicates: [string, string[]][];
}

const isTidings = (name: string) => name.startsWith("@tidings/");

/**
 * Measures a release bundle from its source map.
 *
 * @example
 * ```ts
 * const size = measureRelease("expo ios", await exportExpo(app, "ios"));
 * size.tidingsBytes <= TIDINGS_BUDGET_BYTES;
 * ```
 */
export function measureRelease(label: string, bundle: ReleaseBundle): ReleaseSize {
  const share = sourceShare(bundle.js, bundle.map);
  const tidings = new Map([...byPackage(share)].filter(([name]) => isTidings(name)).sort(([a], [b]) => a.localeCompare(b)));
  const sources = [...share.bySource.keys()];
  return {
    label,
    tidings,
    tidingsBytes: [...tidings.values()].reduce((sum, bytes) => sum + bytes, 0),
    totalBytes: share.total,
    bytecodeBytes: bundle.bytecodeBytes,
    sources,
    duplicates: duplicatedModules(sources),
  };
}

/**
 * The web figures beside them: `@tidings/react` with the SDK and react-core as a web app's bundler
 * sees it (esbuild, minified ES module for browsers; React and react-dom are the app's), per
 * package, from esbuild's metafile.
 */
export async function measureWeb(): Promise<ReleaseSize> {
  const result = await build({
    stdin: { contents: 'export * from "@tidings/react";', resolveDir: ROOT, loader: "ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2020",
    write: false,
    metafile: true,
    logLevel: "silent",
    external: ["react", "react-dom", "react/jsx-runtime", "react-dom/client"],
    outdir: "out",
  });
  const output = Object.values(result.metafile.outputs)[0]!;
  const tidings = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const match = /packages\/([^/]+)\//.exec(input.replace(/\\/g, "/"));
    if (match === null) continue;
    const name = `@tidings/${match[1]}`;
    tidings.set(name, (tidings.get(name) ?? 0) + bytesInOutput);
  }
  const sorted = new Map([...tidings].sort(([a], [b]) => a.localeCompare(b)));
  return { label: "web", tidings: sorted, tidingsBytes: [...sorted.values()].reduce((a, b) => a + b, 0), totalBytes: output.bytes, sources: Object.keys(output.inputs), duplicates: [] };
}

const kb = (bytes: number | undefined) => (bytes === undefined ? "" : `${(bytes / 1024).toFixed(1)} KB`);

/** The sizes side by side, a column per bundle. */
export function formatSizes(sizes: ReleaseSize[]): string {
  const names = [...new Set(sizes.flatMap((size) => [...size.tidings.keys()]))].sort();
  const width = Math.max(24, ...names.map((name) => name.length + 2));
  const column = (text: string) => text.padStart(16);
  const rows = [
    "Tidings' share of each bundle, minified JavaScript read from its source map (1 KB = 1024 bytes)",
    "".padEnd(width) + sizes.map((size) => column(size.label)).join(""),
    ...names.map((name) => name.padEnd(width) + sizes.map((size) => column(kb(size.tidings.get(name)))).join("")),
    "Tidings in all".padEnd(width) + sizes.map((size) => column(kb(size.tidingsBytes))).join(""),
    `budget (mobile)`.padEnd(width) + sizes.map((size) => column(size.label === "web" ? "" : kb(TIDINGS_BUDGET_BYTES))).join(""),
    "whole bundle".padEnd(width) + sizes.map((size) => column(kb(size.totalBytes))).join(""),
    "Hermes bytecode, whole".padEnd(width) + sizes.map((size) => column(kb(size.bytecodeBytes))).join(""),
    "duplicated modules".padEnd(width) + sizes.map((size) => column(size.label === "web" ? "" : String(size.duplicates.length))).join(""),
  ];
  return rows.join("\n");
}

/** A source path shortened to what follows its last node_modules/, for messages. */
export const shortSource = (source: string) => source.slice(source.lastIndexOf("node_modules/") + "node_modules/".length) || path.basename(source);
