import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { createSession } from "~/services/auth/session.server";
import { routeAccess } from "~/services/auth/access.server";
import { openSeededPglite } from "../../../tests/support/test-db";
import { action, loader } from "./payment.payment-request.all";
import { loader as rootLoader } from "../../root";
import { loader as invoicesLoader } from "../_link+/customer.invoices-and-payments+/invoices";
import { loader as schedulesLoader } from "./customer.payment-schedule+/_index";
import { loader as agreementsLoader } from "./customer.agreement+/all";

/**
 * A home and a menu for every contact (issue 31; decision 073), the loader and the action called
 * with real Requests. The contacts are made here: Cara and Eve share one account of Acme, Dev has
 * another of Acme, Kiri is Kiwi's, and Nell has no account at all. The home lists the invoices a
 * contact may pay with their Pay, each request's primary action, and an empty state when nothing
 * waits; nobody else's items appear, and the menu offers only pages that open for them.
 */
const ACME_HOST = "acme.localhost";
const KIWI_HOST = "kiwi.localhost";

let handle: DatabaseHandle;
const cookies: Record<string, string> = {};
const contacts: Record<string, string> = {};
const accounts: Record<string, string> = {};
const invoices: Record<string, string> = {};
let acme = "";
let kiwi = "";

const tag = randomBytes(3).toString("hex").toUpperCase();

async function businessOf(host: string) {
  const row = await handle.db
    .selectFrom("hosts")
    .select("business_id")
    .where("hostname", "=", host)
    .executeTakeFirstOrThrow();
  return row.business_id;
}

