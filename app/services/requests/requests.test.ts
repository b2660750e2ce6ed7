import { randomUUID } from "node:crypto";
import net from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_REQUEST_REFERENCE, DEMO_REQUEST_TOKEN } from "../../../db/seed/demo";
import { startSmtpCatcher, type SmtpCatcher } from "../../../tests/support/smtp-catcher";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../../tests/support/test-db";
import { PAYMENT_REQUEST_STATES, paymentRequestState, requestOwingCents } from "~/lib/payment-request-state";
import { checkLinkToken } from "../links/link-tokens.server";
import { setDatabaseForTesting } from "../platform/database.server";
import type { DatabaseHandle } from "../platform/db.server";
import { resetEnvForTesting } from "../platform/env.server";
import { withRequestScope } from "../platform/request-scope.server";
import { cancelPaymentRequest, createPaymentRequest, markPaymentRequestOpened } from "./commands.server";
import { getPaymentRequest, listPaymentRequests, type PaymentRequestView } from "./queries.server";
import { sendPaymentRequest } from "./sending.server";
import { RequestProblem } from "../platform/problems.server";

let catcher: SmtpCatcher;
const savedSmtp = process.env.SMTP_URL;

beforeAll(async () => {
  catcher = await startSmtpCatcher();
});
afterAll(async () => {
  await catcher.close();
  if (savedSmtp === undefined) delete process.env.SMTP_URL;
  else process.env.SMTP_URL = savedSmtp;
  resetEnvForTesting();
});
beforeEach(() => {
  process.env.SMTP_URL = catcher.smtpUrl;
  resetEnvForTesting();
});

/** The token in a caught email's "Pay now" link. */
const tokenIn = (links: string[]) => {
  const link = links.find((l) => l.includes("/customer/payment-request/"));
  return link ? link.split("/customer/payment-request/")[1]! : null;
};

async function problemOf(run: () => Promise<unknown>): Promise<RequestProblem> {
  try {
    await run();
  } catch (error) {
    if (error instanceof RequestProblem) return error;
    throw error;
  }
  throw new Error("expected a RequestProblem");
}

