import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capturedIo } from "@tidings/testing/command-io";
import { seedDemo } from "../demo/seed-demo.js";
import { FakeClock } from "@tidings/testing/fake-clock";
import { databaseUrl, openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { exportCommand } from "./export-command.js";
import { csvField } from "./requests-csv.js";

/** Splits RFC 4180 CSV text into rows of fields. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += c;
  }
  return rows;
}

describe("csvField", () => {
  it("quotes separators and defuses text a spreadsheet would run as a formula", () => {
    expect(csvField('say "hi", then\nleave')).toBe('"say ""hi"", then\nleave"');
    expect(csvField("=HYPERLINK(\"http://x\")")).toBe("\"'=HYPERLINK(\"\"http://x\"\")\"");
    expect(csvField("+1")).toBe("'+1");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField(42)).toBe("42");
    expect(csvField(null)).toBe("");
  });
});

describe.each(testDialects())("tidings export on %s", (dialect) => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let dir: string;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    await seedDemo(database.db.kysely, new FakeClock(), dialect);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-export-"));
    const url = databaseUrl(database);
    env = { DATA_DIR: dir, DATABASE_URL: url, LOG_LEVEL: "silent" };
  });
  afterAll(async () => {
    await database.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("writes the app's archive to --out and a JSON summary", async () => {
    const out = path.join(dir, "demo.jsonl");
    const run = capturedIo(env);
    expect(await exportCommand(["--app", "app_demo", "--out", out, "--json"], run.io), run.err()).toBe(0);
    const lines = fs.readFileSync(out, "utf8").trimEnd().split("\n");
    expect(JSON.parse(lines[0]!)).toMatchObject({ type: "tidings-archive", scope: { kind: "app", appKey: "app_demo" } });
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ type: "end", counts: { featureRequests: 12, featureRequestVotes: 191 } });
    expect(JSON.parse(run.out())).toMatchObject({ format: "jsonl", out, rows: lines.length - 2 });
    expect(run.err()).toMatch(/Exporting: 100% \((\d+) of \1\), \1 rows, \d+ rows\/s/);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith(".part"))).toEqual([]);
  });

  it("exports a workspace, and the requests as CSV with their column, votes and author", async () => {
    const ws = path.join(dir, "ws.jsonl");
    expect(await exportCommand(["--workspace", "demo", "--out", ws], capturedIo(env).io)).toBe(0);
    expect(JSON.parse(fs.readFileSync(ws, "utf8").split("\n")[0]!)).toMatchObject({ scope: { kind: "workspace", slug: "demo" } });

    const csv = path.join(dir, "requests.csv");
    expect(await exportCommand(["--app", "app_demo", "--format", "csv", "--out", csv], capturedIo(env).io)).toBe(0);
    const [header, ...rows] = parseCsv(fs.readFileSync(csv, "utf8"));
    expect(header).toEqual(["id", "title", "description", "status", "votes", "comments", "author_name", "author_email", "version", "moderation", "merged_into", "created_at", "updated_at", "companies", "company_revenue", "company_names", "board", "tags"]);
    expect(rows).toHaveLength(12);
    const dark = rows.find((r) => r[1] === "Dark mode")!;
    expect(dark[3]).toBe("Shipped");
    expect(dark[4]).toBe("42");
    expect(dark[5]).toBe("2");
    expect(dark[16]).toBe("Feature requests");
    // Oldest first.
    expect(rows.map((r) => r[11])).toEqual(rows.map((r) => r[11]).sort());
  });

  it("answers 3 for an unknown app, 2 for bad usage, and leaves no file behind", async () => {
    const missing = capturedIo(env);
    expect(await exportCommand(["--app", "app_nope", "--out", path.join(dir, "nope.jsonl")], missing.io)).toBe(3);
    expect(missing.err()).toMatch(/No app with key "app_nope"/);
    expect(fs.existsSync(path.join(dir, "nope.jsonl"))).toBe(false);
    for (const args of [["--out", "x.jsonl"], ["--app", "a", "--workspace", "b", "--out", "x"], ["--app", "a"], ["--workspace", "demo", "--format", "csv", "--out", "x"], ["--app", "a", "--out", "x", "--format", "xml"], ["--bogus"]]) {
      const bad = capturedIo(env);
      expect(await exportCommand(args, bad.io), args.join(" ")).toBe(2);
      expect(bad.err()).toMatch(/Usage: tidings export/);
    }
    const help = capturedIo(env);
    expect(await exportCommand(["--help"], help.io)).toBe(0);
    expect(help.out()).toMatch(/^Usage: tidings export/);
  });
});