async function addAccount(businessId: string, key: string) {
  accounts[key] = (
    await handle.db
      .insertInto("accounts")
      .values({ business_id: businessId, number: `CH-${key}-${tag}`, name: `Home ${key}`, parent_account_id: null })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
}

async function addContact(businessId: string, who: string, host: string, accountKeys: string[]) {
  const contact = await handle.db
    .insertInto("contacts")
    .values({
      business_id: businessId,
      email: `${who}-${tag.toLowerCase()}@home.test`,
      first_name: who,
      last_name: "Tester",
      position: "",
      verified_at: new Date(),
      permissions: [],
      password_hash: null,
      external_subject: null,
      disabled_at: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  contacts[who] = contact.id;
  for (const key of accountKeys) {
    await handle.db
      .insertInto("account_contacts")
      .values({ business_id: businessId, account_id: accounts[key]!, contact_id: contact.id, role: "contact" })
      .execute();
  }
  const request = new Request(`http://${host}/`, { headers: { host } });
  cookies[who] = (await createSession(request, { businessId, contactId: contact.id, authMethod: "credentials" })).split(
    ";",
  )[0]!;
}

async function addInvoice(
  businessId: string,
  accountKey: string,
  key: string,
  options: { status?: number; balance?: number; due?: string } = {},
) {
  invoices[key] = (
    await handle.db
      .insertInto("invoices")
      .values({
        business_id: businessId,
        account_id: accounts[accountKey]!,
        number: `INV-${key}-${tag}`,
        description: `Invoice ${key}`,
        issue_date: "2019-01-01",
        due_date: options.due ?? "2030-03-15",
        amount_cents: 50_000,
        balance_cents: options.balance ?? 31_897,
        status: options.status ?? 1,
      })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
}

async function addRequest(businessId: string, accountKey: string, to: string, reference: string) {
  const row = await handle.db
    .insertInto("payment_requests")
    .values({
      business_id: businessId,
      account_id: accounts[accountKey]!,
      reference,
      kind: "amount",
      description: "Site works",
      currency: "AUD",
      amount_cents: 42_000,
      paid_cents: 0,
      due_date: "2030-01-31",
      expires_at: new Date(Date.now() + 30 * 86_400_000),
      status: "sent",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await handle.db
    .insertInto("payment_request_recipients")
    .values({ request_id: row.id, contact_id: contacts[to]!, business_id: businessId, email: "x@home.test" })
    .execute();
}

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  acme = await businessOf(ACME_HOST);
  kiwi = await businessOf(KIWI_HOST);
  await addAccount(acme, "shared");
  await addAccount(acme, "dev");
  await addAccount(acme, "quiet");
  await addAccount(kiwi, "kiri");
  await addContact(acme, "cara", ACME_HOST, ["shared"]);
  await addContact(acme, "eve", ACME_HOST, ["shared"]);
  await addContact(acme, "dev", ACME_HOST, ["dev"]);
  await addContact(acme, "quinn", ACME_HOST, ["quiet"]);
  await addContact(acme, "nell", ACME_HOST, []);
  await addContact(kiwi, "kiri", KIWI_HOST, ["kiri"]);
  await addInvoice(acme, "shared", "open", { due: "2030-03-15" });
  await addInvoice(acme, "shared", "overdue", { status: 3, due: "2020-02-01", balance: 12_000 });
  await addInvoice(acme, "shared", "disputed", { status: 6 });
  await addInvoice(acme, "shared", "onhold", { status: 5 });
  await addInvoice(acme, "shared", "paid", { status: 2, balance: 0 });
  await addInvoice(acme, "dev", "devs");
  await addInvoice(kiwi, "kiri", "kiwis");
  await addRequest(acme, "shared", "cara", `PR-C${tag}`);
  await addRequest(acme, "shared", "eve", `PR-E${tag}`);
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
});

type Handler = (args: { request: Request; params: object; context: object }) => unknown;

async function run(handler: Handler, request: Request, params: object = {}) {
  try {
    return await handler({ request, params, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    if ((thrown as { type?: string } | null)?.type === "DataWithResponseInit") return thrown;
    throw thrown;
  }
}

const hostOf = (who: string) => (who === "kiri" ? KIWI_HOST : ACME_HOST);
const get = (who: string, path: string) =>
  new Request(`http://${hostOf(who)}${path}`, { headers: { host: hostOf(who), cookie: cookies[who]! } });
const post = (who: string, fields: Record<string, string>, origin = `http://${hostOf(who)}`) =>
  new Request(`http://${hostOf(who)}/payment/payment-request/all`, {
    method: "POST",
    headers: {
      host: hostOf(who),
      cookie: cookies[who]!,
      origin,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams(fields).toString(),
  });

type Home = Awaited<ReturnType<typeof loader>>;
async function home(who: string): Promise<Home> {
  const result = await run(loader as Handler, get(who, "/payment/payment-request/all"));
  if (result instanceof Response) throw new Error(`expected data, got ${result.status}`);
  return result as Home;
}
const statusOf = (answer: unknown) =>
  answer instanceof Response ? answer.status : (answer as { init: { status: number } }).init.status;

describe("the invoices a contact may pay", () => {
  it("lists the payable invoices of their account, oldest due first, with the due date and what is owing", async () => {
    const cara = await home("cara");
    expect(cara.invoices.items.map((i) => i.number)).toEqual([`INV-overdue-${tag}`, `INV-open-${tag}`]);
    expect(cara.invoices.items[0]).toMatchObject({ due: "Feb 1, 2020", overdue: true, balance: "$120.00" });
    expect(cara.invoices.items[1]).toMatchObject({
      id: invoices.open,
      due: "Mar 15, 2030",
      overdue: false,
      balance: "$318.97",
      account: `Home shared (CH-shared-${tag})`,
    });
    expect(cara.invoices.more).toBeNull();
    expect(cara.nothingToDo).toBe(false);
  });

  it("never lists another account's, another business's, a disputed, on-hold or paid invoice", async () => {
    const listed = (await home("cara")).invoices.items.map((i) => i.id);
    for (const key of ["disputed", "onhold", "paid", "devs", "kiwis"]) expect(listed).not.toContain(invoices[key]);
    // Dev, of the same business on another account, sees his own and nothing of Cara's account.
    expect((await home("dev")).invoices.items.map((i) => i.id)).toEqual([invoices.devs]);
    // Kiri, of another business, sees Kiwi's invoice only.
    expect((await home("kiri")).invoices.items.map((i) => i.id)).toEqual([invoices.kiwis]);
  });

  it("shows an account's invoices to each contact of it, but each one's payment requests only to them", async () => {
    const eve = await home("eve");
    expect(eve.invoices.items.map((i) => i.id).sort()).toEqual([invoices.open, invoices.overdue].sort());
    expect(eve.requests.items.map((r) => r.reference)).toEqual([`PR-E${tag}`]);
    const cara = await home("cara");
    expect(cara.requests.items.map((r) => r.reference)).toEqual([`PR-C${tag}`]);
    expect((await home("dev")).requests.items).toEqual([]);
  });
});

describe("each item's primary action", () => {
  it("gives an open payment request its Pay, to the request's page", async () => {
    const [request] = (await home("cara")).requests.items;
    expect(request).toMatchObject({
      reference: `PR-C${tag}`,
      href: `/payment/payment-request/PR-C${tag}`,
      remaining: "$420.00",
      due: "Jan 31, 2030",
      payable: true,
    });
  });

  it("Pay on an invoice selects its account and opens the pay page with that invoice", async () => {
    const answer = (await run(
      action as Handler,
      post("cara", { intent: "pay-invoice", invoiceId: invoices.open! }),
    )) as Response;
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe(`/customer/invoices-and-payments/pay?invoice=${invoices.open}`);
    // The pay and invoices pages now read Cara's account.
    const page = (await run(
      invoicesLoader as Handler,
      get("cara", "/customer/invoices-and-payments/invoices?filter=all"),
    )) as {
      account: { number: string };
    };
    expect(page.account.number).toBe(`CH-shared-${tag}`);
  });

  it("refuses Pay on an invoice the contact may not pay, and changes nothing", async () => {
    for (const key of ["devs", "kiwis", "disputed", "paid"]) {
      const answer = await run(action as Handler, post("cara", { intent: "pay-invoice", invoiceId: invoices[key]! }));
      expect(statusOf(answer), key).toBe(404);
    }
    expect(
      statusOf(await run(action as Handler, post("cara", { intent: "pay-invoice", invoiceId: "x' or 1=1" }))),
    ).toBe(404);
    expect(statusOf(await run(action as Handler, post("cara", { intent: "something-else" })))).toBe(400);
    // Another site's form cannot make the choice.
    expect(
      statusOf(
        await run(
          action as Handler,
          post("cara", { intent: "pay-invoice", invoiceId: invoices.open! }, "https://evil.example"),
        ),
      ),
    ).toBe(403);
  });
});

describe("the empty state", () => {
  it("says there is nothing to pay or accept when no list has anything waiting", async () => {
    const quinn = await home("quinn");
    expect(quinn.nothingToDo).toBe(true);
    expect(quinn.invoices.items).toEqual([]);
    expect(quinn.requests.items).toEqual([]);
    const nell = await home("nell");
    expect(nell.nothingToDo).toBe(true);
  });
});

describe("the menu of a customer-style contact", () => {
  type Root = Awaited<ReturnType<typeof rootLoader>>;
  const menuOf = async (who: string) =>
    ((await run(rootLoader as Handler, get(who, "/payment/payment-request/all"))) as Root).customerMenu!;

  it("offers home, invoices, requests, schedules, agreements and ad hoc where they apply", async () => {
    expect(await menuOf("cara")).toMatchObject({
      homeHref: "/payment/payment-request/all",
      invoicesHref: "/customer/invoices-and-payments/invoices",
      requestsHref: "/payment/payment-request/all#home-requests",
      schedulesHref: "/customer/payment-schedule",
      agreementsHref: "/customer/agreement/all",
    });
    // No account: the invoices page would be "Accounts not found", and there is nothing to pay into.
    const nell = await menuOf("nell");
    expect(nell.invoicesHref).toBeNull();
    expect(nell.adhocHref).toBeNull();
    expect(
      statusOf(await run(invoicesLoader as Handler, get("nell", "/customer/invoices-and-payments/invoices"))),
    ).toBe(404);
  });

  it("leads only to pages that open for them, with or without an account", async () => {
    const pages: Record<string, Handler> = {
      "/payment/payment-request/all": loader as Handler,
      "/customer/invoices-and-payments/invoices": invoicesLoader as Handler,
      "/customer/payment-schedule": schedulesLoader as Handler,
      "/customer/agreement/all": agreementsLoader as Handler,
    };
    for (const who of ["cara", "nell", "kiri"]) {
      const menu = await menuOf(who);
      const hrefs = [menu.homeHref, menu.invoicesHref, menu.requestsHref, menu.schedulesHref, menu.agreementsHref];
      for (const href of hrefs) {
        if (href === null) continue;
        const path = href.split("#")[0]!;
        expect(routeAccess(path), `${who} ${path}`).not.toBe("portal");
        const answer = await run(pages[path]!, get(who, `${path}?filter=all`));
        // A page's data, or (the invoices list) a redirect to its remembered query: never a 404.
        if (answer instanceof Response) expect(answer.status, `${who} ${path}`).toBe(302);
        else expect((answer as { init?: { status: number } }).init?.status ?? 200, `${who} ${path}`).toBe(200);
      }
    }
  });

  it("gives a contact with portal access no customer-style menu", async () => {
    const olivia = await handle.db
      .selectFrom("contacts")
      .select("id")
      .where("email", "=", "olivia@coastal.example")
      .executeTakeFirstOrThrow();
    const request = new Request(`http://${ACME_HOST}/`, { headers: { host: ACME_HOST } });
    cookies.olivia = (
      await createSession(request, { businessId: acme, contactId: olivia.id, authMethod: "credentials" })
    ).split(";")[0]!;
    const root = (await run(rootLoader as Handler, get("olivia", "/"))) as Root;
    expect(root.customerMenu).toBeNull();
  });
});
