// The polyfill comes first, before anything imports @tidings/client: Hermes has no
// crypto.getRandomValues, which the anonymous user token needs.
import "react-native-get-random-values";
import { AppRegistry } from "react-native";
import App from "./App";
import { name } from "./app.json";

AppRegistry.registerComponent(name, () => App);
