// One place for what every suite needs: a cold first run on a fresh machine is slow to transform,
// so waiting queries get more than the library's default second.
import { configure } from "@testing-library/react-native";

configure({ asyncUtilTimeout: 15_000 });
