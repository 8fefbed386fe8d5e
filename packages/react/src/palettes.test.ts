import { readFileSync } from "node:fs";
import { palettes, type PaletteName } from "@tidings/react-core";
import { describe, expect, test } from "vitest";

const css = readFileSync(new URL("./styles.css", import.meta.url), "utf8");

function declared(block: string): Record<string, string> {
  return Object.fromEntries([...block.matchAll(/--td-([a-z0-9-]+):\s*([^;]+);/g)].map((m) => [m[1]!.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase()), m[2]!.trim()]));
}

const light = declared(/\.tidings \{([^}]*)\}/.exec(css)?.[1] ?? "");

describe("the shared palettes", () => {
  test.each(Object.keys(palettes) as PaletteName[])("%s has the web stylesheet's colours", (name) => {
    const own = name === "light" ? {} : declared(new RegExp(`\\.tidings\\[data-theme="${name}"\\] \\{([^}]*)\\}`).exec(css)?.[1] ?? "");
    const { radius: _radius, ...expected } = { ...light, ...own };
    expect(Object.keys(own).length > 0 || name === "light").toBe(true);
    expect(palettes[name]).toEqual(expected);
  });
});
