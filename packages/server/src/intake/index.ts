export { checkIntake, type IntakeAction, type IntakePass } from "./intake.js";
export { requiredProvider } from "./verification.js";
export { usageMonth } from "./quota.js";
