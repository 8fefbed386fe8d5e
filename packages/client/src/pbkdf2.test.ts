import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pbkdf2Sha256 } from "./pbkdf2.js";

const text = (s: string) => new TextEncoder().encode(s);
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** The platform's PBKDF2 (Web Crypto, OpenSSL in Node) as the reference. */
async function reference(password: Uint8Array<ArrayBuffer>, salt: Uint8Array<ArrayBuffer>, iterations: number, keyLength: number): Promise<string> {
  const key = await crypto.subtle.importKey("raw", password, "PBKDF2", false, ["deriveBits"]);
  return hex(new Uint8Array(await crypto.subtle.deriveBits({ name: "PBKDF2", salt, iterations, hash: "SHA-256" }, key, keyLength * 8)));
}

describe("pbkdf2Sha256", () => {
  // RFC 7914 §11, and the PBKDF2-HMAC-SHA-256 counterparts of RFC 6070's cases.
  it.each([
    ["passwd", "salt", 1, 64, "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783"],
    ["Password", "NaCl", 80000, 64, "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d"],
    ["password", "salt", 1, 32, "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b"],
    ["password", "salt", 2, 32, "ae4d0c95af6b46d32d0adff928f06dd02a303f8ef3c251dfd6e2d85a95474c43"],
    ["password", "salt", 4096, 32, "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a"],
    ["passwordPASSWORDpassword", "saltSALTsaltSALTsaltSALTsaltSALTsalt", 4096, 40, "348c89dbcbd32b2f32d814b8116e84cf2b17347ebc1800181c4e2a1fb8dd53e1c635518c7dac47e9"],
    ["pass\0word", "sa\0lt", 4096, 16, "89b69d0516f829893c696226650a8687"],
  ])("derives the published key for %j / %j, %i iterations, %i bytes", (password, salt, iterations, keyLength, expected) => {
    expect(hex(pbkdf2Sha256(text(password), text(salt), iterations, keyLength))).toBe(expected);
  });

  it("agrees with Web Crypto on random passwords, salts, iteration counts and key lengths", async () => {
    // Lengths reach past one 64-byte block (hashed HMAC keys, multi-block salts) and past one 32-byte output block.
    const bytes = fc.uint8Array({ maxLength: 150 }).map((b) => new Uint8Array(b));
    await fc.assert(
      fc.asyncProperty(bytes, bytes, fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 100 }), async (password, salt, iterations, keyLength) => {
        expect(hex(pbkdf2Sha256(password, salt, iterations, keyLength))).toBe(await reference(password, salt, iterations, keyLength));
      }),
      { numRuns: 300 },
    );
  });
});
