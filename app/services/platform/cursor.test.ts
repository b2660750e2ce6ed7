import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "./cursor.server";

/** The list cursor: only a real instant to the microsecond and an id decode (fixagr review). */
describe("decodeCursor", () => {
  const id = randomUUID();
  const forged = (at: string) => Buffer.from(`${at}|${id}`, "utf8").toString("base64url");

  it("reads back what encodeCursor wrote", () => {
    for (const at of ["2026-02-28T23:59:59.999999Z", "2028-02-29T00:00:00.000001Z", "0001-01-01T00:00:00.000000Z"]) {
      expect(decodeCursor(encodeCursor(at, id))).toEqual({ at, id });
    }
  });

  it.each([
    ["the 30th of February", "2026-02-30T00:00:00.000000Z"],
    ["the 29th of February in a common year", "2026-02-29T12:00:00.000000Z"],
    ["the 31st of April", "2026-04-31T00:00:00.000000Z"],
    ["month 13", "2026-13-01T00:00:00.000000Z"],
    ["hour 24", "2026-01-01T24:00:00.000000Z"],
    ["minute 60", "2026-01-01T10:60:00.000000Z"],
    ["second 60", "2026-01-01T10:00:60.000000Z"],
    ["day 0", "2026-01-00T00:00:00.000000Z"],
    ["year 0", "0000-01-01T00:00:00.000000Z"],
    ["milliseconds only", "2026-01-01T00:00:00.000Z"],
    ["an offset", "2026-01-01T00:00:00.000000+01"],
  ])("refuses %s", (_label, at) => {
    expect(decodeCursor(forged(at))).toBeNull();
  });

  it("refuses a bad id, extra parts and junk", () => {
    expect(decodeCursor(Buffer.from("2026-01-01T00:00:00.000000Z|x").toString("base64url"))).toBeNull();
    expect(decodeCursor(Buffer.from(`2026-01-01T00:00:00.000000Z|${id}|x`).toString("base64url"))).toBeNull();
    expect(decodeCursor("' OR 1=1")).toBeNull();
    expect(decodeCursor("a".repeat(201))).toBeNull();
  });
});
