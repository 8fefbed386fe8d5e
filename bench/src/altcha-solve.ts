/**
 * Solve time of the built-in altcha at the server's default difficulty. A real server (port 0,
 * production, default `ALTCHA_*`) hands out challenges of both kinds: the default one and the
 * `?solver=js` one the SDK asks for where there is no Web Crypto. Each challenge is solved by the
 * SDK twice, with Web Crypto and with `globalThis.crypto` reduced to `getRandomValues` as on
 * React Native's Hermes, so the plain-JavaScript PBKDF2 runs. The last plain-JavaScript token is
 * submitted to prove the server takes it. Fails (exit 1) when the plain-JavaScript median of the
 * `?solver=js` challenge, what a React Native app waits, exceeds 3 s. The plain-JavaScript solver
 * runs on this thread alone, so its CPU time is printed too: well below the wall time, it says
 * other processes had the cores.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { encodeAltchaToken, FeedbackClient, solveAltchaChallenge, type AltchaChallenge, type AltchaSolution } from "@tidings/client";
import { buildApp, DEFAULT_RATE_LIMITS, loadConfig } from "@tidings/server";

const HOST = "127.0.0.1";
const RUNS = Number(process.env.BENCH_ALTCHA_RUNS ?? 7);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`BENCH_ALTCHA_RUNS must be a positive integer, got "${process.env.BENCH_ALTCHA_RUNS}"`);
const TARGET_MS = 3000;

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

async function timed(solve: () => Promise<AltchaSolution>): Promise<{ ms: number; cpuMs: number; solution: AltchaSolution }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const solution = await solve();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, solution };
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.ceil(p * values.length) - 1]!;

const dataDir = await mkdtemp(path.join(tmpdir(), "tidings-bench-altcha-"));
const unlimited = Object.fromEntries(Object.keys(DEFAULT_RATE_LIMITS).map((bucket) => [`TIDINGS_RATE_LIMIT_${bucket.toUpperCase()}`, "1000000000/60"]));
// Production: the demo app, left without a provider, requires the built-in altcha.
const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", NODE_ENV: "production", ...unlimited }), port: 0, host: HOST };
const tidings = await buildApp(config, { logger: false });

try {
  const baseUrl = await tidings.listen({ port: 0, host: HOST });
  const client = new FeedbackClient({ baseUrl, appKey: "app_demo", warn: () => undefined });
  console.log(`built-in altcha, ${RUNS} challenges of each kind from a real server, PBKDF2/SHA-256 cost ${config.altchaCost}; solve time in ms`);
  console.log(`${"challenge".padEnd(34)} ${"counters".padStart(11)} ${"Web Crypto median / p90".padStart(24)} ${"plain JS median / p90".padStart(22)} ${"plain JS CPU median".padStart(19)}`);
  let gate = Number.NaN;
  let lastPlain: { challenge: AltchaChallenge; solution: AltchaSolution } | undefined;
  for (const [label, solver, max] of [
    [`default (max counter ${config.altchaMaxCounter})`, undefined, config.altchaMaxCounter],
    [`?solver=js (max counter ${Math.min(config.altchaJsMaxCounter, config.altchaMaxCounter)})`, "js", config.altchaJsMaxCounter],
  ] as const) {
    const web: number[] = [];
    const plain: number[] = [];
    const plainCpu: number[] = [];
    const counters: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const challenge = await client.getVerificationChallenge({ solver });
      const a = await timed(() => solveAltchaChallenge(challenge));
      const b = await withoutWebCrypto(() => timed(() => solveAltchaChallenge(challenge)));
      if (a.solution.counter !== b.solution.counter || a.solution.derivedKey !== b.solution.derivedKey) throw new Error(`the solvers disagree: ${JSON.stringify([a.solution, b.solution])}`);
      if (a.solution.counter > max) throw new Error(`counter ${a.solution.counter} above the max ${max}`);
      web.push(a.ms);
      plain.push(b.ms);
      plainCpu.push(b.cpuMs);
      counters.push(a.solution.counter);
      lastPlain = { challenge, solution: b.solution };
    }
    const pair = (values: number[]) => `${percentile(values, 0.5).toFixed(0).padStart(6)} / ${percentile(values, 0.9).toFixed(0).padStart(6)}`;
    console.log(`${label.padEnd(34)} ${`${Math.min(...counters)}–${Math.max(...counters)}`.padStart(11)} ${pair(web).padStart(24)} ${pair(plain).padStart(22)} ${percentile(plainCpu, 0.5).toFixed(0).padStart(19)}`);
    if (solver === "js") gate = percentile(plain, 0.5);
  }
  const accepted = await client.submitFeedback({ title: "Bench", details: "Solved in plain JavaScript.", platform: "ios", verificationToken: encodeAltchaToken(lastPlain!.challenge, lastPlain!.solution) });
  console.log(`server accepted a plain-JavaScript solution: ${typeof accepted.submissionId === "string" ? "yes" : "no"}`);
  const pass = gate <= TARGET_MS;
  console.log(`target: plain-JavaScript median of the ?solver=js challenge <= ${TARGET_MS} ms (Web Crypto off): ${gate.toFixed(0)} ms, ${pass ? "PASS" : "ABOVE"}`);
  if (!pass) process.exitCode = 1;
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await tidings.close();
  await rm(dataDir, { recursive: true, force: true });
}
