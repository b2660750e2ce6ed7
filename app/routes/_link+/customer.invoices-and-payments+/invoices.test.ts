import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { createSession } from "~/services/auth/session.server";
import { getAccountTiles } from "~/services/accounts/accounts.server";
import { todayIn } from "~/lib/dates";
import { CHOOSE_INVOICES_PATH } from "~/lib/invoice-query";
import { invoiceRowStatus } from "~/lib/invoice-status";
import { PAYABLE_STATUSES } from "~/services/payments/payment-records.server";
import { openSeededPglite } from "../../../../tests/support/test-db";
import { loader } from "./invoices";
import { loader as payLoader } from "./pay";

/**
 * The invoices list's loader (issue 31): the "overdue" filter counts what the dashboard's tile
 * counts, each row has one status, invoices that cannot be paid online say why, and the pay page
 * sends a person who chose nothing back here with the error.
 */
const HOST = "acme.localhost";
const ORIGIN = `http://${HOST}`;
const LIST = `${ORIGIN}/customer/invoices-and-payments/invoices`;

let handle: DatabaseHandle;
let cookie = "";
let businessId = "";
let accountId = "";
let today = "";

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  const contact = await handle.db
    .selectFrom("contacts")
    .select(["id", "business_id"])
    .where("email", "=", "olivia@coastal.example")
    .executeTakeFirstOrThrow();
  businessId = contact.business_id;
  cookie = (
    await createSession(new Request(`${ORIGIN}/`, { headers: { host: HOST } }), {
      businessId,
      contactId: contact.id,
      authMethod: "credentials",
    })
  ).split(";")[0]!;
  accountId = (
    await handle.db.selectFrom("accounts").select("id").where("number", "=", "ACME-1000").executeTakeFirstOrThrow()
  ).id;
  const business = await handle.db
    .selectFrom("businesses")
    .select("time_zone")
    .where("id", "=", businessId)
    .executeTakeFirstOrThrow();
  today = todayIn(business.time_zone);
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
});

type Handler = (args: { request: Request; params: object; context: object }) => unknown;
async function run(handler: Handler, url: string) {
  try {
    return await handler({ request: new Request(url, { headers: { host: HOST, cookie } }), params: {}, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}
type List = Awaited<ReturnType<typeof loader>>;

describe("the invoices list", () => {
  it("filtered to overdue: exactly the invoices and the amount the dashboard's Overdue tile counts", async () => {
    const list = (await run(loader as Handler, `${LIST}?status=overdue`)) as List;
    const tiles = await getAccountTiles(businessId, accountId, today);
    expect(list.query.filter).toBe("overdue");
    expect(list.total).toBe(tiles.overdueInvoices);
    expect(list.total).toBeGreaterThan(0);
    expect(list.balance).toBe(`$${(tiles.overdueCents / 100).toLocaleString("en-AU", { minimumFractionDigits: 2 })}`);
    expect(list.invoices.every((invoice) => invoice.overdue)).toBe(true);
  });

  it("gives each row one status, never Open beside a passed due date; disputed and on hold say why, with no checkbox", async () => {
    const list = (await run(loader as Handler, `${LIST}?status=all`)) as List;
    for (const invoice of list.invoices) {
      if (invoice.overdue && invoice.payable) expect(invoice.status.key).not.toBe("inv.status.1");
    }
    const disputed = list.invoices.find((invoice) => invoice.status.key === "inv.row.disputedBecause");
    expect(disputed).toMatchObject({ payable: false, status: { params: { reason: "Goods arrived damaged" } } });
    expect(list.invoices.find((invoice) => invoice.status.key === "inv.row.onHold")).toMatchObject({
      payable: false,
    });
    expect(list.notPayable).toBe(2);
    expect(list.anyPayable).toBe(true);
  });

  it("shows the 'choose at least one' error only for its own value, and keeps the remembered filter", async () => {
    const plain = (await run(loader as Handler, `${LIST}?status=all`)) as List;
    expect(plain.error).toBeNull();
    const odd = (await run(loader as Handler, `${LIST}?status=all&error=%3Cscript%3E`)) as List;
    expect(odd.error).toBeNull();
    // The list remembers ?status=all: the bare error address comes back to it, error and fragment kept.
    const back = (await run(loader as Handler, `${LIST}?error=choose`)) as Response;
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toBe(
      "/customer/invoices-and-payments/invoices?status=all&error=choose#errors",
    );
    const shown = (await run(loader as Handler, `${LIST}?status=all&error=choose`)) as List;
    expect(shown.error).toBe("choose");
  });
});

describe("the row's checkbox", () => {
  it("is offered for exactly the statuses the payment service takes", () => {
    const offered = [1, 2, 3, 4, 5, 6, 7, 8].filter(
      (status) => invoiceRowStatus({ status, balanceCents: 100, dueDate: "2099-01-01" }, today, String).payable,
    );
    expect(offered).toEqual([...PAYABLE_STATUSES]);
  });
});

describe("the pay page with nothing it can take", () => {
  it("sends the person back to the list with the error: no invoice, a disputed one, or a stranger's id", async () => {
    const disputed = await handle.db
      .selectFrom("invoices")
      .select("id")
      .where("account_id", "=", accountId)
      .where("status", "=", 6)
      .executeTakeFirstOrThrow();
    const pay = `${ORIGIN}/customer/invoices-and-payments/pay`;
    for (const url of [pay, `${pay}?invoice=${disputed.id}`, `${pay}?invoice=00000000-0000-4000-8000-000000000000`]) {
      const answer = (await run(payLoader as Handler, url)) as Response;
      expect(answer.status, url).toBe(302);
      expect(answer.headers.get("location"), url).toBe(CHOOSE_INVOICES_PATH);
    }
    const payable = await handle.db
      .selectFrom("invoices")
      .select("id")
      .where("account_id", "=", accountId)
      .where("status", "in", [1, 3])
      .where("balance_cents", ">", 0)
      .executeTakeFirstOrThrow();
    const page = (await run(payLoader as Handler, `${pay}?invoice=${payable.id}`)) as { invoices: unknown[] };
    expect(page.invoices).toHaveLength(1);
  });
});
