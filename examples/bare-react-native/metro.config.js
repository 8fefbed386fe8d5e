const { getDefaultConfig, mergeConfig } = require("@react-native/metro-config");

/** React Native's default Metro config, unchanged: Tidings needs nothing of its own. */
module.exports = mergeConfig(getDefaultConfig(__dirname), {});
