import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../config.js";

describe("mail configuration", () => {
  it("defaults to the outbox and a localhost sender", () => {
    const config = loadConfig({});
    expect(config.smtpUrl).toBeNull();
    expect(config.mailFrom).toBe("Tidings <no-reply@localhost>");
  });

  it("accepts smtp:// and smtps:// URLs and Name <address> senders", () => {
    expect(loadConfig({ SMTP_URL: "smtps://user:pw@mail.example:465" }).smtpUrl).toBe("smtps://user:pw@mail.example:465");
    expect(loadConfig({ MAIL_FROM: "Acme <news@acme.example>" }).mailFrom).toBe("Acme <news@acme.example>");
    expect(loadConfig({ MAIL_FROM: "news@acme.example" }).mailFrom).toBe("news@acme.example");
  });

  it("names the variable of a bad value without echoing a password", () => {
    expect(() => loadConfig({ SMTP_URL: "http://user:secret@mail.example" })).toThrow(ConfigError);
    try {
      loadConfig({ SMTP_URL: "http://user:secret@mail.example" });
    } catch (error) {
      expect((error as ConfigError).variable).toBe("SMTP_URL");
      expect((error as Error).message).not.toContain("secret");
    }
    expect(() => loadConfig({ MAIL_FROM: "no at sign" })).toThrow(/MAIL_FROM/);
    expect(() => loadConfig({ MAIL_FROM: "a@b.c\r\nBcc: x@y.z" })).toThrow(/MAIL_FROM/);
  });
});
