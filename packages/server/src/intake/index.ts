export { checkIntake, type IntakeAction, type IntakePass } from "./intake.js";
export { usageMonth } from "./quota.js";
