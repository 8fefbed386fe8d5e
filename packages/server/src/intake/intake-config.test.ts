import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../config.js";
import { altchaDifficulty } from "./altcha.js";

describe("intake settings in loadConfig", () => {
  it("defaults to the vendors' siteverify URLs, a 5 s timeout and no production enforcement", () => {
    expect(loadConfig({})).toMatchObject({
      production: false,
      turnstileVerifyUrl: "https://challenges.cloudflare.com/turnstile/v0/siteverify",
      hcaptchaVerifyUrl: "https://api.hcaptcha.com/siteverify",
      recaptchaVerifyUrl: "https://www.google.com/recaptcha/api/siteverify",
      verificationTimeoutMs: 5000,
      altchaCost: 2000,
      altchaMaxCounter: 5000,
      altchaJsCost: 100,
      altchaJsMaxCounter: 100,
    });
    expect(loadConfig({ NODE_ENV: "development" }).production).toBe(false);
  });

  it("reads NODE_ENV, the verify URLs and the altcha difficulty", () => {
    expect(
      loadConfig({
        NODE_ENV: "production",
        TURNSTILE_VERIFY_URL: "http://127.0.0.1:9000/turnstile",
        HCAPTCHA_VERIFY_URL: "http://127.0.0.1:9000/hcaptcha",
        RECAPTCHA_VERIFY_URL: "http://127.0.0.1:9000/recaptcha",
        VERIFICATION_TIMEOUT_MS: "2500",
        ALTCHA_COST: "500",
        ALTCHA_MAX_COUNTER: "800",
        ALTCHA_JS_COST: "40",
        ALTCHA_JS_MAX_COUNTER: "300",
      }),
    ).toMatchObject({
      production: true,
      turnstileVerifyUrl: "http://127.0.0.1:9000/turnstile",
      hcaptchaVerifyUrl: "http://127.0.0.1:9000/hcaptcha",
      recaptchaVerifyUrl: "http://127.0.0.1:9000/recaptcha",
      verificationTimeoutMs: 2500,
      altchaCost: 500,
      altchaMaxCounter: 800,
      altchaJsCost: 40,
      altchaJsMaxCounter: 300,
    });
  });

  it("sizes the ?solver=js challenge by its own settings, never above the default challenge's", () => {
    expect(altchaDifficulty(loadConfig({}))).toEqual({ cost: 2000, maxCounter: 5000 });
    expect(altchaDifficulty(loadConfig({}), "js")).toEqual({ cost: 100, maxCounter: 100 });
    const inverted = loadConfig({ ALTCHA_COST: "50", ALTCHA_MAX_COUNTER: "80", ALTCHA_JS_COST: "500", ALTCHA_JS_MAX_COUNTER: "900" });
    expect(altchaDifficulty(inverted, "js")).toEqual({ cost: 50, maxCounter: 80 });
  });

  it.each([
    ["TURNSTILE_VERIFY_URL", "not a url"],
    ["VERIFICATION_TIMEOUT_MS", "5s"],
    ["VERIFICATION_TIMEOUT_MS", "0"],
    ["ALTCHA_COST", "-1"],
    ["ALTCHA_MAX_COUNTER", "1"],
    ["ALTCHA_JS_COST", "0"],
    ["ALTCHA_JS_MAX_COUNTER", "0"],
  ])("names %s when it is %j", (variable, value) => {
    expect(() => loadConfig({ [variable]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [variable]: value })).toThrow(variable);
  });
});
