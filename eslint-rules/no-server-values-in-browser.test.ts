import { fileURLToPath } from "node:url";
import { ESLint, RuleTester } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";
import rule, { isServerModule } from "./no-server-values-in-browser.js";

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const ruleTester = new RuleTester({
  languageOptions: {
    parser: tseslint.parser,
    parserOptions: { ecmaFeatures: { jsx: true } },
  },
});

const ROUTE = "app/routes/customer.invoices-and-payments.invoices.tsx";
const SHARED = "app/components/Pager.tsx";
const IMPORT = `import { INVOICE_PAGE_SIZE, listInvoices } from "~/services/payments/invoices.server";\n`;
const SOURCE = "~/services/payments/invoices.server";

const use = (path: string, name = "INVOICE_PAGE_SIZE", source = SOURCE) => ({
  messageId: "browserUse" as const,
  data: { name, source, path },
});

describe("isServerModule", () => {
  it("knows server-only module paths", () => {
    expect(isServerModule("~/services/payments/invoices.server")).toBe(true);
    expect(isServerModule("./thing.server.ts")).toBe(true);
    expect(isServerModule("../db.server/index")).toBe(true);
    expect(isServerModule("~/services/anything")).toBe(true);
    expect(isServerModule("~/lib/format")).toBe(false);
    expect(isServerModule("~/lib/serverless")).toBe(false);
    expect(isServerModule("@remix-run/server-runtime")).toBe(false);
  });
});

