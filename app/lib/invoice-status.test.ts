import { describe, expect, it } from "vitest";
import { daysBetween, invoiceRowStatus } from "./invoice-status";

/** The invoices list's one status per row (issue 31, decision 072). */
const TODAY = "2026-12-13";
const day = (iso: string) => `day ${iso}`;
const row = (status: number, dueDate: string, extra: Record<string, unknown> = {}) =>
  invoiceRowStatus({ status, balanceCents: 10_000, dueDate, ...extra }, TODAY, day);

describe("invoiceRowStatus", () => {
  it("never shows Open beside a passed due date: the due date decides between Open and Overdue", () => {
    expect(row(1, "2026-12-10")).toEqual({
      key: "inv.row.overdue.other",
      params: { days: "3" },
      payable: true,
      overdue: true,
    });
    expect(row(1, "2026-12-12")).toMatchObject({ key: "inv.row.overdue.one", overdue: true });
    expect(row(1, "2026-12-13")).toMatchObject({ key: "inv.row.dueToday", overdue: false });
    expect(row(1, "2026-12-20")).toMatchObject({ key: "inv.status.1", overdue: false });
    // Stored "Overdue" whose due date has not come: Open, as its due date says.
    expect(row(3, "2026-12-20")).toMatchObject({ key: "inv.status.1", payable: true });
    expect(row(3, "2026-11-13")).toMatchObject({ key: "inv.row.overdue.other", params: { days: "30" } });
  });

  it("says why on-hold and disputed invoices cannot be paid online, with the dispute's reason", () => {
    expect(row(5, "2026-12-01")).toEqual({ key: "inv.row.onHold", payable: false, overdue: true });
    expect(row(6, "2026-12-30")).toEqual({ key: "inv.row.disputed", payable: false, overdue: false });
    expect(row(6, "2026-12-30", { disputeReason: "  Goods arrived damaged " })).toMatchObject({
      key: "inv.row.disputedBecause",
      params: { reason: "Goods arrived damaged" },
      payable: false,
    });
  });

  it("a promise shows its date; a broken promise as stored; both payable", () => {
    expect(row(7, "2026-11-01", { promiseDate: "2026-12-20" })).toEqual({
      key: "inv.row.promised",
      params: { date: "day 2026-12-20" },
      payable: true,
      overdue: true,
    });
    expect(row(8, "2026-11-01")).toMatchObject({ key: "inv.status.8", payable: true });
  });

  it("nothing owing: the stored status, no checkbox, never overdue", () => {
    expect(invoiceRowStatus({ status: 2, balanceCents: 0, dueDate: "2026-01-01" }, TODAY, day)).toEqual({
      key: "inv.status.2",
      payable: false,
      overdue: false,
    });
    expect(invoiceRowStatus({ status: 1, balanceCents: 0, dueDate: "2026-01-01" }, TODAY, day)).toMatchObject({
      key: "inv.status.1",
      payable: false,
    });
  });

  it("offers a checkbox for Open, Overdue, Promise and Broken Promise only (the payment service's PAYABLE_STATUSES)", () => {
    const offered = [1, 2, 3, 4, 5, 6, 7, 8, 9].filter((status) => row(status, "2026-12-20").payable);
    expect(offered).toEqual([1, 3, 7, 8]);
  });

  it("counts calendar days across a daylight-saving change", () => {
    expect(daysBetween("2026-04-01", "2026-04-10")).toBe(9);
    expect(daysBetween("2026-10-01", "2026-10-10")).toBe(9);
    expect(daysBetween("2026-12-13", "2026-12-13")).toBe(0);
  });
});
