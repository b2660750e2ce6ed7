import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import { createSession } from "~/services/auth/session.server";
import { createInvoiceLink } from "~/services/links/invoice-links.server";
import { openSeededPglite } from "../../../tests/support/test-db";
import { pdfOf, statusOf } from "../../../tests/support/route-answers";
import { paymentRequestFixtures } from "../../../tests/support/payment-request-fixtures";
import { elementsOf, rolesOf } from "../../../tests/support/pdf-reader";
import { loader as invoicePage } from "./customer.invoices-and-payments+/invoice.$invoiceId";
import { loader as invoicePdf } from "./customer.invoices-and-payments+/invoice.$invoiceId_.pdf";
import { loader as linkPage } from "./customer.invoices-and-payments+/$token";
import { loader as linkPdf } from "./customer.invoices-and-payments+/$token_.pdf";
import { loader as requestInvoicePage } from "./customer.payment-request.$token_.invoice.$invoiceId";
import { loader as requestInvoicePdf } from "./customer.payment-request.$token_.invoice.$invoiceId_.pdf";

/**
 * An invoice as a PDF to file (issue 34): signed in, through a payment request's link and through the
 * invoice's own link. Each PDF says what its page says (read back as a reader reads it), is tagged for
 * assistive technology, and has exactly its page's access: whatever is "not found" as a page is "not
 * found" as a PDF.
 */
const HOST = "acme.localhost";
const ORIGIN = `http://${HOST}`;

let handle: DatabaseHandle;
let fx: ReturnType<typeof paymentRequestFixtures>;
let scope: { businessId: string; accountId: string; contactId: string };
let kiwi: { businessId: string; accountId: string; contactId: string };
let cookie = "";

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  fx = paymentRequestFixtures(handle);
  scope = await fx.actorOf("olivia@coastal.example", "ACME-1000");
  kiwi = await fx.actorOf("aroha@orchards.example", "KF-500");
  cookie = (
    await createSession(new Request(`${ORIGIN}/`, { headers: { host: HOST } }), {
      businessId: scope.businessId,
      contactId: scope.contactId,
      authMethod: "credentials",
    })
  ).split(";")[0]!;
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
});

type Handler = (args: { request: Request; params: Record<string, string>; context: object }) => unknown;
/** A loader's answer: a Response (a PDF, or a thrown 404 or redirect), or the page's data. */
async function run(handler: unknown, path: string, params: Record<string, string>, signedIn = false) {
  const request = new Request(`${ORIGIN}${path}`, { headers: { host: HOST, ...(signedIn ? { cookie } : {}) } });
  try {
    return (await (handler as Handler)({ request, params, context: {} })) as unknown;
  } catch (thrown) {
    return thrown;
  }
}
type Facts = {
  number: string;
  description: string;
  issueDate: string;
  dueDate: string;
  amount: string;
  balance: string;
};

/** What every invoice PDF must say of its invoice: the page's own words and figures. */
function expectTheFacts(text: string, facts: Facts) {
  for (const value of [
    `Invoice ${facts.number}`,
    facts.description,
    facts.issueDate,
    facts.dueDate,
    facts.amount,
    facts.balance,
  ]) {
    expect(text).toContain(value);
  }
}

describe("the invoice PDF, signed in", () => {
  it("says what the invoice page says, in an accessible file named for the business and the invoice", async () => {
    const [invoice] = await fx.invoices(scope, [123_456]);
    const params = { invoiceId: invoice!.id };
    const page = (await run(invoicePage, `/customer/invoices-and-payments/invoice/${invoice!.id}`, params, true)) as {
      invoice: Facts & { payable: boolean };
      account: { name: string; number: string };
    };
    expect(page.invoice.payable).toBe(true);
    const { response, pdf } = await pdfOf(
      await run(invoicePdf, `/customer/invoices-and-payments/invoice/${invoice!.id}/pdf`, params, true),
    );
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toContain(
      `attachment; filename="Acme-Plumbing-Supplies-${invoice!.number}.pdf"`,
    );
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");

    expectTheFacts(pdf.text, page.invoice);
    expect(page.invoice.amount).toBe("$1,234.56");
    expect(pdf.text).toContain(`${page.account.name} (${page.account.number})`);
    expect(pdf.text).toContain("Balance owing");
    // Owing: how to pay, with the portal's own address (and no link token: there is none signed in).
    expect(pdf.text).toContain("How to pay");
    expect(pdf.text).toMatch(/sign in at http:\/\/acme\.localhost(:\d+)?\/ and choose Pay/);

    // Tagged for assistive technology (PDF/UA-1's checks that a reader can make of the file).
    expect(pdf.title).toBe(`Invoice ${invoice!.number}`);
    expect(pdf.displayDocTitle).toBe(true);
    expect(pdf.lang).toBe("en-AU");
    expect(pdf.marked).toBe(true);
    expect(pdf.pdfUaPart).toBe("1");
    expect(pdf.fontsEmbedded).toBe(true);
    const [tree] = pdf.trees;
    const roles = rolesOf(tree!);
    expect(roles[0]).toBe("Root");
    expect(roles).toEqual(expect.arrayContaining(["Document", "Figure", "H1", "H2", "Table", "TR", "TH", "TD", "P"]));
    // Headings in order, none skipped: H1 first, then H2s.
    expect(roles.filter((role) => /^H\d$/.test(role))[0]).toBe("H1");
    // The logo has its words; every header cell says which way it heads.
    expect(elementsOf(tree!).find((node) => node.role === "Figure")?.alt).toBe("Acme Plumbing Supplies logo");
    expect(pdf.headerScopes.length).toBeGreaterThan(0);
    expect(pdf.headerScopes.every((scope) => scope === "/Row" || scope === "/Column")).toBe(true);
  });

  it("is the page's 'not found' for another account's or business's invoice, or an id that is none", async () => {
    const [mine] = await fx.invoices(scope, [1_000]);
    const [foreign] = await fx.invoices(kiwi, [2_000]);
    // Another account of the same business, which this contact is not on.
    const otherAccount = await handle.db
      .selectFrom("invoices")
      .innerJoin("accounts", "accounts.id", "invoices.account_id")
      .select("invoices.id")
      .where("accounts.business_id", "=", scope.businessId)
      .where("accounts.id", "not in", (db) =>
        db.selectFrom("account_contacts").select("account_id").where("contact_id", "=", scope.contactId),
      )
      .executeTakeFirstOrThrow();
    for (const invoiceId of [foreign!.id, otherAccount.id, randomUUID(), "../../etc/passwd", "x".repeat(5_000)]) {
      const path = `/customer/invoices-and-payments/invoice/${invoiceId}`;
      const page = await run(invoicePage, path, { invoiceId }, true);
      const pdf = await run(invoicePdf, `${path}/pdf`, { invoiceId }, true);
      expect([statusOf(page), statusOf(pdf)], invoiceId.slice(0, 40)).toEqual([404, 404]);
    }
    // Signed out: the sign-in page, as for the page.
    const signedOut = await run(invoicePdf, `/customer/invoices-and-payments/invoice/${mine!.id}/pdf`, {
      invoiceId: mine!.id,
    });
    expect(statusOf(signedOut)).toBe(302);
  });
});