ruleTester.run("no-server-values-in-browser (route modules)", rule, {
  valid: [
    {
      name: "the real bug's constant, used only in the loader",
      filename: ROUTE,
      code:
        IMPORT +
        `export async function loader() {
           const page = await listInvoices();
           return { pages: Math.ceil(page.total / INVOICE_PAGE_SIZE) };
         }
         export default function Invoices() {
           const { pages } = useLoaderData<typeof loader>();
           return <p>{pages}</p>;
         }`,
    },
    {
      name: "used by a helper that only the loader calls",
      filename: ROUTE,
      code:
        IMPORT +
        `function pageCount(total: number) { return Math.ceil(total / INVOICE_PAGE_SIZE); }
         export const loader = async () => ({ pages: pageCount((await listInvoices()).total) });
         export default function Invoices() { return <p>{useLoaderData<typeof loader>().pages}</p>; }`,
    },
    {
      name: "used by a pure top-level constant that only the loader reads",
      filename: ROUTE,
      code:
        IMPORT +
        `const DOUBLE_PAGE = INVOICE_PAGE_SIZE * 2;
         export function loader() { return { size: DOUBLE_PAGE }; }
         export default function Invoices() { return null; }`,
    },
    {
      name: "action and headers are server-only too",
      filename: ROUTE,
      code:
        IMPORT +
        `export const action = async () => ({ size: INVOICE_PAGE_SIZE });
         export function headers() { return { "X-Page-Size": String(INVOICE_PAGE_SIZE) }; }
         export default function Invoices() { return null; }`,
    },
    {
      name: "type-only imports and typeof in types",
      filename: ROUTE,
      code: `import type { Invoice } from "~/services/payments/invoices.server";
         import { type InvoicePage, INVOICE_PAGE_SIZE } from "~/services/payments/invoices.server";
         type Size = typeof INVOICE_PAGE_SIZE;
         export default function Invoices({ invoice, page }: { invoice: Invoice; page: InvoicePage }) {
           const size = 10 as unknown as typeof INVOICE_PAGE_SIZE satisfies Size;
           return <p>{invoice.id}{page.total}{size}</p>;
         }`,
    },
    {
      name: "exports that Remix leaves out of the browser bundle may use server values",
      filename: ROUTE,
      code:
        IMPORT +
        `export function pageSizeForTests() { return INVOICE_PAGE_SIZE; }
         export { INVOICE_PAGE_SIZE };
         export default function Invoices() { return null; }`,
    },
    {
      name: "a local variable with the same name as a server import is not the import",
      filename: ROUTE,
      code:
        IMPORT +
        `export default function Invoices() { const INVOICE_PAGE_SIZE = 25; return <p>{INVOICE_PAGE_SIZE}</p>; }`,
    },
    {
      name: "values from lib and components are fine anywhere",
      filename: ROUTE,
      code: `import { formatMoney } from "~/lib/format";
         export default function Invoices() { return <p>{formatMoney(100)}</p>; }`,
    },
    {
      name: "a resource route (no browser exports) may use server values at will",
      filename: "app/routes/api.invoices.ts",
      code:
        IMPORT +
        `function json() { return { size: INVOICE_PAGE_SIZE }; }
         export const loader = () => json();`,
    },
  ],
  invalid: [
    {
      name: "the real bug: the page size used in the component",
      filename: ROUTE,
      code:
        IMPORT +
        `export async function loader() { return { page: 1, total: (await listInvoices()).total }; }
         export default function Invoices() {
           const { page, total } = useLoaderData<typeof loader>();
           const first = total === 0 ? 0 : (page - 1) * INVOICE_PAGE_SIZE + 1;
           return <p>{first}</p>;
         }`,
      errors: [{ ...use("the default export (the component) → `Invoices`"), line: 5 }],
    },
    {
      name: "used by a helper that the component calls",
      filename: ROUTE,
      code:
        IMPORT +
        `function firstRow(page: number) { return (page - 1) * INVOICE_PAGE_SIZE + 1; }
         export function loader() { return { page: 1 }; }
         export default function Invoices() { return <p>{firstRow(useLoaderData<typeof loader>().page)}</p>; }`,
      errors: [{ ...use("the default export (the component) → `Invoices` → `firstRow`"), line: 2 }],
    },
    {
      name: "a helper called from both the loader and the component",
      filename: ROUTE,
      code:
        IMPORT +
        `const pages = (total: number) => Math.ceil(total / INVOICE_PAGE_SIZE);
         export function loader() { return { pages: pages(40) }; }
         export default function Invoices() { return <p>{pages(40)}</p>; }`,
      errors: [use("the default export (the component) → `Invoices` → `pages`")],
    },
    {
      name: "meta, links, handle, ErrorBoundary, clientLoader are browser code",
      filename: ROUTE,
      code:
        IMPORT +
        `export const meta = () => [{ title: String(INVOICE_PAGE_SIZE) }];
         export function links() { return [{ rel: "next", href: "?size=" + INVOICE_PAGE_SIZE }]; }
         export const handle = { pageSize: INVOICE_PAGE_SIZE };
         export function ErrorBoundary() { return <p>{INVOICE_PAGE_SIZE}</p>; }
         export async function clientLoader() { return listInvoices(); }`,
      errors: [
        use("the `meta` export"),
        use("the `links` export"),
        use("the `handle` export"),
        use("the `ErrorBoundary` export"),
        use("the `clientLoader` export", "listInvoices"),
      ],
    },
    {
      name: "code that runs when the module loads runs in the browser",
      filename: ROUTE,
      code:
        IMPORT +
        `if (INVOICE_PAGE_SIZE > 100) throw new Error("too big");
         export default function Invoices() { return null; }`,
      errors: [use("(module top-level code)")],
    },
    {
      name: "a top-level call is kept in the browser bundle even when only the loader reads its result",
      filename: ROUTE,
      code:
        IMPORT +
        `const schema = z.object({ size: z.number().max(INVOICE_PAGE_SIZE) });
         export function loader() { return schema.parse({}); }
         export default function Invoices() { return null; }`,
      errors: [use("(module top-level code)")],
    },
    {
      name: "a higher-order loader runs on load: its wrapper from a .server module is undefined there",
      filename: ROUTE,
      code: `import { withAccount } from "~/services/accounts/portal.server";
         export const loader = withAccount(async () => ({ ok: true }));
         export default function Invoices() { return null; }`,
      errors: [use("(module top-level code)", "withAccount", "~/services/accounts/portal.server")],
    },
    {
      name: "a component from a server module, namespace imports, default exports by name",
      filename: ROUTE,
      code: `import { InvoiceTable } from "./invoice-table.server";
         import * as invoices from "~/services/payments/invoices.server";
         const Page = () => <InvoiceTable size={invoices.INVOICE_PAGE_SIZE} />;
         export default Page;`,
      errors: [
        use("the default export (the component) → `Page`", "InvoiceTable", "./invoice-table.server"),
        use("the default export (the component) → `Page`", "invoices"),
      ],
    },
    {
      name: "an anonymous default export",
      filename: ROUTE,
      code: IMPORT + `export default () => <p>{INVOICE_PAGE_SIZE}</p>;`,
      errors: [use("the default export (the component)")],
    },
    {
      name: "a server value exported under a browser name",
      filename: ROUTE,
      code: `import { invoiceMeta } from "~/services/payments/invoices.server";
         export { invoiceMeta as meta };
         export { links } from "~/services/host/branding.server";
         export * from "./more.server";`,
      errors: [
        use("the `meta` export", "invoiceMeta"),
        { messageId: "browserReExport", data: { source: "~/services/host/branding.server", name: "links" } },
        { messageId: "browserReExport", data: { source: "./more.server", name: "*" } },
      ],
    },
  ],
});

