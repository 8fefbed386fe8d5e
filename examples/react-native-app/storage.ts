import AsyncStorage from "@react-native-async-storage/async-storage";
import type { StorageAdapter } from "@tidings/client";

/**
 * Where the SDK keeps the user token and the releases the overlay has shown, across restarts.
 * AsyncStorage already has the adapter's methods; see the package README for expo-secure-store
 * and MMKV.
 */
export const storage: StorageAdapter = AsyncStorage;