describe("the invoice PDF through an emailed link", () => {
  it("through a payment request's link: the request's own invoices only, and the link is not in the file", async () => {
    const [covered, notCovered] = await fx.invoices(scope, [1_500, 1_600]);
    const [foreign] = await fx.invoices(kiwi, [1_700]);
    const request = await fx.request(scope, { invoices: [covered!] });
    const { token } = await fx.link(scope, request.id);
    const path = (invoiceId: string) => `/customer/payment-request/${token}/invoice/${invoiceId}`;
    const page = (await run(requestInvoicePage, path(covered!.id), { token, invoiceId: covered!.id })) as {
      invoice: Facts;
      pdfHref: string;
    };
    expect(page.pdfHref).toBe(`${path(covered!.id)}/pdf`);
    const { pdf } = await pdfOf(await run(requestInvoicePdf, page.pdfHref, { token, invoiceId: covered!.id }));
    expectTheFacts(pdf.text, page.invoice);
    expect(pdf.text).not.toContain(token);
    expect(pdf.text).not.toContain("How to pay");
    for (const invoiceId of [notCovered!.id, foreign!.id, randomUUID(), "../../etc/passwd"]) {
      const answer = await run(requestInvoicePdf, `${path(invoiceId)}/pdf`, { token, invoiceId });
      expect(statusOf(answer), invoiceId).toBe(404);
    }
    const guessed = "A".repeat(59);
    const answer = await run(requestInvoicePdf, `/customer/payment-request/${guessed}/invoice/${covered!.id}/pdf`, {
      token: guessed,
      invoiceId: covered!.id,
    });
    expect(statusOf(answer)).toBe(404);
  });

  it("through the invoice's own link: its invoice while the link is valid, nothing once it has expired", async () => {
    const [invoice] = await fx.invoices(scope, [25_000]);
    const { token } = await createInvoiceLink(
      scope.businessId,
      invoice!.id,
      scope.contactId,
      new Date(Date.now() + 86_400_000),
    );
    const page = (await run(linkPage, `/customer/invoices-and-payments/${token}`, { token })) as {
      invoice: Facts;
      pdfHref: string;
    };
    expect(page.pdfHref).toBe(`/customer/invoices-and-payments/${token}/pdf`);
    const { response, pdf } = await pdfOf(await run(linkPdf, page.pdfHref, { token }));
    expect(response.headers.get("content-disposition")).toContain(`Acme-Plumbing-Supplies-${invoice!.number}.pdf`);
    expectTheFacts(pdf.text, page.invoice);
    expect(pdf.text).not.toContain(token);

    // Expired: the page names the invoice's number and whom to ask, and there is no PDF.
    await handle.db
      .updateTable("link_tokens")
      .set({ expires_at: new Date(Date.now() - 60_000) })
      .where("subject_id", "=", invoice!.id)
      .execute();
    const closed = (await run(linkPage, `/customer/invoices-and-payments/${token}`, { token })) as { kind: string };
    expect(closed.kind).toBe("link-closed");
    expect(statusOf(await run(linkPdf, page.pdfHref, { token }))).toBe(404);
    const guessed = "B".repeat(59);
    expect(statusOf(await run(linkPdf, `/customer/invoices-and-payments/${guessed}/pdf`, { token: guessed }))).toBe(
      404,
    );
  });
});