ruleTester.run("no-server-values-in-browser (components and lib)", rule, {
  valid: [
    {
      name: "type-only imports from a server module",
      filename: SHARED,
      options: [{ mode: "shared" }],
      code: `import type { Invoice } from "~/services/payments/invoices.server";
         import { type InvoicePage } from "~/services/payments/invoices.server";
         export function Pager(props: { invoice: Invoice; page: InvoicePage }) { return <p>{props.invoice.id}</p>; }`,
    },
    {
      name: "lib imports",
      filename: SHARED,
      options: [{ mode: "shared" }],
      code: `import { formatMoney } from "~/lib/format";
         export const Money = ({ cents }: { cents: number }) => <>{formatMoney(cents)}</>;`,
    },
  ],
  invalid: [
    {
      name: "any value import, even one only a server-looking function uses",
      filename: SHARED,
      options: [{ mode: "shared" }],
      code: `import { INVOICE_PAGE_SIZE } from "~/services/payments/invoices.server";
         export function loader() { return INVOICE_PAGE_SIZE; }`,
      errors: [{ messageId: "sharedImport", data: { source: SOURCE } }],
    },
    {
      name: "an unused import, a bare import and a re-export",
      filename: "app/lib/thing.ts",
      options: [{ mode: "shared" }],
      code: `import { logger } from "./log.server";
         import "~/services/platform/env";
         export { getDb } from "../services/platform/database.server";`,
      errors: [
        { messageId: "sharedImport", data: { source: "./log.server" } },
        { messageId: "sharedImport", data: { source: "~/services/platform/env" } },
        { messageId: "sharedImport", data: { source: "../services/platform/database.server" } },
      ],
    },
  ],
});

