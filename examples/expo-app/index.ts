// The polyfill comes first, before anything imports @tidings/client: Hermes has no
// crypto.getRandomValues, which the anonymous user token needs.
import "react-native-get-random-values";
import { registerRootComponent } from "expo";
import App from "./App";

// registerRootComponent calls AppRegistry.registerComponent("main", () => App) and sets up the
// app for Expo Go and release builds alike.
registerRootComponent(App);
