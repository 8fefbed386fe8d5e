// Test fixtures shared by the web and React Native renderers' suites; not part of the public API.
export { column, demoConfig, fakeFetch, item, type FakeRequest, type FakeRoute } from "./fake-fetch.js";
