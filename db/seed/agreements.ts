import { createHash, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { DB } from "../../app/services/platform/db-schema.server";
import { now as clockNow } from "../../app/services/platform/clock.server";

/**
 * The demo agreements (issue 15; decision 036), for acme: a "Terms of trade" document in two
 * versions; Olivia's acceptance of version 1 (AG-DEMO0001, decided seven weeks ago); and a newer
 * offer of the same document, waiting for her (AG-DEMO0002), whose emailed link is fixed so the
 * README can link to it. Stored like every link and every decision: a selector and the SHA-256
 * of the verifier; the version's text with the SHA-256 of its UTF-8 bytes.
 */
export const DEMO_AGREEMENT_TOKEN = "DemoAcmeAgreemntDEMO-ONLY-open-this-agreement-offer-locally";
export const DEMO_AGREEMENT_REFERENCE = "AG-DEMO0002";
export const DEMO_ACCEPTED_AGREEMENT_REFERENCE = "AG-DEMO0001";

const sha256Hex = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const DAY_MS = 86_400_000;

const TERMS_V1 = `# Terms of trade

These terms apply to every order you place with Acme Plumbing Supplies on your trade account.

## Payment

- Invoices are due 30 days from the end of the month of the invoice.
- We may charge a late fee of 2% plus $5.00 on an overdue invoice.
- Card payments carry the surcharge shown before you pay.

## Goods

Goods stay ours until they are paid for in full. Tell us of any shortage or damage within 7 days of delivery.

## Credit limit

We set your account's credit limit and may change it with 14 days' notice.
`;

const TERMS_V2 = `# Terms of trade

These terms apply to every order you place with Acme Plumbing Supplies on your trade account, from 1 January.

## Payment

- Invoices are due 30 days from the end of the month of the invoice.
- We may charge a late fee of 2% plus $5.00 on an overdue invoice.
- Card payments carry the surcharge shown before you pay; PayTo payments carry none.
- You may agree a payment schedule with us for a large balance.

## Goods

Goods stay ours until they are paid for in full. Tell us of any shortage or damage within 5 business days of delivery.

## Credit limit

We set your account's credit limit and may change it with 14 days' notice.

## Privacy

We keep your account details as our privacy policy says.
`;

/**
 * Terms of trade for the demo hosts that have no agreements of their own (issue 17): a credit
 * application at /credit is accepted against the business's terms of trade (decision 038), so
 * every demo host can take one.
 */
const OTHER_TERMS: Record<string, { title: string; body: string }> = {
  "kiwi.localhost": {
    title: "Terms of trade",
    body: `# Terms of trade

These terms apply to every freight booking you make with Kiwi Freight Co. on your trade account.

## Payment

- Invoices are due on the 20th of the month after the month of the invoice.
- Card payments carry a 1.5% surcharge.

## Liability

Goods are carried at limited carrier's risk under the Contract and Commercial Law Act 2017 unless you declare a value and pay for cover.

## Credit limit

We set your account's credit limit and may change it with 14 days' notice.
`,
  },
  "harbour.localhost": {
    title: "Trade account terms",
    body: `# Trade account terms

These terms apply to energy supplied to your business on a Harbour Energy trade account.

## Payment

- Bills are due 14 days after they are issued.
- We may ask for a security deposit when a bill is paid late twice in a year.

## Credit limit

We set your account's credit limit from your application and your trade references.
`,
  },
};

export async function seedDemoAgreements(
  tx: Kysely<DB>,
  businessId: string,
  hostname: string,
  accountIds: Map<string, string>,
  contactIds: Map<string, string>,
) {
  const other = OTHER_TERMS[hostname];
  if (other) {
    const document = await tx
      .insertInto("agreement_documents")
      .values({
        business_id: businessId,
        kind: "terms-of-trade",
        title: other.title,
        created_at: new Date(clockNow().getTime() - 90 * DAY_MS),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await tx
      .insertInto("agreement_versions")
      .values({
        business_id: businessId,
        document_id: document.id,
        version: 1,
        body: other.body,
        body_sha256: sha256Hex(other.body),
        published_at: new Date(clockNow().getTime() - 90 * DAY_MS),
      })
      .execute();
    return;
  }
  if (hostname !== "acme.localhost") return;
  const now = clockNow().getTime();
  const ago = (days: number) => new Date(now - days * DAY_MS);
  const olivia = contactIds.get("olivia@coastal.example")!;
  const account = accountIds.get("ACME-1000")!;
  const document = await tx
    .insertInto("agreement_documents")
    .values({ business_id: businessId, kind: "terms-of-trade", title: "Terms of trade", created_at: ago(60) })
    .returning("id")
    .executeTakeFirstOrThrow();
  const [v1] = await tx
    .insertInto("agreement_versions")
    .values([
      {
        business_id: businessId,
        document_id: document.id,
        version: 1,
        body: TERMS_V1,
        body_sha256: sha256Hex(TERMS_V1),
        published_at: ago(60),
      },
      {
        business_id: businessId,
        document_id: document.id,
        version: 2,
        body: TERMS_V2,
        body_sha256: sha256Hex(TERMS_V2),
        published_at: ago(10),
      },
    ])
    .returning("id")
    .execute();
  const offer = (reference: string, offeredDaysAgo: number, status: "accepted" | "offered") =>
    tx
      .insertInto("agreement_offers")
      .values({
        business_id: businessId,
        account_id: account,
        contact_id: olivia,
        document_id: document.id,
        reference,
        status,
        email: "olivia@coastal.example",
        expires_at: new Date(now + (30 - offeredDaysAgo) * DAY_MS),
        sent_at: ago(offeredDaysAgo),
        send_count: 1,
        decided_at: status === "accepted" ? ago(offeredDaysAgo - 1) : null,
        created_at: ago(offeredDaysAgo),
      })
      .returning(["id", "expires_at as expiresAt", "created_at as createdAt"])
      .executeTakeFirstOrThrow();
  const accepted = await offer(DEMO_ACCEPTED_AGREEMENT_REFERENCE, 50, "accepted");
  await tx
    .insertInto("agreement_decisions")
    .values({
      business_id: businessId,
      offer_id: accepted.id,
      account_id: account,
      contact_id: olivia,
      version_id: v1!.id,
      decision: "accepted",
      typed_name: "Olivia Nguyen",
      body_sha256: sha256Hex(TERMS_V1),
      // An address from the documentation range (RFC 5737): demo data, no one's real address.
      ip_address: "203.0.113.10",
      user_agent: "Mozilla/5.0 (demo seed)",
      decided_at: ago(49),
    })
    .execute();
  const waiting = await offer(DEMO_AGREEMENT_REFERENCE, 2, "offered");
  for (const [row, token] of [
    [accepted, randomBytes(12).toString("base64url") + randomBytes(32).toString("base64url")],
    [waiting, DEMO_AGREEMENT_TOKEN],
  ] as const) {
    await tx
      .insertInto("link_tokens")
      .values({
        business_id: businessId,
        purpose: "agreement",
        subject_id: row.id,
        contact_id: olivia,
        selector: token.slice(0, 16),
        verifier_hash: sha256Hex(token.slice(16)),
        created_at: row.createdAt,
        expires_at: row.expiresAt,
      })
      .execute();
  }
}
