import { describe, expect, it } from "vitest";
import {
  AGREEMENT_STATUSES,
  AGREEMENT_TRANSITIONS,
  canTransition,
  decideSnapshot,
  isLive,
  isReachable,
  isUsable,
  TERMINAL_AGREEMENT_STATUSES,
  type AgreementStatus,
} from "./payto-states";

/** Decision 027's table, written out again by hand so that a change to either is noticed. */
const TABLE: [AgreementStatus, AgreementStatus, string][] = [
  ["CREATED", "ACTIVE", "payer"],
  ["CREATED", "DECLINED", "payer"],
  ["CREATED", "EXPIRED", "provider"],
  ["CREATED", "CANCELLED", "business"],
  ["ACTIVE", "SUSPENDED", "payer,business"],
  ["ACTIVE", "CANCELLED", "payer,business"],
  ["SUSPENDED", "ACTIVE", "payer,business"],
  ["SUSPENDED", "CANCELLED", "payer,business"],
];

describe("the agreement transition table", () => {
  it("is exactly decision 027's table", () => {
    expect(AGREEMENT_TRANSITIONS.map((t) => [t.from, t.to, t.by.join(",")])).toEqual(TABLE);
  });

  it.each(TABLE)("%s → %s is allowed for %s and nobody else", (from, to, actors) => {
    for (const actor of ["payer", "business", "provider"] as const) {
      expect(canTransition(from, to, actor)).toBe(actors.split(",").includes(actor));
    }
    expect(canTransition(from, to)).toBe(true);
  });

  it("refuses every step that is not in the table", () => {
    const allowed = new Set(TABLE.map(([from, to]) => `${from}>${to}`));
    for (const from of AGREEMENT_STATUSES) {
      for (const to of AGREEMENT_STATUSES) {
        if (!allowed.has(`${from}>${to}`)) expect(canTransition(from, to), `${from} → ${to}`).toBe(false);
      }
    }
  });

  it("never leaves a terminal state", () => {
    for (const from of TERMINAL_AGREEMENT_STATUSES) {
      for (const to of AGREEMENT_STATUSES) {
        if (to !== from) expect(isReachable(from, to), `${from} → ${to}`).toBe(false);
      }
      expect(isLive(from)).toBe(false);
    }
  });

  it("the payer may not decline an active agreement, nor the business approve one", () => {
    expect(canTransition("ACTIVE", "DECLINED")).toBe(false);
    expect(canTransition("CREATED", "ACTIVE", "business")).toBe(false);
    expect(canTransition("CREATED", "SUSPENDED")).toBe(false);
  });
});

describe("reachability (steps missed in between)", () => {
  it.each([
    ["CREATED", "SUSPENDED", true],
    ["CREATED", "CANCELLED", true],
    ["ACTIVE", "ACTIVE", true],
    ["SUSPENDED", "SUSPENDED", true],
    ["ACTIVE", "EXPIRED", false],
    ["ACTIVE", "DECLINED", false],
    ["ACTIVE", "CREATED", false],
    ["EXPIRED", "ACTIVE", false],
    ["CANCELLED", "ACTIVE", false],
  ] as const)("%s ⇝ %s: %s", (from, to, expected) => {
    expect(isReachable(from, to)).toBe(expected);
  });
});

describe("deciding about a provider snapshot", () => {
  it("applies a newer version whose status can follow ours", () => {
    expect(decideSnapshot("CREATED", 1, "ACTIVE", 2)).toBe("apply");
    // We missed ACTIVE (version 2): SUSPENDED at version 3 still applies.
    expect(decideSnapshot("CREATED", 1, "SUSPENDED", 3)).toBe("apply");
    // A newer version of the same status (e.g. a changed reason) applies too.
    expect(decideSnapshot("ACTIVE", 2, "ACTIVE", 4)).toBe("apply");
  });

  it("ignores an older or equal version, whatever it says", () => {
    expect(decideSnapshot("SUSPENDED", 3, "ACTIVE", 2)).toBe("stale");
    expect(decideSnapshot("ACTIVE", 2, "ACTIVE", 2)).toBe("stale");
    expect(decideSnapshot("CANCELLED", 5, "CREATED", 1)).toBe("stale");
  });

  it("refuses a newer version that would bring a terminal agreement back", () => {
    expect(decideSnapshot("CANCELLED", 4, "ACTIVE", 5)).toBe("impossible");
    expect(decideSnapshot("DECLINED", 2, "ACTIVE", 3)).toBe("impossible");
    expect(decideSnapshot("ACTIVE", 2, "EXPIRED", 3)).toBe("impossible");
  });

  it("ends in the same state whatever order the snapshots arrive in", () => {
    const snapshots: [AgreementStatus, number][] = [
      ["ACTIVE", 2],
      ["SUSPENDED", 3],
      ["ACTIVE", 4],
      ["CANCELLED", 5],
    ];
    const orders = [snapshots, [...snapshots].reverse(), [snapshots[2]!, snapshots[0]!, snapshots[3]!, snapshots[1]!]];
    for (const order of orders) {
      let state: [AgreementStatus, number] = ["CREATED", 1];
      for (const [status, version] of [...order, ...order]) {
        if (decideSnapshot(state[0], state[1], status, version) === "apply") state = [status, version];
      }
      expect(state).toEqual(["CANCELLED", 5]);
    }
  });
});

describe("what an agreement is good for", () => {
  it("pays only while active", () => {
    expect(AGREEMENT_STATUSES.filter(isUsable)).toEqual(["ACTIVE"]);
  });

  it("is shown as the customer's while pending, active or paused", () => {
    expect(AGREEMENT_STATUSES.filter(isLive)).toEqual(["CREATED", "ACTIVE", "SUSPENDED"]);
  });
});
