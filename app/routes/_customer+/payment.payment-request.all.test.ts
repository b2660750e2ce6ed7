import { randomBytes, randomUUID } from "node:crypto";
import { SelectQueryNode, TableNode, type KyselyPlugin } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { createSession } from "~/services/auth/session.server";
import { withRequestScope } from "~/services/platform/request-scope.server";
import { openSeededPglite } from "../../../tests/support/test-db";
import { loader } from "./payment.payment-request.all";
import { loader as indexLoader } from "../_portal+/_index";
import { loader as rootLoader } from "../../root";
import { loader as statementsLoader } from "../_portal+/statements";

/**
 * The customer-style home (issue 14; decision 033), its loader called with real Requests: a
 * contact without accessCustomerPortal lands here from `/`, sees exactly the requests addressed
 * to them on accounts they may see (paged by a keyset, in a constant number of statements),
 * the accounts they may pay any amount to where the business takes such payments, and their
 * own receipts; portal routes stay "Page not found" for them.
 */
const HOST = "acme.localhost";
const ORIGIN = `http://${HOST}`;

let handle: DatabaseHandle;
const cookies: Record<string, string> = {};
const contacts: Record<string, string> = {};
const accounts: Record<string, string> = {};
let acme = "";
let kiwi = "";

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  for (const [who, email] of [
    ["olivia", "olivia@coastal.example"],
    ["sam", "sam@coastal.example"],
    ["aroha", "aroha@orchards.example"],
  ] as const) {
    const contact = await handle.db
      .selectFrom("contacts")
      .select(["id", "business_id"])
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    contacts[who] = contact.id;
    if (who === "aroha") {
      kiwi = contact.business_id;
      continue;
    }
    acme = contact.business_id;
    const request = new Request(`${ORIGIN}/`, { headers: { host: HOST } });
    cookies[who] = (
      await createSession(request, {
        businessId: contact.business_id,
        contactId: contact.id,
        authMethod: "credentials",
      })
    ).split(";")[0]!;
  }
  for (const number of ["ACME-1000", "ACME-1001", "ACME-2000", "KIWI-1000"]) {
    const row = await handle.db.selectFrom("accounts").select("id").where("number", "=", number).executeTakeFirst();
    if (row) accounts[number] = row.id;
  }
  if (!accounts["KIWI-1000"]) {
    accounts["KIWI-1000"] = (
      await handle.db
        .selectFrom("accounts")
        .select("id")
        .where("business_id", "=", kiwi)
        .orderBy("number")
        .executeTakeFirstOrThrow()
    ).id;
  }
  await setAdhoc(acme, { enabled: true, min: 1000, max: 500_000 });
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
});

async function setAdhoc(businessId: string, settings: { enabled: boolean; min: number; max: number }) {
  await handle.db
    .insertInto("adhoc_settings")
    .values({ business_id: businessId, enabled: settings.enabled, min_cents: settings.min, max_cents: settings.max })
    .onConflict((oc) =>
      oc.column("business_id").doUpdateSet({
        enabled: settings.enabled,
        min_cents: settings.min,
        max_cents: settings.max,
      }),
    )
    .execute();
}

