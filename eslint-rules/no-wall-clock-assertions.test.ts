import { fileURLToPath } from "node:url";
import { ESLint, RuleTester } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";
import rule from "./no-wall-clock-assertions.js";

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const ruleTester = new RuleTester({ languageOptions: { parser: tseslint.parser } });

const wallClock = { messageId: "wallClock" as const };

ruleTester.run("no-wall-clock-assertions", rule, {
  valid: [
    {
      name: "the clock builds data: an expiry, a signed timestamp",
      code: `
        const link = await make({ expiresAt: new Date(Date.now() + 86_400_000) });
        const signed = sign(body, Math.floor(Date.now() / 1000) - 600);
        expect(await check(link.token, new Date(Date.now() + 120_000))).toBe("expired");
        expect(signed).toMatch(/t=/);`,
    },
    {
      name: "a stamp lies in a window taken around the call (one reading per assertion)",
      code: `
        const before = Date.now();
        logger.info("hello");
        const after = Date.now();
        expect(time).toBeGreaterThanOrEqual(before);
        expect(time).toBeLessThanOrEqual(after);`,
    },
    {
      name: "a lifetime: a value the code produced, less one reading of the clock",
      code: `
        expect(new Date(view.expiresAt).getTime() - Date.now()).toBeGreaterThan(13.9 * 86_400_000);
        const days = (new Date(offer.expiresAt).getTime() - Date.now()) / 86_400_000;
        expect(days).toBeLessThanOrEqual(30);`,
    },
    {
      name: "the portal's injected clock is not the real one",
      code: `expect(Math.abs(now().getTime() - Date.now())).toBeLessThan(5_000);`,
    },
    {
      name: "a duration measured but not asserted on (the bench's business), and the outcome asserted",
      code: `
        const started = performance.now();
        const outcome = await pay();
        log(performance.now() - started);
        expect(outcome.kind).toBe("pending");`,
    },
    {
      name: "fake timers: moving virtual time and asserting the outcome",
      code: `
        vi.useFakeTimers();
        const call = breaker.run(never).catch((error) => (outcome = error));
        await vi.advanceTimersByTimeAsync(50);
        expect(outcome).toBeInstanceOf(CallTimeoutError);`,
    },
    {
      name: "a subtraction of two values that are not the clock",
      code: `
        const started = clock();
        expect(after.p0 - before.p0).toBeGreaterThan(1);
        expect(clock().getTime() - started.getTime()).toBe(60_000);`,
    },
  ],
  invalid: [
    {
      name: "the pattern that failed on a busy machine (port-resilience)",
      code: `
        const started = Date.now();
        const outcome = await pay(guid, invoice.id, 1_500, method);
        expect(Date.now() - started).toBeLessThan(2_000);`,
      errors: [{ ...wallClock, line: 4 }],
    },
    {
      name: "performance.now(), and a lower bound (sandbox faults, brand assets)",
      code: `
        const started = performance.now();
        await sufferFault(read, "gateway");
        expect(performance.now() - started).toBeGreaterThanOrEqual(25);`,
      errors: [wallClock],
    },
    {
      name: "process.hrtime.bigint() and process.hrtime(start)",
      code: `
        const t0 = process.hrtime.bigint();
        await work();
        expect(Number(process.hrtime.bigint() - t0)).toBeLessThan(1e9);
        const start = process.hrtime();
        expect(process.hrtime(start)[0]).toBe(0);`,
      errors: [wallClock, wallClock],
    },
    {
      name: "through variables: a duration kept in one, and stamps assigned after their declaration",
      code: `
        let before;
        before = Date.now();
        await work();
        const after = Date.now();
        const elapsed = after - before;
        expect(elapsed).toBeLessThan(1_000);
        expect(after - before, "took too long").toBeLessThan(1_000);`,
      errors: [wallClock, wallClock],
    },
    {
      name: "in the matcher's argument, behind .not, in expect.soft",
      code: `
        const started = new Date();
        expect(1_000).not.toBeLessThan(new Date().getTime() - started.getTime());
        expect.soft(Date.now() - started.getTime()).toBeLessThan(1_000);`,
      errors: [wallClock, wallClock],
    },
    {
      name: "the clock against a deadline taken from it (cluster's old loop)",
      code: `
        const deadline = Date.now() + 10_000;
        while (!(await refused(port))) {
          expect(Date.now(), "the listener did not close").toBeLessThan(deadline);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }`,
      errors: [{ ...wallClock, line: 4 }],
    },
  ],
});

describe("the project's eslint.config.js", () => {
  const eslint = new ESLint({ cwd: fileURLToPath(new URL("..", import.meta.url)) });
  const ruleIds = async (code: string, filePath: string) =>
    (await eslint.lintText(code, { filePath }))[0]!.messages.map((m) => `${m.ruleId}:${m.messageId ?? m.message}`);
  const timed = `import { expect } from "vitest";
const started = Date.now();
expect(Date.now() - started).toBeLessThan(2_000);
`;

  it("checks Vitest files, e2e specs and the test support", async () => {
    for (const file of [
      "app/services/payments/thing.test.ts",
      "app/routes/page.test.tsx",
      "tests/unit/thing.test.ts",
      "tests/e2e/thing.spec.ts",
      "tests/support/helper.ts",
      "db/seed/thing.test.ts",
    ]) {
      expect(await ruleIds(timed, file), file).toEqual(["local/no-wall-clock-assertions:wallClock"]);
    }
  });

  // (The portal's services have a clock rule of their own, decision 068: only this rule's verdict is asked here.)
  const wallClock = async (code: string, filePath: string) =>
    (await ruleIds(code, filePath)).filter((id) => id.startsWith("local/no-wall-clock-assertions"));

  it("leaves the portal's own code and the bench alone", async () => {
    expect(await wallClock(timed, "app/services/payments/thing.server.ts")).toEqual([]);
    expect(await wallClock(timed, "bench/thing.ts")).toEqual([]);
  });
});
