import { describe, expect, it } from "vitest";
import { isScheduleReference, methodReturnPath } from "./schedule-paths";

describe("schedule paths", () => {
  it("knows a reference", () => {
    expect(isScheduleReference("PS-AB12CD34")).toBe(true);
    for (const bad of ["PR-AB12CD34", "ps-ab12cd34", "PS-AB", "PS-AB12CD34/x", "", null, 7]) {
      expect(isScheduleReference(bad), String(bad)).toBe(false);
    }
  });

  it("lets add-a-card and set-up-PayTo return only to a schedule's signed-in pages", () => {
    expect(methodReturnPath("/payment-schedule/acceptance/PS-AB12CD34")).toBe(
      "/payment-schedule/acceptance/PS-AB12CD34",
    );
    expect(methodReturnPath("/customer/payment-schedule/PS-AB12CD34")).toBe("/customer/payment-schedule/PS-AB12CD34");
    for (const bad of [
      "https://evil.example/payment-schedule/acceptance/PS-AB12CD34",
      "//evil.example",
      "/payment-schedule/acceptance/PS-AB12CD34?x=1",
      "/payment-schedule/acceptance/" + "A".repeat(59),
      "/customer/payment-schedule/PS-AB12CD34/../../auth/signout",
      "/",
      "",
      undefined,
    ]) {
      expect(methodReturnPath(bad), String(bad)).toBeNull();
    }
  });
});