describe("the project's eslint.config.js", () => {
  const eslint = new ESLint({ cwd: fileURLToPath(new URL("..", import.meta.url)) });
  const ruleIds = async (code: string, filePath: string) =>
    (await eslint.lintText(code, { filePath }))[0]!.messages.map((m) => `${m.ruleId}:${m.messageId ?? m.message}`);
  const route =
    IMPORT +
    `export async function loader() { return { total: (await listInvoices()).total }; }
export default function Invoices() {
  return <p>{INVOICE_PAGE_SIZE}</p>;
}
`;

  // Routes import the services through their folder's front door (decisions 054 and 065); the reachability rule
  // applies to it as to any.
  const routeViaServices = route.replace(SOURCE, "./portal.server");

  it("checks route modules and root.tsx by reachability", async () => {
    for (const file of [
      "app/routes/_portal+/some.page.tsx",
      "app/root.tsx",
      "app/routes/_portal+/invoices+/_index.tsx",
    ]) {
      expect(await ruleIds(routeViaServices, file)).toEqual(["local/no-server-values-in-browser:browserUse"]);
    }
  });

  it("makes route modules and root.tsx take services from their folder's front door only", async () => {
    for (const file of [
      "app/routes/_portal+/some.page.tsx",
      "app/root.tsx",
      "app/routes/_portal+/invoices+/_index.tsx",
    ]) {
      expect(await ruleIds(route, file)).toEqual([
        "no-restricted-imports:patternWithCustomMessage",
        "local/no-server-values-in-browser:browserUse",
      ]);
    }
    const ok = `import { listInvoices } from "./portal.server";\nexport const loader = () => listInvoices();\n`;
    expect(await ruleIds(ok, "app/routes/_portal+/some.page.tsx")).toEqual([]);
    const otherDoor = `import { listInvoices } from "../_link+/link.server";\nexport const loader = () => listInvoices();\n`;
    expect(await ruleIds(otherDoor, "app/routes/_portal+/some.page.tsx")).toEqual([
      "no-restricted-imports:patternWithCustomMessage",
    ]);
    const relative = `import { x } from "../services/payments/invoices.server";\nexport const loader = () => x;\n`;
    expect(await ruleIds(relative, "app/routes/_portal+/some.page.tsx")).toEqual([
      "no-restricted-imports:patternWithCustomMessage",
    ]);
  });

  it("forbids any server import in components, lib and themes", async () => {
    const code = `import { logger } from "~/services/platform/logger.server";\nexport const log = () => logger;\n`;
    const files = [
      "app/components/Thing.tsx",
      "app/lib/thing.ts",
      "app/themes/thing.css.ts",
      "app/entry.client.tsx",
      "app/utils/new-folder.ts",
      "app/routes/_portal+/invoices+/components/table.tsx", // a route folder's private module is not a route module
    ];
    for (const file of files) {
      expect(await ruleIds(code, file)).toEqual(["local/no-server-values-in-browser:sharedImport"]);
    }
  });

  it("refuses a cast on an action's reply: the reply is typed by the action", async () => {
    const page = (read: string) =>
      `import { useActionData, useFetcher } from "@remix-run/react";
export async function action() { return { saved: true }; }
export default function Page() {
  const fetcher = useFetcher<typeof action>();
  const reply = ${read};
  const last = useActionData<typeof action>();
  return <p>{String(reply)}{String(last)}{fetcher.state}</p>;
}
`;
    const file = "app/routes/_portal+/some.page.tsx";
    for (const read of [
      "useActionData() as { saved: boolean } | undefined",
      "useActionData<typeof action>() as unknown as { saved: boolean }",
      "useActionData<{ saved: boolean }>()",
      "fetcher.data as { saved: boolean } | undefined",
      "useFetcher().data as { saved: boolean } | undefined",
    ]) {
      expect(await ruleIds(page(read), file), read).toEqual(["no-restricted-syntax:restrictedSyntax"]);
    }
    expect(await ruleIds(page("useActionData<typeof action>()"), file)).toEqual([]);
    expect(await ruleIds(page("fetcher.data"), file)).toEqual([]);
    // A shared hook posting to several pages' actions names the reply's type from app/lib; it may not cast one.
    const hook = `import { useFetcher } from "@remix-run/react";\nimport type { PayFormReply } from "~/lib/pay-form";\nexport const useQuote = () => useFetcher<PayFormReply>().data;\n`;
    expect(await ruleIds(hook, "app/components/PayForm/useQuote.ts")).toEqual([]);
    // Components and hooks take a reply too; a test may build one however it likes.
    expect(await ruleIds(page("useActionData() as { saved: boolean }"), "app/components/Thing.tsx")).toEqual([
      "no-restricted-syntax:restrictedSyntax",
    ]);
    expect(
      await ruleIds(page("useActionData() as { saved: boolean }"), "app/routes/_portal+/some.page.test.tsx"),
    ).toEqual([]);
  });

  it("leaves server modules and tests alone", async () => {
    expect(await ruleIds(route, "app/services/payments/thing.server.tsx")).toEqual([]);
    expect(await ruleIds(route, "app/routes/_portal+/some.page.test.tsx")).toEqual([]);
    // A route folder's front door re-exports from any service (decision 065).
    const door = `export { listInvoices } from "~/services/payments/invoices.server";\n`;
    expect(await ruleIds(door, "app/routes/_portal+/portal.server.ts")).toEqual([]);
    expect(await ruleIds(route, "app/entry.server.tsx")).toEqual([]);
  });
});
