import { describe, expect, it } from "vitest";
import { readPdf, rolesOf } from "../../../tests/support/pdf-reader";
import { invoicePdf, type InvoicePdfInput } from "./invoice-pdf.server";
import { TaggedPdf } from "./pdf.server";

/**
 * The PDF builder on its own (issue 34, decision 089): a long table breaks across pages with every page
 * numbered as an artifact (never in the structure a screen reader reads), the document's language follows
 * the page's, and text a reader extracts keeps its word breaks.
 */
const BRAND = { businessName: "Kiwi Freight Co.", colour: "#1b5e20", logoPng: null };
const META = {
  title: "A long table",
  lang: "en-AU",
  subject: "A test",
  pageOf: (page: number, pages: number) => `Page ${page} of ${pages}`,
  logoAlt: "Kiwi Freight Co. logo",
};

describe("TaggedPdf", () => {
  it("breaks a long table across pages, numbers every page outside the structure, and keeps one table", async () => {
    const pdf = new TaggedPdf(META, BRAND);
    pdf.heading(1, "Lines");
    pdf.table(
      [{ header: "Reference" }, { header: "Amount", align: "right", width: 100 }],
      Array.from({ length: 120 }, (_, index) => [`Line ${index + 1}`, `$${index + 1}.00`]),
    );
    const read = await readPdf(await pdf.finish());
    expect(read.pages.length).toBeGreaterThan(2);
    read.pages.forEach((text, index) => expect(text).toContain(`Page ${index + 1} of ${read.pages.length}`));
    // Each page number is an artifact, and nothing else on the page is.
    read.artifacts.forEach((text, index) =>
      expect(text).toBe(`Kiwi Freight Co. · Page ${index + 1} of ${read.pages.length}`),
    );
    expect(read.text).toContain("Line 1");
    expect(read.text).toContain("Line 120");
    // One table, one header row with its column scopes; the page numbers are artifacts, in no element.
    const roles = read.trees.flatMap(rolesOf);
    expect(roles.filter((role) => role === "Table").length).toBeGreaterThan(0);
    expect(new Set(read.headerScopes)).toEqual(new Set(["/Column"]));
    // The logo is absent (none given): the name stands alone, and there is no figure without words.
    expect(roles).not.toContain("Figure");
    expect(read.fontsEmbedded).toBe(true);
  });

  it("draws a long ledger a block at a time: one table, its header tagged once and repeated as an artifact, objects packed", async () => {
    const pdf = new TaggedPdf(META, BRAND);
    pdf.heading(1, "Statement");
    async function* blocks() {
      for (let start = 0; start < 300; start += 100) {
        yield Array.from({ length: 100 }, (_, index) => [
          `Line ${start + index + 1}`,
          index % 9 === 0 ? "A description long enough to run onto a second line of its cell in the ledger" : "",
          `$${start + index + 1}.00`,
        ]);
      }
    }
    await pdf.ledger(
      [
        { header: "Reference", width: 90 },
        { header: "Details", wrap: true },
        { header: "Amount", align: "right", width: 90 },
      ],
      blocks(),
    );
    pdf.list(["The first point", "The second point"]);
    const bytes = await pdf.finish();
    // Packed into compressed object streams (PDF 1.5): no structure element stands in the file as plain text.
    expect(bytes.toString("latin1")).toContain("/Type /ObjStm");
    expect(bytes.toString("latin1")).not.toContain("/S /TD");
    const read = await readPdf(bytes);
    expect(read.pages.length).toBeGreaterThan(3);
    expect(read.text).toContain("Line 1");
    expect(read.text).toContain("Line 300");
    const roles = read.trees.flatMap(rolesOf);
    // One TH per column in the file, once: the header drawn again on later pages is an artifact.
    expect(read.headerScopes).toEqual(["/Column", "/Column", "/Column"]);
    for (const page of read.artifacts.slice(1)) expect(page).toContain("Reference Details Amount");
    expect(read.artifacts[0]).not.toContain("Reference");
    expect(roles).toEqual(expect.arrayContaining(["L", "LI", "Lbl", "LBody"]));
    expect(read.text).toContain("The second point");
  });

  it("keeps the words of a line break apart, and names (with macrons) as text", async () => {
    const pdf = new TaggedPdf(META, BRAND);
    pdf.facts([["Billed to", "Ōtaki Orchards (KF-500)\n2 Packhouse Lane\nHastings 4120"]]);
    const read = await readPdf(await pdf.finish());
    expect(read.text.replace(/\s+/g, " ")).toContain("Ōtaki Orchards (KF-500) 2 Packhouse Lane Hastings 4120");
  });
});

describe("invoicePdf", () => {
  const input: InvoicePdfInput = {
    brand: BRAND,
    language: "ID",
    account: { name: "Tasman Timber", number: "KF-700", address: "9 Quay St, Nelson 7010" },
    invoice: {
      number: "KF-700-INV-009",
      description: "Trade supplies",
      status: 1,
      issueDate: "10 Nov 2026",
      dueDate: "10 Des 2026",
      amount: "$750.00",
      balance: "$750.00",
      daysOverdue: 0,
      promiseDate: null,
      disputeReason: null,
      payable: true,
      payments: [],
    },
    payId: null,
    payUrl: "https://kiwi.example/",
  };

  it("is in the page's language: its words, its title and the language it declares", async () => {
    const read = await readPdf(await invoicePdf(input));
    expect(read.lang).toBe("id");
    expect(read.title).toBe("Faktur KF-700-INV-009");
    expect(read.text).toContain("Saldo terutang");
    expect(read.text).not.toContain("Balance owing");
  });
});
