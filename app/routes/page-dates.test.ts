import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "~/lib/instalments";
import { todayIn } from "~/lib/dates";
import { createSession } from "~/services/auth/session.server";
import { languageCookie } from "~/services/host/language.server";
import { createLinkToken } from "~/services/links/link-tokens.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { currentQueryCount, withRequestScope } from "~/services/platform/request-scope.server";
import { proposeSchedule } from "~/services/schedules/commands.server";
import { paymentRequestFixtures } from "../../tests/support/payment-request-fixtures";
import { scheduleFixtures } from "../../tests/support/schedule-fixtures";
import { createSeededPostgresDatabase, openSeededPglite, TEST_DATABASE_URL } from "../../tests/support/test-db";
import { loader as rootLoader } from "../root";
import { loader as dashboardLoader } from "./_portal+/_index";
import { loader as statementsLoader } from "./_portal+/statements";
import { loader as invoicesLoader } from "./_link+/customer.invoices-and-payments+/invoices";
import { loader as requestLinkLoader } from "./_link+/customer.payment-request.$token";
import { loader as scheduleLinkLoader } from "./_customer+/payment-schedule.acceptance.$slug";

/**
 * Every date a page shows follows the page's language (issue 32; decision 078, update 2026-12-04):
 * Kiwi has the Language toggle on, so with the language cookie at "ID" the dashboard, statements,
 * invoices, a payment request's link page and a schedule's proposal write "13 Des 2026" and no
 * English month; without it, "Dec 13, 2026". The loaders learn the language as the root loader
 * decides it and share its reading: the page runs as many statements in Bahasa Indonesia as in
 * English. On both databases.
 */
const HOST = "kiwi.localhost";
const ORIGIN = `http://${HOST}`;
const ENGLISH_DATE = /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}, \d{4}\b/;
const INDONESIAN_DATE = /\b\d{1,2} (Jan|Feb|Mar|Apr|Mei|Jun|Jul|Agu|Sep|Okt|Nov|Des) \d{4}\b/;

type Loader = (args: { request: Request; params: Record<string, string>; context: object }) => unknown;

function pageDatesSuite(open: () => Promise<{ handle: DatabaseHandle; close: () => Promise<void> }>) {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  let session = "";
  let indonesian = "";
  let requestToken = "";
  let scheduleToken = "";

  beforeAll(async () => {
    ({ handle, close } = await open());
    setDatabaseForTesting(handle);
    const fx = paymentRequestFixtures(handle);
    const aroha = await fx.actorOf("aroha@orchards.example", "KF-500");
    session = (
      await createSession(new Request(`${ORIGIN}/`, { headers: { host: HOST } }), {
        businessId: aroha.businessId,
        contactId: aroha.contactId,
        authMethod: "credentials",
      })
    ).split(";")[0]!;
    indonesian = (await languageCookie.serialize("ID")).split(";")[0]!;
    const request = await fx.request(aroha, { amountCents: 12_500 });
    requestToken = (await fx.link(aroha, request.id)).token;
    const schedules = scheduleFixtures(handle.db);
    const scope = await schedules.account(aroha.businessId);
    const schedule = await proposeSchedule(aroha.businessId, {
      account: scope.accountNumber,
      contact: scope.email,
      amountCents: 600_00,
      description: "Three monthly parts",
      instalments: { count: 3, frequency: "monthly", firstDate: addDays(todayIn("Pacific/Auckland", new Date()), 6) },
    });
    scheduleToken = (
      await createLinkToken(handle.db, {
        businessId: aroha.businessId,
        purpose: "payment-schedule",
        subjectId: schedule.id,
        contactId: scope.contactId,
        expiresAt: new Date(schedule.expiresAt),
      })
    ).token;
  });
  afterAll(async () => {
    setDatabaseForTesting(undefined);
    await close();
  });

  const pages: { name: string; path: () => string; loader: Loader; params: () => Record<string, string> }[] = [
    { name: "the dashboard", path: () => "/", loader: dashboardLoader as Loader, params: () => ({}) },
    { name: "statements", path: () => "/statements", loader: statementsLoader as Loader, params: () => ({}) },
    {
      name: "invoices and payments",
      path: () => "/customer/invoices-and-payments/invoices",
      loader: invoicesLoader as Loader,
      params: () => ({}),
    },
    {
      name: "a payment request's link page",
      path: () => `/customer/payment-request/${requestToken}`,
      loader: requestLinkLoader as Loader,
      params: () => ({ token: requestToken }),
    },
    {
      name: "a schedule's proposal by link",
      path: () => `/payment-schedule/acceptance/${scheduleToken}`,
      loader: scheduleLinkLoader as Loader,
      params: () => ({ slug: scheduleToken }),
    },
  ];

  /** The root loader and the page's, in one request scope as the server runs them: the page's text and its statements. */
  async function render(page: (typeof pages)[number], language: "en" | "id") {
    const cookie = [session, ...(language === "id" ? [indonesian] : [])].join("; ");
    const request = new Request(`${ORIGIN}${page.path()}`, { headers: { host: HOST, cookie } });
    const { result } = withRequestScope(async () => {
      const args = { request, params: page.params(), context: {} };
      const [root, data] = await Promise.all([rootLoader(args), page.loader(args)]);
      return { root, data, statements: currentQueryCount() ?? 0 };
    });
    const { root, data, statements } = await result;
    const body =
      (data as { data?: unknown; type?: string }).type === "DataWithResponseInit"
        ? (data as { data: unknown }).data
        : data;
    return { language: root.language, text: JSON.stringify(body), statements };
  }

  for (const page of pages) {
    it(`${page.name}: Indonesian dates in Bahasa Indonesia, English ones in English, with no statement more`, async () => {
      // Once first: the process's first page reads what it then keeps (the host's brand).
      await render(page, "en");
      const id = await render(page, "id");
      expect(id.language).toBe("ID");
      expect(id.text).toMatch(INDONESIAN_DATE);
      expect(id.text).not.toMatch(ENGLISH_DATE);

      const en = await render(page, "en");
      expect(en.language).toBe("en-AU");
      expect(en.text).toMatch(ENGLISH_DATE);
      expect(en.text).not.toMatch(INDONESIAN_DATE);

      expect(id.statements).toBe(en.statements);
    });
  }
}

describe("on PGlite", () => {
  pageDatesSuite(async () => {
    const handle = await openSeededPglite();
    return { handle, close: () => handle.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("on PostgreSQL (TEST_DATABASE_URL)", () => {
  pageDatesSuite(async () => {
    const database = await createSeededPostgresDatabase();
    return { handle: database.handle, close: database.drop };
  });
});