function requestSuite(open: () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>) {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  let acme: string;
  let kiwi: string;

  beforeAll(async () => {
    ({ handle, close } = await open());
    setDatabaseForTesting(handle);
    const business = async (host: string) =>
      (await handle.db.selectFrom("hosts").select("business_id").where("hostname", "=", host).executeTakeFirstOrThrow())
        .business_id;
    acme = await business("acme.localhost");
    kiwi = await business("kiwi.localhost");
  });
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await close();
  });

  const counts = async () => ({
    requests: Number(
      (
        await handle.db
          .selectFrom("payment_requests")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    links: Number(
      (
        await handle.db
          .selectFrom("link_tokens")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  });

  describe("the seeded requests", () => {
    it("hold one request in every state, and each state filter finds exactly its own", async () => {
      const { items } = await listPaymentRequests(acme, { limit: 100 });
      const seeded = items.filter((item) => item.reference.startsWith("PR-DEMO"));
      expect(new Set(seeded.map((item) => item.state))).toEqual(new Set(PAYMENT_REQUEST_STATES));
      for (const state of PAYMENT_REQUEST_STATES) {
        const filtered = await listPaymentRequests(acme, { state, limit: 100 });
        expect(filtered.items.length, state).toBeGreaterThan(0);
        for (const item of filtered.items) expect(item.state).toBe(state);
        expect(filtered.items.map((i) => i.id).sort()).toEqual(
          items
            .filter((i) => i.state === state)
            .map((i) => i.id)
            .sort(),
        );
      }
    });

    it("give the README's demo link to PR-DEMO0001, and it is valid", async () => {
      const view = (await getPaymentRequest(acme, DEMO_REQUEST_REFERENCE))!;
      expect(view.state).toBe("sent");
      const check = await checkLinkToken(acme, "payment-request", DEMO_REQUEST_TOKEN);
      expect(check.status).toBe("valid");
      expect(check.status === "valid" && check.link.subjectId).toBe(view.id);
      // Another business's host does not know it.
      expect((await checkLinkToken(kiwi, "payment-request", DEMO_REQUEST_TOKEN)).status).toBe("unknown");
    });

    it("agree with the demo ledger: the part-paid request's rest is its invoice's balance", async () => {
      const { items } = await listPaymentRequests(acme, { state: "part-paid" });
      const request = items.find((i) => i.reference === "PR-DEMO0003")!;
      expect(request.remainingCents).toBe(request.invoices[0]!.balanceCents);
      expect(request.paidCents).toBeGreaterThan(0);
    });
  });

  describe("creating", () => {
    it("asks for invoices by number at their balances, due on the latest due date; nothing is sent", async () => {
      const sentBefore = catcher.messages.length;
      const view = await createPaymentRequest(acme, {
        account: "ACME-1000",
        invoices: ["ACME-1000-INV-024", "ACME-1000-INV-022"],
        recipients: ["OLIVIA@coastal.example"],
        allowPartPayment: true,
        minPartPaymentCents: 20_00,
      });
      const invoices = await handle.db
        .selectFrom("invoices")
        .select(["id", "number", "balance_cents", "due_date"])
        .where("number", "in", ["ACME-1000-INV-024", "ACME-1000-INV-022"])
        .execute();
      expect(view.reference).toMatch(/^PR-[0-9A-Z]{8}$/);
      expect(view.state).toBe("created");
      expect(view.kind).toBe("invoices");
      expect(view.currency).toBe("AUD");
      expect(view.amountCents).toBe(invoices.reduce((sum, i) => sum + i.balance_cents, 0));
      expect(view.remainingCents).toBe(view.amountCents);
      expect(view.dueDate).toBe(invoices.map((i) => i.due_date).sort()[1]);
      expect(view.invoices.map((i) => i.number).sort()).toEqual(["ACME-1000-INV-022", "ACME-1000-INV-024"]);
      expect(view.recipients).toEqual([
        {
          email: "olivia@coastal.example",
          sendCount: 0,
          lastSentAt: null,
          opened: false,
          openedAt: null,
          remindCount: 0,
          lastRemindedAt: null,
        },
      ]);
      expect(view.account.number).toBe("ACME-1000");
      expect(new Date(view.expiresAt).getTime() - Date.now()).toBeGreaterThan(13.9 * 86_400_000);
      expect(catcher.messages.length).toBe(sentBefore);
      const json = JSON.stringify(view);
      expect(json).not.toMatch(/token|hash|selector|verifier/i);
    });

    it("asks for a stated amount with a description; the same invoice named twice is asked once", async () => {
      const view = await createPaymentRequest(acme, {
        account: "ACME-2000",
        amountCents: 120_50,
        description: "  Deposit <b>for</b> 'Q-1'; DROP TABLE invoices; -- ✓ Ünïcödé  ",
        dueDate: "2026-12-15",
        expiresInDays: 30,
        recipients: ["olivia@coastal.example"],
      });
      expect(view.kind).toBe("amount");
      expect(view.amountCents).toBe(120_50);
      expect(view.description).toBe("Deposit <b>for</b> 'Q-1'; DROP TABLE invoices; -- ✓ Ünïcödé");
      expect(view.dueDate).toBe("2026-12-15");
      expect(view.invoices).toEqual([]);
      const invoice = await handle.db
        .selectFrom("invoices")
        .select("id")
        .where("number", "=", "ACME-2000-INV-024")
        .executeTakeFirstOrThrow();
      const twice = await createPaymentRequest(acme, {
        account: "ACME-2000",
        invoices: ["ACME-2000-INV-024", invoice.id],
        recipients: ["olivia@coastal.example"],
      });
      expect(twice.invoices).toHaveLength(1);
    });

    it.each([
      ["neither invoices nor an amount", { account: "ACME-1000", recipients: ["olivia@coastal.example"] }, "invoices"],
      [
        "both invoices and an amount",
        {
          account: "ACME-1000",
          invoices: ["ACME-1000-INV-024"],
          amountCents: 100,
          recipients: ["olivia@coastal.example"],
        },
        "amountCents",
      ],
      [
        "an amount without a description",
        { account: "ACME-1000", amountCents: 100, recipients: ["olivia@coastal.example"] },
        "description",
      ],
      [
        "a zero amount",
        { account: "ACME-1000", amountCents: 0, description: "x", recipients: ["olivia@coastal.example"] },
        "amountCents",
      ],
      [
        "a fractional amount",
        { account: "ACME-1000", amountCents: 10.5, description: "x", recipients: ["olivia@coastal.example"] },
        "amountCents",
      ],
      [
        "an amount as text",
        { account: "ACME-1000", amountCents: "100", description: "x", recipients: ["olivia@coastal.example"] },
        "amountCents",
      ],
      [
        "another business's account",
        { account: "KF-500", amountCents: 100, description: "x", recipients: ["aroha@orchards.example"] },
        "account",
      ],
      [
        "an unknown account",
        { account: "' OR 1=1 --", amountCents: 100, description: "x", recipients: ["olivia@coastal.example"] },
        "account",
      ],
      [
        "a closed invoice",
        { account: "ACME-1000", invoices: ["ACME-1000-INV-001"], recipients: ["olivia@coastal.example"] },
        "invoices.0",
      ],
      [
        "an on-hold invoice",
        {
          account: "ACME-1000",
          invoices: ["ACME-1000-INV-024", "ACME-1000-INV-020"],
          recipients: ["olivia@coastal.example"],
        },
        "invoices.1",
      ],
      [
        "another account's invoice",
        { account: "ACME-1000", invoices: ["ACME-2000-INV-024"], recipients: ["olivia@coastal.example"] },
        "invoices.0",
      ],
      [
        "a contact of another account",
        { account: "ACME-1000", amountCents: 100, description: "x", recipients: ["sam@coastal.example"] },
        "recipients.0",
      ],
      [
        "another business's contact",
        { account: "ACME-1000", amountCents: 100, description: "x", recipients: ["aroha@orchards.example"] },
        "recipients.0",
      ],
      ["no recipients", { account: "ACME-1000", amountCents: 100, description: "x", recipients: [] }, "recipients"],
      [
        "a smallest part-payment above the amount",
        {
          account: "ACME-1000",
          amountCents: 100,
          description: "x",
          allowPartPayment: true,
          minPartPaymentCents: 101,
          recipients: ["olivia@coastal.example"],
        },
        "minPartPaymentCents",
      ],
      [
        "a smallest part-payment without part payments",
        {
          account: "ACME-1000",
          amountCents: 100,
          description: "x",
          minPartPaymentCents: 50,
          recipients: ["olivia@coastal.example"],
        },
        "minPartPaymentCents",
      ],
      [
        "an expiry in the past",
        {
          account: "ACME-1000",
          amountCents: 100,
          description: "x",
          expiresAt: "2020-01-01T00:00:00Z",
          recipients: ["olivia@coastal.example"],
        },
        "expiresAt",
      ],
      [
        "an expiry past 90 days",
        {
          account: "ACME-1000",
          amountCents: 100,
          description: "x",
          expiresInDays: 91,
          recipients: ["olivia@coastal.example"],
        },
        "expiresInDays",
      ],
      [
        "an impossible due date",
        {
          account: "ACME-1000",
          amountCents: 100,
          description: "x",
          dueDate: "2026-02-30",
          recipients: ["olivia@coastal.example"],
        },
        "dueDate",
      ],
      [
        "a description over 500 characters",
        {
          account: "ACME-1000",
          amountCents: 100,
          description: "x".repeat(501),
          recipients: ["olivia@coastal.example"],
        },
        "description",
      ],
      [
        "an unknown field",
        {
          account: "ACME-1000",
          amountCents: 100,
          description: "x",
          recipients: ["olivia@coastal.example"],
          surprise: 1,
        },
        "surprise",
      ],
      ["not an object", "account=ACME-1000", "body"],
    ])("refuses %s with a message on that field, and creates nothing", async (_label, input, field) => {
      const before = await counts();
      const problem = await problemOf(() => createPaymentRequest(acme, input));
      expect(problem.code).toBe("validation");
      expect(Object.keys(problem.fields ?? {})).toContain(field);
      expect(problem.fields![field]).toMatch(/\w/);
      expect(await counts()).toEqual(before);
    });
  });

  describe("sending, resending and cancelling", () => {
    let request: PaymentRequestView;

    beforeAll(async () => {
      request = await createPaymentRequest(acme, {
        account: "ACME-1000",
        invoices: ["ACME-1000-INV-023"],
        recipients: ["olivia@coastal.example", "new@coastal.example"],
      });
    });

    it("emails each recipient a link of their own; the links open this request only", async () => {
      const after = catcher.messages.length;
      const result = await sendPaymentRequest(acme, request.id);
      expect(result.deliveries).toEqual([
        { email: "new@coastal.example", sent: true },
        { email: "olivia@coastal.example", sent: true },
      ]);
      expect(result.request.state).toBe("sent");
      expect(result.request.sentAt).not.toBeNull();
      expect(result.request.recipients.map((r) => r.sendCount)).toEqual([1, 1]);
      const mail = await catcher.waitForMail("olivia@coastal.example", { after });
      const token = tokenIn(mail.links)!;
      expect(token).toMatch(/^[A-Za-z0-9_-]{59}$/);
      expect(mail.links).toContain(`http://acme.localhost:3000/customer/payment-request/${token}`);
      const check = await checkLinkToken(acme, "payment-request", token);
      expect(check.status === "valid" && check.link.subjectId).toBe(request.id);
      // Acme charges a card surcharge and offers PayID: the email names both (decision 075).
      expect(mail.text).toMatch(/Paying by card adds [^\n]*\. A bank transfer to PayID acme-1000@\S+ adds nothing/);
      const other = await catcher.waitForMail("new@coastal.example", { after });
      expect(tokenIn(other.links)).not.toBe(token);
      // The token is in the email only: not in the answer.
      expect(JSON.stringify(result)).not.toContain(token);
    });

    it("refuses to send twice (resend is the way) and to resend what was never sent", async () => {
      expect((await problemOf(() => sendPaymentRequest(acme, request.id))).code).toBe("conflict");
      const fresh = await createPaymentRequest(acme, {
        account: "ACME-2000",
        amountCents: 500,
        description: "x",
        recipients: ["olivia@coastal.example"],
      });
      expect((await problemOf(() => sendPaymentRequest(acme, fresh.id, { resend: true }))).message).toMatch(
        /not been sent/,
      );
    });

    it("resends: the old link answers revoked, the new one is valid, the counts move", async () => {
      const first = catcher.messages.length;
      const before = tokenIn(
        catcher.messages.filter((m) => m.to.includes("olivia@coastal.example") && tokenIn(m.links)).at(-1)!.links,
      )!;
      const result = await sendPaymentRequest(acme, request.reference, { resend: true });
      expect(result.deliveries.every((d) => d.sent)).toBe(true);
      const mail = await catcher.waitForMail("olivia@coastal.example", { after: first });
      const after = tokenIn(mail.links)!;
      expect(after).not.toBe(before);
      expect((await checkLinkToken(acme, "payment-request", before)).status).toBe("revoked");
      expect((await checkLinkToken(acme, "payment-request", after)).status).toBe("valid");
      expect(result.request.recipients.map((r) => r.sendCount)).toEqual([2, 2]);
    });

    it("counts an opening once, and shows it per recipient", async () => {
      const mail = catcher.messages.filter((m) => m.to.includes("olivia@coastal.example")).at(-1)!;
      const check = await checkLinkToken(acme, "payment-request", tokenIn(mail.links));
      expect(check.status).toBe("valid");
      await handle.db
        .updateTable("link_tokens")
        .set({ first_opened_at: new Date() })
        .where("id", "=", check.status === "valid" ? check.link.id : "")
        .execute();
      // Another business's id opens nothing.
      await markPaymentRequestOpened(kiwi, request.id);
      expect((await getPaymentRequest(acme, request.id))!.openedAt).toBeNull();
      await markPaymentRequestOpened(acme, request.id);
      const opened = (await getPaymentRequest(acme, request.id))!;
      expect(opened.state).toBe("opened");
      await markPaymentRequestOpened(acme, request.id);
      expect((await getPaymentRequest(acme, request.id))!.openedAt).toBe(opened.openedAt);
      expect(opened.recipients.find((r) => r.email === "olivia@coastal.example")!.opened).toBe(true);
      expect(opened.recipients.find((r) => r.email === "new@coastal.example")!.opened).toBe(false);
      await markPaymentRequestOpened(acme, "not-a-uuid");
    });

    it("cancels: every link answers revoked; cancelling again changes nothing; no more sending", async () => {
      const live = await handle.db
        .selectFrom("link_tokens")
        .select("id")
        .where("subject_id", "=", request.id)
        .where("revoked_at", "is", null)
        .execute();
      expect(live).toHaveLength(2);
      const cancelled = await cancelPaymentRequest(acme, request.id);
      expect(cancelled.state).toBe("cancelled");
      const again = await cancelPaymentRequest(acme, request.id);
      expect(again.cancelledAt).toBe(cancelled.cancelledAt);
      const stillLive = await handle.db
        .selectFrom("link_tokens")
        .select("id")
        .where("subject_id", "=", request.id)
        .where("revoked_at", "is", null)
        .execute();
      expect(stillLive).toEqual([]);
      const problem = await problemOf(() => sendPaymentRequest(acme, request.id, { resend: true }));
      expect(problem.code).toBe("conflict");
      expect(problem.message).toMatch(/cancelled/);
    });

    it("refuses to cancel a paid request, and to send an expired one", async () => {
      expect((await problemOf(() => cancelPaymentRequest(acme, "PR-DEMO0004"))).code).toBe("conflict");
      const expired = await problemOf(() => sendPaymentRequest(acme, "PR-DEMO0005", { resend: true }));
      expect(expired.code).toBe("conflict");
      expect(expired.message).toMatch(/expired/);
    });

    it("answers not found for another business's request, whichever business asks", async () => {
      expect(await getPaymentRequest(kiwi, request.id)).toBeNull();
      expect(await getPaymentRequest(kiwi, request.reference)).toBeNull();
      expect((await problemOf(() => sendPaymentRequest(kiwi, request.id))).code).toBe("not-found");
      expect((await problemOf(() => cancelPaymentRequest(kiwi, request.id))).code).toBe("not-found");
      expect(await getPaymentRequest(acme, "'; DROP TABLE payment_requests; --")).toBeNull();
      expect(await getPaymentRequest(acme, "PR-<script>")).toBeNull();
    });

    it("commits the links when the mail server is down, and reports it per recipient", async () => {
      const probe = net.createServer();
      await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
      const port = (probe.address() as net.AddressInfo).port;
      await new Promise<void>((resolve) => probe.close(() => resolve()));
      process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
      resetEnvForTesting();
      const fresh = await createPaymentRequest(acme, {
        account: "ACME-2000",
        amountCents: 700,
        description: "x",
        recipients: ["olivia@coastal.example"],
      });
      const result = await sendPaymentRequest(acme, fresh.id);
      expect(result.deliveries).toEqual([
        { email: "olivia@coastal.example", sent: false, error: "The mail server did not take the message." },
      ]);
      expect(result.request.state).toBe("sent");
      const links = await handle.db
        .selectFrom("link_tokens")
        .select("id")
        .where("subject_id", "=", fresh.id)
        .where("revoked_at", "is", null)
        .execute();
      expect(links).toHaveLength(1);
    });
  });

  describe("listing", () => {
    it("pages newest first with a cursor, three statements a page, no repeats", async () => {
      const all = await listPaymentRequests(acme, { limit: 100 });
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const { scope, result } = withRequestScope(() => listPaymentRequests(acme, { limit: 3, cursor }));
        const page = await result;
        expect(scope.statements).toBe(3);
        seen.push(...page.items.map((i) => i.id));
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen).toEqual(all.items.map((i) => i.id));
      const created = all.items.map((i) => i.createdAt);
      expect([...created].sort().reverse()).toEqual(created);
    });

    it("filters by account (id or number), and every view's state is its facts' state", async () => {
      const byNumber = await listPaymentRequests(acme, { account: "ACME-2000", limit: 100 });
      expect(byNumber.items.length).toBeGreaterThan(0);
      expect(byNumber.items.every((i) => i.account.number === "ACME-2000")).toBe(true);
      const byId = await listPaymentRequests(acme, { account: byNumber.items[0]!.account.id, limit: 100 });
      expect(byId.items.map((i) => i.id)).toEqual(byNumber.items.map((i) => i.id));
      for (const item of byNumber.items) {
        expect(item.state).toBe(
          paymentRequestState({
            status: item.state === "cancelled" || item.state === "paid" ? item.state : item.sentAt ? "sent" : "created",
            expiresAt: item.expiresAt,
            openedAt: item.openedAt,
            amountCents: item.amountCents,
            paidCents: item.paidCents,
            owingCents: requestOwingCents(
              item,
              item.invoices.map((i) => ({ askedCents: i.amountCents, balanceCents: i.balanceCents })),
            ),
          }),
        );
      }
    });

    it("refuses a bad state, limit, cursor or account with a message per field", async () => {
      for (const [query, field] of [
        [{ state: "lost" }, "state"],
        [{ limit: 0 }, "limit"],
        [{ limit: 101 }, "limit"],
        [{ cursor: "!!" }, "cursor"],
        [{ cursor: Buffer.from("2026-01-01|x").toString("base64url") }, "cursor"],
        // A time that is no real instant (JavaScript would roll it over; PostgreSQL would throw).
        [{ cursor: Buffer.from(`2026-02-30T00:00:00.000000Z|${randomUUID()}`).toString("base64url") }, "cursor"],
        [{ cursor: Buffer.from(`2026-01-01T24:00:00.000000Z|${randomUUID()}`).toString("base64url") }, "cursor"],
        [{ account: "KF-500" }, "account"],
      ] as const) {
        const problem = await problemOf(() => listPaymentRequests(acme, query));
        expect(problem.fields).toHaveProperty(field);
      }
    });

    it("finds the requests addressed to one contact, and by account id", async () => {
      const sam = await handle.db
        .selectFrom("contacts")
        .select("id")
        .where("email", "=", "sam@coastal.example")
        .executeTakeFirstOrThrow();
      const forSam = await listPaymentRequests(acme, { contactId: sam.id, limit: 100 });
      expect(forSam.items.map((i) => i.reference)).toEqual(["PR-DEMO0005"]);
      const byId = await listPaymentRequests(acme, { accountId: forSam.items[0]!.account.id });
      expect(byId.items.map((i) => i.reference)).toEqual(["PR-DEMO0005"]);
      expect((await problemOf(() => listPaymentRequests(acme, { contactId: "x" }))).fields).toHaveProperty("contactId");
    });

    it("shows a business only its own requests", async () => {
      const { items } = await listPaymentRequests(kiwi, { limit: 100 });
      expect(items).toEqual([]);
    });
  });
}

describe("on PGlite", () => {
  requestSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, close: () => handle.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("on PostgreSQL (TEST_DATABASE_URL)", () => {
  requestSuite(async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, close: database.drop };
  });
});

afterEach(() => {
  process.env.SMTP_URL = catcher.smtpUrl;
  resetEnvForTesting();
});
