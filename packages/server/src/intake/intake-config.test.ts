import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../config.js";

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
      altchaJsMaxCounter: 2000,
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
      altchaJsMaxCounter: 300,
    });
  });

  it.each([
    ["TURNSTILE_VERIFY_URL", "not a url"],
    ["VERIFICATION_TIMEOUT_MS", "5s"],
    ["VERIFICATION_TIMEOUT_MS", "0"],
    ["ALTCHA_COST", "-1"],
    ["ALTCHA_MAX_COUNTER", "1"],
    ["ALTCHA_JS_MAX_COUNTER", "0"],
  ])("names %s when it is %j", (variable, value) => {
    expect(() => loadConfig({ [variable]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [variable]: value })).toThrow(variable);
  });
});
