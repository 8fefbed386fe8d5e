/**
 * The interpreter half of the altcha bench, run by altcha-solve.ts as `node --jitless`: V8 without
 * its JIT compilers stands in for React Native's Hermes, which interprets. Reads a JSON array of
 * challenges on stdin, solves each with the SDK as on a runtime without Web Crypto, and writes
 * one JSON array of `{ms, cpuMs, solution}` on stdout. Process start-up is not timed.
 */
import { solveAltchaChallenge, type AltchaChallenge, type AltchaSolution } from "@tidings/client";

/** What the parent reads back for one challenge. */
export interface ChildSolve {
  ms: number;
  cpuMs: number;
  solution: AltchaSolution;
}

// As on Hermes: `getRandomValues` (from a polyfill) but no `crypto.subtle`, so the SDK takes its plain-JavaScript path.
const crypto = globalThis.crypto;
Object.defineProperty(globalThis, "crypto", { value: { getRandomValues: crypto.getRandomValues.bind(crypto) }, configurable: true, writable: true });

let input = "";
for await (const chunk of process.stdin) input += String(chunk);
const challenges = JSON.parse(input) as AltchaChallenge[];
const results: ChildSolve[] = [];
for (const challenge of challenges) {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const solution = await solveAltchaChallenge(challenge);
  const used = process.cpuUsage(cpu);
  results.push({ ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, solution });
}
process.stdout.write(JSON.stringify(results));
