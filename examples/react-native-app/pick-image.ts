import type { UploadRequest } from "@tidings/client";
import * as ImagePicker from "expo-image-picker";

/**
 * Lets the user choose a screenshot and hands it to the composer as an upload request (spec rule
 * 10); null when they cancel. The SDK sends `{uri, name, type}` the way React Native's FormData
 * expects.
 */
export async function pickImage(): Promise<UploadRequest | null> {
  const result = await ImagePicker.launchImageLibraryAsync({ mediaTypes: ["images"], quality: 0.8 });
  const asset = result.canceled ? undefined : result.assets[0];
  if (asset === undefined) return null;
  const mimeType = asset.mimeType ?? "image/jpeg";
  const filename = asset.fileName ?? `screenshot.${mimeType.split("/")[1] ?? "jpg"}`;
  return { file: { uri: asset.uri, name: filename, type: mimeType }, filename, mimeType };
}
