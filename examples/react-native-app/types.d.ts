// Just the parts of the optional native libraries this example calls, so that it type-checks in
// the Tidings repository without installing them. In your app, install the libraries and delete
// this file: their own types replace it.

declare module "@react-native-async-storage/async-storage" {
  const AsyncStorage: {
    getItem(key: string): Promise<string | null>;
    setItem(key: string, value: string): Promise<void>;
    removeItem(key: string): Promise<void>;
  };
  export default AsyncStorage;
}

declare module "expo-image-picker" {
  export interface ImagePickerAsset {
    uri: string;
    fileName?: string | null;
    mimeType?: string;
    fileSize?: number;
    width: number;
    height: number;
  }
  export type ImagePickerResult = { canceled: true; assets: null } | { canceled: false; assets: ImagePickerAsset[] };
  export function launchImageLibraryAsync(options?: {
    mediaTypes?: ("images" | "videos" | "livePhotos")[];
    quality?: number;
    allowsMultipleSelection?: boolean;
  }): Promise<ImagePickerResult>;
}

declare module "react-native-get-random-values";
