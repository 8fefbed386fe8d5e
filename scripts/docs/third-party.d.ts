// The few third-party modules the React Native guides use, reduced to what they call, so those
// blocks type-check without installing the libraries. The shapes follow each library's own types.

declare module "@react-native-async-storage/async-storage" {
  const AsyncStorage: {
    getItem(key: string): Promise<string | null>;
    setItem(key: string, value: string): Promise<void>;
    removeItem(key: string): Promise<void>;
  };
  export default AsyncStorage;
}

declare module "@react-native-community/netinfo" {
  const NetInfo: { addEventListener(listener: (state: { isConnected: boolean | null }) => void): () => void };
  export default NetInfo;
}

declare module "expo-secure-store" {
  export function getItemAsync(key: string): Promise<string | null>;
  export function setItemAsync(key: string, value: string): Promise<void>;
  export function deleteItemAsync(key: string): Promise<void>;
}

declare module "react-native-mmkv" {
  export function createMMKV(options?: { id?: string }): {
    getString(key: string): string | undefined;
    set(key: string, value: string): void;
    remove(key: string): boolean;
  };
}

declare module "expo-image-picker" {
  export interface ImagePickerAsset {
    uri: string;
    fileName?: string | null;
    mimeType?: string;
  }
  export type ImagePickerResult = { canceled: true; assets: null } | { canceled: false; assets: ImagePickerAsset[] };
  export function launchImageLibraryAsync(options?: { mediaTypes?: string[]; quality?: number; allowsMultipleSelection?: boolean }): Promise<ImagePickerResult>;
}

declare module "react-native-image-picker" {
  export interface Asset {
    uri?: string;
    fileName?: string;
    type?: string;
  }
  export function launchImageLibrary(options: { mediaType: "photo" | "video" | "mixed"; selectionLimit?: number }): Promise<{
    didCancel?: boolean;
    errorCode?: string;
    errorMessage?: string;
    assets?: Asset[];
  }>;
}

declare module "react-native-view-shot" {
  export interface CaptureOptions {
    format?: "jpg" | "png" | "webm" | "raw";
    quality?: number;
    result?: "tmpfile" | "base64" | "data-uri" | "zip-base64";
    fileName?: string;
  }
  export function captureScreen(options?: CaptureOptions): Promise<string>;
}

declare module "react-native-get-random-values";
