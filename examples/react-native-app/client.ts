import { FeedbackClient } from "@tidings/client";
import { runtimePlatform } from "@tidings/react-native";
import { Platform } from "react-native";
import { storage } from "./storage";

/** `npm start` in the Tidings repository serves the demo app here; the Android emulator reaches the host at 10.0.2.2. */
const baseUrl = Platform.OS === "android" ? "http://10.0.2.2:8787" : "http://localhost:8787";

/** One client for the whole app, created once. */
export const client = new FeedbackClient({ baseUrl, appKey: "app_demo", storage, defaultPlatform: runtimePlatform() });
