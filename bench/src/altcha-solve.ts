/**
 * Solve time of the built-in altcha at the server's default difficulty, with a JIT and without.
 * A real server (port 0, production, default `ALTCHA_*`) hands out challenges of both kinds: the
 * default one and the `?solver=js` one the SDK asks for where there is no Web Crypto. In this
 * process (V8 with its JIT) each challenge is solved by the SDK with Web Crypto and with
 * `globalThis.crypto` reduced to `getRandomValues`, so the plain-JavaScript PBKDF2 runs. The
 * `?solver=js` challenges are solved once more in a child `node --jitless` (altcha-solve-child.ts),
 * the stand-in for React Native's Hermes, which interprets. The last interpreted token is submitted
 * to prove the server takes it. Fails (exit 1) when the interpreted median of the `?solver=js`
 * challenge, what a React Native app waits, exceeds 3 s. The default challenge is not solved
 * interpreted (minutes each); its time is estimated from the interpreted cost per PBKDF2
 * iteration. CPU time is printed next to wall time: well below it, other processes had the cores.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { encodeAltchaToken, FeedbackClient, solveAltchaChallenge, type AltchaChallenge, type AltchaSolution } from "@tidings/client";
import { buildApp, DEFAULT_RATE_LIMITS, loadConfig } from "@tidings/server";
import type { ChildSolve } from "./altcha-solve-child.js";

const HOST = "127.0.0.1";
const RUNS = Number(process.env.BENCH_ALTCHA_RUNS ?? 7);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`BENCH_ALTCHA_RUNS must be a positive integer, got "${process.env.BENCH_ALTCHA_RUNS}"`);
const TARGET_MS = 3000;
const CHILD = fileURLToPath(new URL("./altcha-solve-child.js", import.meta.url));

/** Runs `solve` as on a runtime without Web Crypto, then puts the real `crypto` back. */
async function withoutWebCrypto<T>(solve: () => Promise<T>): Promise<T> {
  const real = Object.getOwnPropertyDescriptor(globalThis, "crypto")!;
  const crypto = globalThis.crypto;
  Object.defineProperty(globalThis, "crypto", { value: { getRandomValues: crypto.getRandomValues.bind(crypto) }, configurable: true, writable: true });
  try {
    return await solve();
  } finally {
    Object.defineProperty(globalThis, "crypto", real);
  }
}

async function timed(solve: () => Promise<AltchaSolution>): Promise<ChildSolve> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const solution = await solve();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, solution };
}

/** Solves `challenges` in a child `node --jitless`, one after another. */
function solveInterpreted(challenges: AltchaChallenge[]): Promise<ChildSolve[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--jitless", CHILD], { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => (out += String(chunk)));
    // V8 warns that --jitless turns WebAssembly off; anything else is kept for the error.
    child.stderr.on("data", (chunk) => (err += String(chunk)));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(JSON.parse(out) as ChildSolve[]) : reject(new Error(`node --jitless exited ${code}: ${err}`))));
    child.stdin.end(JSON.stringify(challenges));
  });
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.ceil(p * values.length) - 1]!;
const pair = (values: number[]) => `${percentile(values, 0.5).toFixed(0).padStart(6)} / ${percentile(values, 0.9).toFixed(0).padStart(6)}`;
/** PBKDF2 iterations the solver ran to reach `solution` (it tries counters from 0). */
const iterations = (challenge: AltchaChallenge, solution: AltchaSolution) => (solution.counter + 1) * challenge.parameters.cost;

const dataDir = await mkdtemp(path.join(tmpdir(), "tidings-bench-altcha-"));
const unlimited = Object.fromEntries(Object.keys(DEFAULT_RATE_LIMITS).map((bucket) => [`TIDINGS_RATE_LIMIT_${bucket.toUpperCase()}`, "1000000000/60"]));
// Production: the demo app, left without a provider, requires the built-in altcha.
const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", NODE_ENV: "production", ...unlimited }), port: 0, host: HOST };
const tidings = await buildApp(config, { logger: false });

