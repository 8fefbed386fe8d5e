import { FeedbackClient, memoryStorage } from "@tidings/client";
import { palettes } from "@tidings/react-core";
import { demoConfig, fakeFetch } from "@tidings/react-core/testing";
import { describe, expect, test } from "@jest/globals";
import { render, screen } from "@testing-library/react-native";
import { StyleSheet, View } from "react-native";
import { TidingsProvider } from "../TidingsProvider.js";
import { Badge } from "./Badge.js";

function client() {
  const api = fakeFetch([({ url }) => (url.pathname === "/api/v1/public/config/app_test" ? { status: 200, body: demoConfig() } : undefined)]);
  return new FeedbackClient({ baseUrl: "http://api.test", appKey: "app_test", fetch: api.fetch, storage: memoryStorage(), warn: () => undefined });
}

describe("Badge", () => {
  test("shows its label in the theme's chip colours, and the pending tone in the warning colours", async () => {
    render(
      <TidingsProvider client={client()} theme="dark" locale="en">
        <View>
          <Badge label="v1.2" />
          <Badge label="Pending review" tone="pending" />
        </View>
      </TidingsProvider>,
    );
    const version = await screen.findByText("v1.2");
    const pending = screen.getByText("Pending review");
    expect(StyleSheet.flatten(version.props.style).color).toBe(palettes.dark.chipText);
    expect(StyleSheet.flatten(pending.props.style).color).toBe(palettes.dark.danger);
    expect(version.props.allowFontScaling).not.toBe(false);
  });
});
