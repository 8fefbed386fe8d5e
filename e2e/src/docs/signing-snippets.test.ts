import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { transform } from "esbuild";
import { userHash } from "@tidings/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRealServer, type RealServer } from "../client/real-server.js";
import { guideBlock, guideSample, withConstants } from "./guide-sample.js";

/** The interpreters the other snippets need are not on every machine; Python is checked when present. */
function hasPython(): boolean {
  try {
    execFileSync("python3", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    if (process.env.CI === "true") throw new Error("CI=true but python3 is missing: the Python signing snippet of docs/identifying-users.md is not checked");
    console.warn("[signing snippets] skipped: no python3");
    return false;
  }
}

const run = hasPython();
let server: RealServer;
let app: Awaited<ReturnType<RealServer["createApp"]>>;
const folder = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-signing-"));

beforeAll(async () => {
  if (!run) return;
  server = await startRealServer();
  app = await server.createApp("signing-guide");
}, 60_000);
afterAll(async () => {
  await server?.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

/**
 * Runs the guide's Python block with the test server's URL, app key and secret, then `driver`.
 * Asynchronously: the server answering the snippet runs in this process.
 */
async function python(driver: string, secret = app.signingSecret): Promise<string> {
  const snippet = guideBlock("docs/identifying-users.md", "python")
    .replace(/^TIDINGS_URL = ".*"$/m, `TIDINGS_URL = ${JSON.stringify(server.baseUrl)}`)
    .replace(/^APP_KEY = ".*"$/m, `APP_KEY = ${JSON.stringify(app.appKey)}`)
    .replace(/^SIGNING_SECRET = ".*"(.*)$/m, `SIGNING_SECRET = ${JSON.stringify(secret)}$1`);
  const file = path.join(folder, "driver.py");
  fs.writeFileSync(file, `${snippet}\n\n${driver}\n`);
  const { stdout } = await promisify(execFile)("python3", [file], { encoding: "utf8", timeout: 20_000 });
  return stdout.trim();
}

type EndUser = { isPaying: boolean | null; plan: string | null; mrr: number | null; currency: string };

describe.skipIf(!run)("the Python signing snippet of docs/identifying-users.md", () => {
  it("computes the X-User-Hash the server computes, for ASCII and non-ASCII tokens", async () => {
    const tokens = ["user-42", "a", "ÿ-not-ascii-but-utf8-🙂", "x".repeat(256)];
    const out = await python(`import json\nprint(json.dumps([user_hash(t) for t in ${JSON.stringify(tokens)}]))`);
    expect(JSON.parse(out)).toEqual(tokens.map((t) => userHash(app.signingSecret, t)));
  });

  it("signs every shape of value so that the real server accepts and stores it", async () => {
    const cases = [
      { token: "py-1", call: `is_paying=True, plan="pro", mrr_cents=4900, currency="EUR"`, want: { isPaying: true, plan: "pro", mrr: 49, currency: "EUR" } },
      { token: "py-2", call: `is_paying=True, plan="team", mrr_cents=1999`, want: { isPaying: true, plan: "team", mrr: 19.99 } },
      { token: "py-3", call: `mrr_cents=9950`, want: { mrr: 99.5 } },
      { token: "py-4", call: `mrr_cents=120000, plan="enterprise"`, want: { mrr: 1200, plan: "enterprise" } },
      { token: "py-5", call: `is_paying=False, plan=None, mrr_cents=0`, want: { isPaying: false, plan: null, mrr: 0 } },
      { token: "py-6", call: `is_paying=True, mrr_cents=None`, want: { isPaying: true, mrr: null } },
      { token: "py-7", call: `plan="Großkunde ✓", mrr_cents=1`, want: { plan: "Großkunde ✓", mrr: 0.01 } },
    ];
    const driver = ["import json", "answers = []", ...cases.map((c) => `answers.append(report_payment(${JSON.stringify(c.token)}, ${c.call}))`), "print(json.dumps(answers))"].join("\n");
    const answers = JSON.parse(await python(driver)) as { ok: boolean }[];
    expect(answers.map((a) => a.ok)).toEqual(cases.map(() => true));
    const { users } = (await server.consoleCall("GET", `/workspaces/${app.wsId}/apps/${app.appId}/end-users?limit=200`)) as unknown as { users: EndUser[] };
    expect(users).toHaveLength(cases.length);
    for (const c of cases) expect(users).toContainEqual(expect.objectContaining(c.want));
  });

  it("makes a request identified with its hash, and is refused with another secret's", async () => {
    const hashes = JSON.parse(await python(`import json\nprint(json.dumps([user_hash("py-user"), user_hash("py-user", "tsk_not_the_secret_of_this_app_0000000000")]))`)) as string[];
    const list = (hash: string) =>
      fetch(`${server.baseUrl}/api/v1/feature-requests?appKey=${app.appKey}`, { headers: { "x-user-token": "py-user", "x-user-hash": hash } });
    expect((await list(hashes[0]!)).status).toBe(200);
    const refused = await list(hashes[1]!);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: "invalid_user_hash" });
  });

  it("is refused with 401 invalid_signature, nothing stored, when signed with another secret", async () => {
    const wrong = JSON.stringify("tsk_not_the_secret_of_this_app_0000000000");
    const out = await python(
      [
        "import json, urllib.error",
        `_sign = sign_attributes\nsign_attributes = lambda *a, **k: _sign(*a, secret=${wrong}, **k)`,
        "try:",
        '    report_payment("py-wrong", is_paying=True, plan="pro")',
        "except urllib.error.HTTPError as error:",
        "    print(json.dumps({'status': error.code, 'code': json.load(error).get('code')}))",
      ].join("\n"),
    );
    expect(JSON.parse(out)).toEqual({ status: 401, code: "invalid_signature" });
    const { users } = (await server.consoleCall("GET", `/workspaces/${app.wsId}/apps/${app.appId}/end-users?limit=200`)) as unknown as { users: EndUser[] };
    expect(users.filter((u) => u.plan === "pro" && u.isPaying === true && u.mrr === null)).toEqual([]);
  });
});

describe("the Node signing snippet of docs/identifying-users.md", () => {
  type Snippet = {
    userHash(token: string): string;
    reportPayment(token: string, attributes: { isPaying?: boolean | null; plan?: string | null; mrrCents?: number | null; currency?: string }): Promise<void>;
  };
  let snippet: Snippet;
  let nodeServer: RealServer;
  let nodeApp: Awaited<ReturnType<RealServer["createApp"]>>;

  beforeAll(async () => {
    nodeServer = await startRealServer();
    nodeApp = await nodeServer.createApp("node-signing-guide");
    const code = withConstants(guideSample("docs/identifying-users.md", "node-signing"), { TIDINGS_URL: nodeServer.baseUrl, APP_KEY: nodeApp.appKey });
    const file = path.join(folder, "node-signing.mjs");
    fs.writeFileSync(file, (await transform(code, { loader: "ts", format: "esm" })).code);
    process.env.TIDINGS_SIGNING_SECRET = nodeApp.signingSecret;
    snippet = (await import(pathToFileURL(file).href)) as Snippet;
  }, 60_000);
  afterAll(async () => {
    delete process.env.TIDINGS_SIGNING_SECRET;
    await nodeServer?.close();
  });

  it("computes the server's hash and signs attributes the server accepts and stores", async () => {
    expect(snippet.userHash("node-user")).toBe(userHash(nodeApp.signingSecret, "node-user"));
    await snippet.reportPayment("node-1", { isPaying: true, plan: "pro", mrrCents: 9950, currency: "USD" });
    await snippet.reportPayment("node-2", { isPaying: false, plan: null, mrrCents: null });
    await snippet.reportPayment("node-3", { mrrCents: 120000 });
    const { users } = (await nodeServer.consoleCall("GET", `/workspaces/${nodeApp.wsId}/apps/${nodeApp.appId}/end-users?limit=200`)) as unknown as { users: EndUser[] };
    expect(users).toHaveLength(3);
    expect(users).toContainEqual(expect.objectContaining({ isPaying: true, plan: "pro", mrr: 99.5, currency: "USD" }));
    expect(users).toContainEqual(expect.objectContaining({ isPaying: false, plan: null, mrr: null }));
    expect(users).toContainEqual(expect.objectContaining({ mrr: 1200 }));
  });
});

describe("the Node company snippet of docs/identifying-users.md", () => {
  type Company = { id: string; name?: string; mrrCents?: number | null; currency?: string; plan?: string | null; attributes?: Record<string, string | number | boolean | null> };
  type Snippet = { reportCompany(token: string, company: Company | null): Promise<void> };
  let snippet: Snippet;
  let companyServer: RealServer;
  let companyApp: Awaited<ReturnType<RealServer["createApp"]>>;

  beforeAll(async () => {
    companyServer = await startRealServer();
    companyApp = await companyServer.createApp("node-company-guide");
    const code = withConstants(guideSample("docs/identifying-users.md", "node-company-signing"), { TIDINGS_URL: companyServer.baseUrl, APP_KEY: companyApp.appKey });
    const file = path.join(folder, "node-company-signing.mjs");
    fs.writeFileSync(file, (await transform(code, { loader: "ts", format: "esm" })).code);
    process.env.TIDINGS_SIGNING_SECRET = companyApp.signingSecret;
    snippet = (await import(pathToFileURL(file).href)) as Snippet;
  }, 60_000);
  afterAll(async () => {
    delete process.env.TIDINGS_SIGNING_SECRET;
    await companyServer?.close();
  });

  it("signs companies the server accepts, joins and leaves them", async () => {
    await snippet.reportCompany("node-1", { id: "acct_42", name: "Acme GmbH", mrrCents: 120050, currency: "EUR", plan: "business", attributes: { seats: 40, region: "eu", trial: false, note: "Großkunde ✓" } });
    await snippet.reportCompany("node-2", { id: "acct_42" });
    await snippet.reportCompany("node-3", { id: "acct_7", mrrCents: null, plan: null });
    await snippet.reportCompany("node-3", null);
    const { companies } = (await companyServer.consoleCall("GET", `/workspaces/${companyApp.wsId}/apps/${companyApp.appId}/companies`)) as unknown as {
      companies: Array<{ externalId: string; name: string | null; mrr: number | null; currency: string; plan: string | null; attributes: Record<string, unknown>; userCount: number }>;
    };
    expect(companies).toEqual([
      expect.objectContaining({ externalId: "acct_42", name: "Acme GmbH", mrr: 1200.5, currency: "EUR", plan: "business", attributes: { note: "Großkunde ✓", region: "eu", seats: 40, trial: false }, userCount: 2 }),
      expect.objectContaining({ externalId: "acct_7", mrr: null, plan: null, userCount: 0 }),
    ]);
  });
});

describe.skipIf(!run)("the Python company snippet of docs/identifying-users.md", () => {
  type Company = { externalId: string; name: string | null; mrr: number | null; currency: string; plan: string | null; attributes: Record<string, unknown>; userCount: number };
  let companyApp: Awaited<ReturnType<RealServer["createApp"]>>;

  /** Runs the guide's Python company block with this test server's constants, then `driver`. */
  async function pythonCompany(driver: string, secret = companyApp.signingSecret): Promise<string> {
    const snippet = guideSample("docs/identifying-users.md", "python-company-signing", "python")
      .replace(/^TIDINGS_URL = ".*"$/m, `TIDINGS_URL = ${JSON.stringify(server.baseUrl)}`)
      .replace(/^APP_KEY = ".*"$/m, `APP_KEY = ${JSON.stringify(companyApp.appKey)}`)
      .replace(/^SIGNING_SECRET = ".*"(.*)$/m, `SIGNING_SECRET = ${JSON.stringify(secret)}$1`);
    const file = path.join(folder, "company-driver.py");
    fs.writeFileSync(file, `${snippet}\n\n${driver}\n`);
    const { stdout } = await promisify(execFile)("python3", [file], { encoding: "utf8", timeout: 20_000 });
    return stdout.trim();
  }
  const companies = async () =>
    ((await server.consoleCall("GET", `/workspaces/${companyApp.wsId}/apps/${companyApp.appId}/companies`)) as unknown as { companies: Company[] }).companies;

  beforeAll(async () => {
    companyApp = await server.createApp("python-company-guide");
  }, 60_000);

  it("signs companies the server accepts: every field, floats JavaScript writes as integers, text outside ASCII, joining and leaving", async () => {
    const out = await pythonCompany(
      [
        "import json",
        "answers = []",
        `answers.append(report_company("py-1", {"id": "acct_42", "name": "Acme GmbH ✓", "mrr_cents": 120050, "currency": "EUR", "plan": "business", "attributes": {"seats": 40.0, "region": "eu", "trial": False, "note": "Großkunde \\"A\\"", "ratio": 0.25, "owner": None}}))`,
        `answers.append(report_company("py-2", {"id": "acct_42"}))`,
        `answers.append(report_company("py-3", {"id": "acct_7", "mrr_cents": None, "plan": None}))`,
        `answers.append(report_company("py-3", None))`,
        "print(json.dumps(answers))",
      ].join("\n"),
    );
    expect((JSON.parse(out) as unknown[]).length).toBe(4);
    expect(await companies()).toEqual([
      expect.objectContaining({
        externalId: "acct_42",
        name: "Acme GmbH ✓",
        mrr: 1200.5,
        currency: "EUR",
        plan: "business",
        attributes: { note: 'Großkunde "A"', owner: null, ratio: 0.25, region: "eu", seats: 40, trial: false },
        userCount: 2,
      }),
      expect.objectContaining({ externalId: "acct_7", mrr: null, plan: null, userCount: 0 }),
    ]);
  });

  it("is refused with 401 invalid_signature, no company written, when signed with another secret", async () => {
    const out = await pythonCompany(
      [
        "import json, urllib.error",
        "try:",
        '    report_company("py-wrong", {"id": "acct_forged", "mrr_cents": 100})',
        "except urllib.error.HTTPError as error:",
        "    print(json.dumps({'status': error.code, 'code': json.load(error).get('code')}))",
      ].join("\n"),
      "tsk_not_the_secret_of_this_app_0000000000",
    );
    expect(JSON.parse(out)).toEqual({ status: 401, code: "invalid_signature" });
    expect((await companies()).map((c) => c.externalId)).not.toContain("acct_forged");
  });
});
