import { describe, expect, it } from "vitest";
import { parseStatementPeriod } from "./statement-query";

const TODAY = "2026-12-06";
const period = (query: string) => parseStatementPeriod(new URLSearchParams(query), TODAY);

describe("a statement PDF's period", () => {
  it("defaults to the 12 months up to today, or up to the `to` asked for", () => {
    expect(period("")).toEqual({ ok: true, from: "2025-12-07", to: "2026-12-06" });
    expect(period("to=2026-03-31")).toEqual({ ok: true, from: "2025-04-01", to: "2026-03-31" });
    expect(period("from=2026-11-01")).toEqual({ ok: true, from: "2026-11-01", to: TODAY });
    expect(period("from=2026-11-01&to=2026-11-30")).toEqual({ ok: true, from: "2026-11-01", to: "2026-11-30" });
  });

  it("puts reversed dates in order, as the page does", () => {
    expect(period("from=2026-11-30&to=2026-11-01")).toEqual({ ok: true, from: "2026-11-01", to: "2026-11-30" });
  });

  it("covers at most five years, to the day", () => {
    expect(period("from=2021-12-07&to=2026-12-06")).toEqual({ ok: true, from: "2021-12-07", to: "2026-12-06" });
    expect(period("from=2021-12-06&to=2026-12-06")).toEqual({ ok: false, error: "tooLong" });
    expect(period("from=1900-01-01")).toEqual({ ok: false, error: "tooLong" });
    // A leap day's anniversary: five years before 2028-02-29 starts on 2023-03-01.
    expect(parseStatementPeriod(new URLSearchParams("from=2023-03-01&to=2028-02-29"), TODAY).ok).toBe(true);
    expect(parseStatementPeriod(new URLSearchParams("from=2023-02-28&to=2028-02-29"), TODAY).ok).toBe(false);
  });

  it.each([
    "from=2026-13-01",
    "from=2026-02-30",
    "to=yesterday",
    "from=2026-1-1",
    "to=2026-12-06T00:00",
    `from=${"9".repeat(5_000)}`,
    "from=２０２６-１２-０１",
  ])("refuses %s as not a date", (query) => {
    expect(period(query)).toEqual({ ok: false, error: "badDate" });
  });
});