try {
  const baseUrl = await tidings.listen({ port: 0, host: HOST });
  const client = new FeedbackClient({ baseUrl, appKey: "app_demo", warn: () => undefined });
  console.log(`built-in altcha, ${RUNS} challenges of each kind from a real server, PBKDF2/SHA-256; solve time in ms (median / p90)`);
  console.log(
    `${"challenge".padEnd(30)} ${"counters".padStart(9)} ${"Web Crypto, JIT".padStart(15)} ${"plain JS, JIT".padStart(15)} ${"plain JS, --jitless".padStart(19)} ${"--jitless CPU".padStart(13)}`,
  );
  const kinds = [
    { label: "default", solver: undefined },
    { label: "?solver=js", solver: "js" },
  ] as const;
  const rows: { label: string; challenges: AltchaChallenge[]; web: ChildSolve[]; plain: ChildSolve[]; interpreted: ChildSolve[] | undefined }[] = [];
  for (const { label, solver } of kinds) {
    const challenges: AltchaChallenge[] = [];
    const web: ChildSolve[] = [];
    const plain: ChildSolve[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const challenge = await client.getVerificationChallenge({ solver });
      const a = await timed(() => solveAltchaChallenge(challenge));
      const b = await withoutWebCrypto(() => timed(() => solveAltchaChallenge(challenge)));
      if (a.solution.counter !== b.solution.counter || a.solution.derivedKey !== b.solution.derivedKey) throw new Error(`the solvers disagree: ${JSON.stringify([a.solution, b.solution])}`);
      challenges.push(challenge);
      web.push(a);
      plain.push(b);
    }
    const interpreted = solver === "js" ? await solveInterpreted(challenges) : undefined;
    interpreted?.forEach((c, i) => {
      if (c.solution.derivedKey !== web[i]!.solution.derivedKey) throw new Error(`the interpreted solver disagrees: ${JSON.stringify([c.solution, web[i]!.solution])}`);
    });
    rows.push({ label: `${label} (cost ${challenges[0]!.parameters.cost})`, challenges, web, plain, interpreted });
  }

  // Interpreted CPU cost per PBKDF2 iteration, from the ?solver=js runs: what the default challenge would take.
  const js = rows[1]!;
  const usPerIteration = percentile(js.interpreted!.map((c, i) => (c.cpuMs * 1000) / iterations(js.challenges[i]!, c.solution)), 0.5);
  for (const row of rows) {
    const counters = row.web.map((r) => r.solution.counter);
    const ms = (list: ChildSolve[]) => list.map((r) => r.ms);
    const estimate = percentile(row.web.map((r, i) => (iterations(row.challenges[i]!, r.solution) * usPerIteration) / 1000), 0.5);
    const interpreted = row.interpreted === undefined ? `~${(estimate / 1000).toFixed(0)} s (est.)` : pair(ms(row.interpreted));
    const cpu = row.interpreted === undefined ? "" : percentile(row.interpreted.map((r) => r.cpuMs), 0.5).toFixed(0);
    console.log(
      `${row.label.padEnd(30)} ${`${Math.min(...counters)}–${Math.max(...counters)}`.padStart(9)} ${pair(ms(row.web)).padStart(15)} ${pair(ms(row.plain)).padStart(15)} ${interpreted.padStart(19)} ${cpu.padStart(13)}`,
    );
  }
  console.log(`--jitless: ${usPerIteration.toFixed(1)} µs of CPU per PBKDF2-HMAC-SHA-256 iteration (median of the ?solver=js solves)`);

  const last = js.interpreted!.length - 1;
  const accepted = await client.submitFeedback({ title: "Bench", details: "Solved in an interpreter.", platform: "ios", verificationToken: encodeAltchaToken(js.challenges[last]!, js.interpreted![last]!.solution) });
  console.log(`server accepted an interpreted solution: ${typeof accepted.submissionId === "string" ? "yes" : "no"}`);
  const gate = percentile(js.interpreted!.map((r) => r.ms), 0.5);
  const pass = gate <= TARGET_MS;
  console.log(`target: --jitless median of the ?solver=js challenge <= ${TARGET_MS} ms: ${gate.toFixed(0)} ms, ${pass ? "PASS" : "ABOVE"}`);
  if (!pass) process.exitCode = 1;
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await tidings.close();
  await rm(dataDir, { recursive: true, force: true });
}
