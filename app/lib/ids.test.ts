import { describe, expect, it } from "vitest";
import { CANONICAL_UUID, isUuid, UUID, UUID_SOURCE } from "./ids";

const id = "0f8fad5b-d9cb-469f-a165-70867728950e";

describe("ids", () => {
  it("takes a UUID in either case, and nothing near one", () => {
    expect(UUID.test(id)).toBe(true);
    expect(UUID.test(id.toUpperCase())).toBe(true);
    for (const near of [
      `${id} `,
      ` ${id}`,
      id.slice(1),
      `${id}0`,
      id.replace(/-/g, ""),
      id.replace("f", "g"),
      `${id}\n`,
    ])
      expect(UUID.test(near), JSON.stringify(near)).toBe(false);
  });

  it("takes only the lower case PostgreSQL prints where one record must have one address", () => {
    expect(CANONICAL_UUID.test(id)).toBe(true);
    expect(CANONICAL_UUID.test(id.toUpperCase())).toBe(false);
  });

  it("isUuid is false for anything but a UUID string", () => {
    expect(isUuid(id)).toBe(true);
    for (const value of [undefined, null, 42, [id], { id }, ""]) expect(isUuid(value)).toBe(false);
  });

  it("composes into a larger pattern", () => {
    expect(new RegExp(`^card:(${UUID_SOURCE})$`).exec(`card:${id}`)?.[1]).toBe(id);
  });
});