let sequence = 0;
/** A payment request of a stated amount on an account, sent to the given contacts. */
async function addRequest(
  businessId: string,
  accountId: string,
  recipients: string[],
  overrides: { amount?: number; paid?: number; status?: "sent" | "paid" | "cancelled"; expiresInDays?: number } = {},
) {
  sequence += 1;
  const reference = `PR-${randomBytes(4).toString("hex").toUpperCase()}`;
  const row = await handle.db
    .insertInto("payment_requests")
    .values({
      business_id: businessId,
      account_id: accountId,
      reference,
      kind: "amount",
      description: `Request ${sequence} <b>bold</b>`,
      currency: "AUD",
      amount_cents: overrides.amount ?? 12_345,
      paid_cents: overrides.paid ?? 0,
      due_date: "2030-01-31",
      expires_at: new Date(Date.now() + (overrides.expiresInDays ?? 30) * 86_400_000),
      status: overrides.status ?? "sent",
      // Distinct creation times, in the order made, like requests made one after another.
      created_at: new Date(Date.UTC(2026, 0, 1) + sequence * 60_000),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  for (const contactId of recipients) {
    await handle.db
      .insertInto("payment_request_recipients")
      .values({ request_id: row.id, contact_id: contactId, business_id: businessId, email: `${contactId}@x.test` })
      .execute();
  }
  return { id: row.id, reference };
}

type Handler = (args: { request: Request; params: object; context: object }) => unknown;

async function run(handler: Handler, request: Request, params: object = {}) {
  try {
    return await handler({ request, params, context: {} });
  } catch (thrown) {
    // A thrown Response (redirect) or `data(…, { status })` (the 404 screen) is an answer too.
    if (thrown instanceof Response) return thrown;
    if ((thrown as { type?: string } | null)?.type === "DataWithResponseInit") return thrown;
    throw thrown;
  }
}

const get = (who: string | null, path: string) =>
  new Request(`${ORIGIN}${path}`, { headers: { host: HOST, ...(who ? { cookie: cookies[who]! } : {}) } });

type Home = Awaited<ReturnType<typeof loader>>;
async function home(who: string, search = "") {
  const result = await run(loader as Handler, get(who, `/payment/payment-request/all${search}`));
  if (result instanceof Response) throw new Error(`expected data, got ${result.status}`);
  return result as Home;
}

describe("landing after sign-in", () => {
  it("sends a verified contact without accessCustomerPortal from / to their home", async () => {
    const answer = (await run(indexLoader as Handler, get("sam", "/"))) as Response;
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("/payment/payment-request/all");
  });

  it("keeps portal contacts on the dashboard", async () => {
    const answer = await run(indexLoader as Handler, get("olivia", "/"));
    expect(answer).not.toBeInstanceOf(Response);
    expect((answer as { tiles: unknown }).tiles).toBeDefined();
  });

  it("sends a visitor without a session to sign-in, from / and from the home", async () => {
    for (const path of ["/", "/payment/payment-request/all"]) {
      const answer = (await run((path === "/" ? indexLoader : loader) as Handler, get(null, path))) as Response;
      expect(answer.status).toBe(302);
      expect(answer.headers.get("location")).toMatch(/^\/auth\/signin\?/);
    }
  });

  it("keeps 'Page not found' for the portal routes the contact still may not open", async () => {
    const answer = await run(statementsLoader as Handler, get("sam", "/statements"));
    expect(answer).not.toBeInstanceOf(Response);
    expect((answer as { init: { status: number } }).init.status).toBe(404);
  });

  it("gives the shell a menu of only the customer-style pages (decision 073)", async () => {
    const sam = (await run(rootLoader as Handler, get("sam", "/payment/payment-request/all"))) as Awaited<
      ReturnType<typeof rootLoader>
    >;
    expect(sam.customerMenu).toEqual({
      homeHref: "/payment/payment-request/all",
      invoicesHref: "/customer/invoices-and-payments/invoices",
      requestsHref: "/payment/payment-request/all#home-requests",
      schedulesHref: "/customer/payment-schedule",
      agreementsHref: "/customer/agreement/all",
      adhocHref: `/payment/adhoc/${accounts["ACME-1001"]}`,
    });
    expect(sam.accounts.items).toEqual([]);
    const olivia = (await run(rootLoader as Handler, get("olivia", "/"))) as Awaited<ReturnType<typeof rootLoader>>;
    expect(olivia.customerMenu).toBeNull();
  });
});

describe("payment requests addressed to the contact", () => {
  let mine: { id: string; reference: string }[] = [];
  let notMine: string[] = [];

  beforeAll(async () => {
    // The demo seed addresses requests to Sam too: this block owns what is addressed to him.
    await handle.db.deleteFrom("payment_request_recipients").where("contact_id", "=", contacts.sam!).execute();
    mine = [];
    for (let i = 0; i < 12; i += 1) mine.push(await addRequest(acme, accounts["ACME-1001"]!, [contacts.sam!]));
    notMine = [
      // Another contact's request on the same account.
      (await addRequest(acme, accounts["ACME-1001"]!, [contacts.olivia!])).reference,
      // Addressed to Sam, but on an account he may not see.
      (await addRequest(acme, accounts["ACME-2000"]!, [contacts.sam!])).reference,
      // Another business's request, whatever its recipients row says.
      (await addRequest(kiwi, accounts["KIWI-1000"]!, [contacts.sam!])).reference,
    ];
  });

  it("lists them newest first, ten at a time, with an 'Older requests' keyset link", async () => {
    const first = await home("sam");
    const newestFirst = [...mine].reverse().map((r) => r.reference);
    expect(first.requests.items.map((r) => r.reference)).toEqual(newestFirst.slice(0, 10));
    expect(first.requests.olderHref).toBe(`?after=${mine[2]!.id}`);
    expect(first.requests.newestHref).toBeNull();
    const second = await home("sam", first.requests.olderHref!);
    expect(second.requests.items.map((r) => r.reference)).toEqual(newestFirst.slice(10));
    expect(second.requests.olderHref).toBeNull();
    expect(second.requests.newestHref).toBe("/payment/payment-request/all");
    const all = [...first.requests.items, ...second.requests.items].map((r) => r.reference);
    for (const reference of notMine) expect(all).not.toContain(reference);
  });

  it("shows what is left to pay, the due date, and the state as the contact reads it", async () => {
    const partPaid = await addRequest(acme, accounts["ACME-1001"]!, [contacts.sam!], { amount: 10_000, paid: 2_500 });
    const paid = await addRequest(acme, accounts["ACME-1001"]!, [contacts.sam!], {
      amount: 5_000,
      paid: 5_000,
      status: "paid",
    });
    const expired = await addRequest(acme, accounts["ACME-1001"]!, [contacts.sam!], { expiresInDays: -1 });
    const items = (await home("sam")).requests.items;
    const byRef = (reference: string) => items.find((item) => item.reference === reference)!;
    expect(byRef(partPaid.reference)).toMatchObject({ remaining: "$75.00", state: "part-paid", due: "Jan 31, 2030" });
    expect(byRef(paid.reference)).toMatchObject({ remaining: "$0.00", state: "paid" });
    expect(byRef(expired.reference)).toMatchObject({ remaining: "$123.45", state: "expired" });
    // The description is data, rendered as text by React: stored as typed.
    expect(byRef(partPaid.reference).description).toMatch(/<b>bold<\/b>$/);
  });

  it("reads a page in the same number of statements for 1 request or 10", async () => {
    const count = async (who: string) => {
      const { scope, result } = withRequestScope(() =>
        run(loader as Handler, get(who, "/payment/payment-request/all")),
      );
      await result;
      return scope.statements;
    };
    // Olivia has one request addressed to her; Sam has more than a page.
    const one = await count("olivia");
    const many = await count("sam");
    expect(many).toBe(one);
    // Host (with its ad-hoc settings) and session, then the lists: requests, accounts, receipts,
    // agreements (decision 036), payment schedules (issue 15: one statement, each with its next instalment)
    // and the invoices they may pay (decision 073).
    expect(many).toBeLessThanOrEqual(8);
  });

  it("reads the contact's first accounts once for the shell and the home together", async () => {
    // Statements whose table is "accounts" itself: the switcher's, the menu's and the home's list.
    let onAccounts = 0;
    const plugin: KyselyPlugin = {
      transformQuery({ node }) {
        if (
          SelectQueryNode.is(node) &&
          node.from?.froms.some((f) => TableNode.is(f) && f.table.identifier.name === "accounts")
        )
          onAccounts += 1;
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    setDatabaseForTesting({ ...handle, db: handle.db.withPlugin(plugin) } as DatabaseHandle);
    try {
      // As remix-serve does: one request scope, and each loader its own Request for the same URL.
      for (const who of ["sam", "olivia"]) {
        const { result } = withRequestScope(() =>
          Promise.all([
            run(rootLoader as Handler, get(who, "/payment/payment-request/all")),
            run(loader as Handler, get(who, "/payment/payment-request/all")),
          ]),
        );
        await result;
        onAccounts = 0;
        const { result: counted } = withRequestScope(() =>
          Promise.all([
            run(rootLoader as Handler, get(who, "/payment/payment-request/all")),
            run(loader as Handler, get(who, "/payment/payment-request/all")),
          ]),
        );
        const [shell, page] = (await counted) as [Awaited<ReturnType<typeof rootLoader>>, Home];
        // Sam has the customer-style menu, Olivia the switcher; both the home's accounts to pay.
        expect(who === "sam" ? shell.customerMenu : shell.accounts.items.length, who).toBeTruthy();
        expect(page.adhoc.accounts.length, who).toBeGreaterThan(0);
        expect(onAccounts, who).toBe(1);
      }
    } finally {
      setDatabaseForTesting(handle);
    }
  });

  it("treats a malformed or foreign cursor as no cursor or an empty page, never an error", async () => {
    const hostile = await home("sam", `?after=${encodeURIComponent("'; drop table payments; --")}`);
    expect(hostile.requests.items).toHaveLength(10);
    const foreign = await home("sam", `?after=${randomUUID()}`);
    expect(foreign.requests.items).toEqual([]);
  });
});

describe("ad-hoc payments on the home", () => {
  it("links each account the contact may see, with the business's limits", async () => {
    const sam = await home("sam");
    expect(sam.adhoc).toMatchObject({ enabled: true, min: "$10.00", max: "$5,000.00" });
    expect(sam.adhoc.accounts.map((a) => a.href)).toEqual([`/payment/adhoc/${accounts["ACME-1001"]}`]);
  });

  it("offers no link where the business does not take ad-hoc payments", async () => {
    await setAdhoc(acme, { enabled: false, min: 1000, max: 500_000 });
    try {
      const sam = await home("sam");
      expect(sam.adhoc.enabled).toBe(false);
      expect(sam.adhoc.accounts).toEqual([]);
      const root = (await run(rootLoader as Handler, get("sam", "/payment/payment-request/all"))) as Awaited<
        ReturnType<typeof rootLoader>
      >;
      expect(root.customerMenu?.adhocHref).toBeNull();
    } finally {
      await setAdhoc(acme, { enabled: true, min: 1000, max: 500_000 });
    }
  });

  it("with several accounts, lists each and the menu leads to the list", async () => {
    const contact = await handle.db
      .insertInto("contacts")
      .values({
        business_id: acme,
        email: `two-accounts-${randomUUID().slice(0, 8)}@acme.test`,
        first_name: "Tam",
        last_name: "Two",
        position: "",
        verified_at: new Date(),
        permissions: [],
        password_hash: null,
        external_subject: null,
        disabled_at: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    for (const number of ["ACME-1001", "ACME-2000"]) {
      await handle.db
        .insertInto("account_contacts")
        .values({ business_id: acme, account_id: accounts[number]!, contact_id: contact.id, role: "contact" })
        .execute();
    }
    const request = new Request(`${ORIGIN}/`, { headers: { host: HOST } });
    cookies.tam = (
      await createSession(request, { businessId: acme, contactId: contact.id, authMethod: "credentials" })
    ).split(";")[0]!;
    const tam = await home("tam");
    expect(tam.adhoc.accounts.map((a) => a.href).sort()).toEqual(
      [`/payment/adhoc/${accounts["ACME-1001"]}`, `/payment/adhoc/${accounts["ACME-2000"]}`].sort(),
    );
    const root = (await run(rootLoader as Handler, get("tam", "/payment/payment-request/all"))) as Awaited<
      ReturnType<typeof rootLoader>
    >;
    expect(root.customerMenu?.adhocHref).toBe("/payment/payment-request/all#adhoc");
  });

  it("ignores a hostile page number", async () => {
    for (const value of ["-20", "abc", "1e9", "20.5", "99999999999"]) {
      const sam = await home("sam", `?accounts=${encodeURIComponent(value)}`);
      expect(sam.adhoc.accounts).toHaveLength(1);
    }
  });
});

describe("receipts on the home", () => {
  async function addPayment(contactId: string, accountId: string, status: "succeeded" | "failed" | "promised") {
    const reference = `PAY-${randomBytes(5).toString("hex").toUpperCase()}`;
    await handle.db
      .insertInto("payments")
      .values({
        business_id: acme,
        account_id: accountId,
        request_guid: randomUUID(),
        request_hash: "0".repeat(64),
        reference,
        method: "card",
        status,
        currency: "AUD",
        amount_cents: 2_000,
        subtotal_cents: 2_000,
        created_by: contactId,
        purpose: "adhoc",
        payer_reference: "Deposit <script>",
      })
      .execute();
    return reference;
  }

  it("lists the contact's own paid payments, newest first, and nobody else's", async () => {
    const paid = await addPayment(contacts.sam!, accounts["ACME-1001"]!, "succeeded");
    const failed = await addPayment(contacts.sam!, accounts["ACME-1001"]!, "failed");
    const olivias = await addPayment(contacts.olivia!, accounts["ACME-1001"]!, "succeeded");
    const receipts = (await home("sam")).receipts;
    expect(receipts[0]).toMatchObject({
      reference: paid,
      href: `/payment/complete/${paid}`,
      amount: "$20.00",
      status: "succeeded",
      payerReference: "Deposit <script>",
    });
    const references = receipts.map((r) => r.reference);
    expect(references).not.toContain(failed);
    expect(references).not.toContain(olivias);
  });
});
