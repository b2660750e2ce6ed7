import { createHash, randomBytes, randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCEPTED_AGREEMENT_REFERENCE, DEMO_AGREEMENT_TOKEN } from "../../../db/seed/agreements";
import { openSeededPglite } from "../../../tests/support/test-db";
import { AGREEMENT_TEXT_MARKER } from "~/lib/agreements";
import { getPageContext } from "~/services/auth/auth.server";
import { createSession } from "~/services/auth/session.server";
import { agreementByLink, decideAction } from "~/services/agreements/agreement-page.server";
import { createAgreementDocument, publishAgreementVersion } from "~/services/agreements/commands.server";
import { createLinkToken, revokeLinkTokens } from "~/services/links/link-tokens.server";
import { fixedClock, setClockForTesting } from "~/services/platform/clock.server";
import { setDatabaseForTesting } from "~/services/platform/database.server";
import type { DatabaseHandle } from "~/services/platform/db.server";
import { CLIENT_ADDRESS_HEADER } from "~/services/platform/request-log.server";
import { action, headers, loader } from "./agreements.acceptance.$slug";
import { loader as linkDownload } from "./agreements.acceptance.$slug_.download";
import { loader as indexLoader } from "./customer.agreement+/_index";
import { loader as listLoader } from "./customer.agreement+/all";
import { loader as recordLoader } from "./customer.agreement+/$reference";
import { loader as recordDownload } from "./customer.agreement+/$reference_.download";
import { loader as homeLoader } from "./payment.payment-request.all";
import { readPdf, rolesOf } from "../../../tests/support/pdf-reader";

/**
 * The agreement pages through their loaders and actions with real Requests (issue 15; decisions
 * 031, 034 and 036): the emailed link and the signed-in page show the exact latest text and take
 * one decision — with the typed name, the checkbox to accept and the version the page showed —
 * refusing everything else with a clear answer and nothing written; the record and its download
 * carry the text byte for byte with its SHA-256; every other account's or business's offer, and
 * every token that does not check out, opens nothing.
 */
const HOST = "acme.localhost";
const ORIGIN = `http://${HOST}`;
const sha256 = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");
const TEXT = "# Card authority\n\nI authorise Acme to charge my card.\n\n- Each instalment on its day.\n";

let handle: DatabaseHandle;
let acme = "";
let kiwi = "";
const contacts: Record<string, string> = {};
const accounts: Record<string, string> = {};
const cookies: Record<string, string> = {};

beforeAll(async () => {
  handle = await openSeededPglite();
  setDatabaseForTesting(handle);
  for (const row of await handle.db.selectFrom("contacts").select(["id", "email", "business_id"]).execute()) {
    contacts[row.email] = row.id;
    if (row.email === "olivia@coastal.example") acme = row.business_id;
    if (row.email === "aroha@orchards.example") kiwi = row.business_id;
  }
  for (const row of await handle.db.selectFrom("accounts").select(["id", "number"]).execute()) {
    accounts[row.number] = row.id;
  }
  for (const who of ["olivia@coastal.example", "sam@coastal.example"]) {
    const request = new Request(`${ORIGIN}/`, { headers: { host: HOST } });
    cookies[who] = (
      await createSession(request, { businessId: acme, contactId: contacts[who]!, authMethod: "credentials" })
    ).split(";")[0]!;
  }
});
afterAll(async () => {
  setDatabaseForTesting(undefined);
  await handle.close();
});
afterEach(() => setClockForTesting(undefined));

/** An offer written straight into the database with its link (no mail), as the back office makes one. */
async function offer(
  input: { account?: string; contact?: string; expiresInMs?: number; businessId?: string; documentId?: string } = {},
) {
  const businessId = input.businessId ?? acme;
  const documentId =
    input.documentId ??
    (
      await createAgreementDocument(businessId, {
        kind: "card-authority",
        title: `Card authority ${randomUUID().slice(0, 6)}`,
        body: TEXT,
      })
    ).id;
  const contactId = contacts[input.contact ?? "olivia@coastal.example"]!;
  const expiresAt = new Date(Date.now() + (input.expiresInMs ?? 30 * 86_400_000));
  const reference = `AG-${randomBytes(5).toString("hex").toUpperCase()}`;
  const row = await handle.db
    .insertInto("agreement_offers")
    .values({
      business_id: businessId,
      account_id: accounts[input.account ?? "ACME-1000"]!,
      contact_id: contactId,
      document_id: documentId,
      reference,
      email: input.contact ?? "olivia@coastal.example",
      expires_at: expiresAt,
      sent_at: new Date(),
      send_count: 1,
      created_at: new Date(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const link = await createLinkToken(handle.db, {
    businessId,
    purpose: "agreement",
    subjectId: row.id,
    contactId,
    expiresAt,
  });
  return { id: row.id, reference, documentId, token: link.token, linkId: link.id };
}

type Handler = (args: { request: Request; params: object; context: object }) => unknown;

async function run(handler: Handler, request: Request, params: object) {
  try {
    return await handler({ request, params, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    if ((thrown as { type?: string } | null)?.type === "DataWithResponseInit") return thrown;
    throw thrown;
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Page = { status: number; data: any; headers: Headers | undefined; location?: string | null; text?: string };

async function answer(result: unknown): Promise<Page> {
  if (result instanceof Response) {
    const type = result.headers.get("content-type") ?? "";
    return {
      status: result.status,
      data: undefined,
      location: result.headers.get("location"),
      headers: result.headers,
      text: type.startsWith("text/markdown") ? await result.text() : undefined,
    };
  }
  const { data, init } = result as { data: unknown; init?: { status?: number; headers?: HeadersInit } | null };
  if (data === undefined) return { status: 200, data: result, headers: undefined };
  return { status: init?.status ?? 200, data, headers: new Headers(init?.headers) };
}

const get = (handler: Handler, path: string, params: object, who?: string) =>
  run(
    handler,
    new Request(`${ORIGIN}${path}`, { headers: { host: HOST, ...(who ? { cookie: cookies[who]! } : {}) } }),
    params,
  ).then(answer);

const open = (slug: string, who?: string, query = "") =>
  get(loader as Handler, `/agreements/acceptance/${slug}${query}`, { slug }, who);

function post(slug: string, form: Record<string, string>, options: { who?: string; origin?: string } = {}) {
  return run(
    action as Handler,
    new Request(`${ORIGIN}/agreements/acceptance/${slug}`, {
      method: "POST",
      headers: {
        host: HOST,
        origin: options.origin ?? ORIGIN,
        "content-type": "application/x-www-form-urlencoded",
        "user-agent": "Mozilla/5.0 (route test)",
        [CLIENT_ADDRESS_HEADER]: "192.0.2.44",
        ...(options.who ? { cookie: cookies[options.who]! } : {}),
      },
      body: new URLSearchParams(form).toString(),
    }),
    { slug },
  ).then(answer);
}

/** Accept (or decline) the version the page shows now. */
async function decide(slug: string, fields: Record<string, string> = {}, who?: string) {
  const page = await open(slug, who);
  return post(
    slug,
    { typedName: "Olivia Nguyen", agreed: "yes", intent: "accept", versionId: page.data.offer.versionId, ...fields },
    { who },
  );
}

const decisions = async (offerId?: string) =>
  Number(
    (
      await (
        offerId
          ? handle.db.selectFrom("agreement_decisions").where("offer_id", "=", offerId)
          : handle.db.selectFrom("agreement_decisions")
      )
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("the emailed link", () => {
  it("shows the latest version's exact text, the form and the version it shows; counts the opening, changes nothing", async () => {
    const { token, linkId, reference } = await offer();
    const page = await open(token);
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({
      kind: "open",
      businessName: "Acme Plumbing Supplies",
      offer: {
        reference,
        version: 1,
        account: "Coastal Builders Group (ACME-1000)",
        kind: "agreement.kind.card-authority",
      },
      body: TEXT,
      notice: null,
      nameMax: 200,
    });
    expect(page.data.offer.versionId).toMatch(/^[0-9a-f-]{36}$/);
    const link = await handle.db
      .selectFrom("link_tokens")
      .select(["open_count", "revoked_at"])
      .where("id", "=", linkId)
      .executeTakeFirstOrThrow();
    expect(link).toEqual({ open_count: 1, revoked_at: null });
    expect(headers({} as never)).toEqual({ "Referrer-Policy": "strict-origin", "Cache-Control": "private, no-store" });
  });

  it("opens the README's demo link: AG-DEMO0002 at version 2", async () => {
    const page = await open(DEMO_AGREEMENT_TOKEN);
    expect(page.data).toMatchObject({
      kind: "open",
      offer: { reference: "AG-DEMO0002", version: 2, title: "Terms of trade" },
    });
  });

  it("answers one 'This link isn't valid' 404 for every token that does not check out, and writes nothing", async () => {
    const { token } = await offer();
    const otherPurpose = await createLinkToken(handle.db, {
      businessId: acme,
      purpose: "payment-request",
      subjectId: randomUUID(),
      contactId: contacts["olivia@coastal.example"]!,
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    const kiwiDocument = await createAgreementDocument(kiwi, { kind: "other", title: "Kiwi terms", body: TEXT });
    const kiwiOffer = await offer({
      businessId: kiwi,
      documentId: kiwiDocument.id,
      account: "KF-500",
      contact: "aroha@orchards.example",
    });
    const before = await decisions();
    for (const bad of [
      token.slice(0, -1) + (token.endsWith("A") ? "B" : "A"),
      token.slice(0, 40),
      `${token}x`,
      otherPurpose.token,
      kiwiOffer.token,
      "ag-demo0002",
      "%3Cscript%3E",
    ]) {
      const page = await open(bad);
      expect(page.status, bad).toBe(404);
      expect(page.data, bad).toEqual({ reason: "link-invalid" });
      expect(page.headers?.get("referrer-policy"), bad).toBe("strict-origin");
      const posted = await post(bad, { typedName: "X", agreed: "yes", intent: "accept", versionId: randomUUID() });
      expect(posted.status, bad).toBe(404);
      expect((await get(linkDownload as Handler, `/agreements/acceptance/${bad}/download`, { slug: bad })).status).toBe(
        404,
      );
    }
    expect(await decisions()).toBe(before);
  });

  it("records an acceptance as the link's contact, then shows the record (never the form) and refuses a second", async () => {
    const { id, token } = await offer();
    const at = new Date("2026-12-03T23:15:02.123Z");
    setClockForTesting(fixedClock(at));
    const posted = await decide(token, { typedName: "  Olivia <b>Nguyen</b> " });
    expect(posted.status).toBe(303);
    expect(posted.location).toBe(`/agreements/acceptance/${token}?notice=recorded`);
    expect(posted.headers?.get("referrer-policy")).toBe("strict-origin");
    const row = await handle.db
      .selectFrom("agreement_decisions")
      .selectAll()
      .where("offer_id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      contact_id: contacts["olivia@coastal.example"],
      account_id: accounts["ACME-1000"],
      decision: "accepted",
      typed_name: "Olivia <b>Nguyen</b>",
      body_sha256: sha256(TEXT),
      ip_address: "192.0.2.44",
      user_agent: "Mozilla/5.0 (route test)",
    });
    const page = await open(token, undefined, "?notice=recorded");
    expect(page.data).toMatchObject({
      kind: "record",
      notice: "recorded",
      record: {
        decision: "accepted",
        name: "Olivia <b>Nguyen</b>",
        contact: "olivia@coastal.example",
      },
      downloads: {
        pdf: `/agreements/acceptance/${token}/download?format=pdf`,
        record: `/agreements/acceptance/${token}/download`,
        text: `/agreements/acceptance/${token}/download?format=text`,
      },
    });
    // The client address, the hash and the UTC instant are the business's record and the download's only.
    expect(Object.keys(page.data.record).sort()).toEqual(["contact", "decision", "name", "time"]);
    expect(page.data.record.time).toBe("Dec 4, 2026, 10:15 am");
    // Accept twice, or decline after accepting: refused, nothing written, the record stays.
    for (const intent of ["accept", "decline"]) {
      const again = await post(token, {
        typedName: "Someone",
        agreed: "yes",
        intent,
        versionId: page.data.offer.versionId,
      });
      expect(again.location).toBe(`/agreements/acceptance/${token}?notice=decided`);
    }
    expect(await decisions(id)).toBe(1);
    expect((await open(token, undefined, "?notice=decided")).data.notice).toBe("decided");
  });

  it("declines with a typed name and no checkbox; accepting after the decline is refused", async () => {
    const { id, token } = await offer();
    const declined = await decide(token, { intent: "decline", agreed: "" });
    expect(declined.location).toBe(`/agreements/acceptance/${token}?notice=recorded`);
    expect((await open(token)).data.record.decision).toBe("declined");
    const accepted = await post(token, {
      typedName: "Olivia",
      agreed: "yes",
      intent: "accept",
      versionId: randomUUID(),
    });
    expect(accepted.location).toBe(`/agreements/acceptance/${token}?notice=decided`);
    const row = await handle.db
      .selectFrom("agreement_decisions")
      .select("decision")
      .where("offer_id", "=", id)
      .execute();
    expect(row).toEqual([{ decision: "declined" }]);
  });

  it.each([
    ["no checkbox", { agreed: "" }, { agreed: "agreement.error.agreed.required" }],
    ["an empty name", { typedName: "   " }, { typedName: "agreement.error.name.required" }],
    ["a 500-character name", { typedName: "n".repeat(500) }, { typedName: "agreement.error.name.tooLong" }],
    ["a name on two lines", { typedName: "Olivia\r\nNguyen" }, { typedName: "agreement.error.name.characters" }],
    [
      "a name with a control character",
      { typedName: "Olivia\u0007" },
      { typedName: "agreement.error.name.characters" },
    ],
    ["no Accept or Decline", { intent: "maybe" }, { intent: "agreement.error.intent" }],
  ])("answers %s with the form again, the error at its field, and nothing written", async (_label, fields, errors) => {
    const { id, token } = await offer();
    const page = await decide(token, fields);
    expect(page.status).toBe(400);
    expect(page.data.errors).toEqual(errors);
    expect(await decisions(id)).toBe(0);
  });

  it("keeps what was typed when the form comes back", async () => {
    const { token } = await offer();
    const page = await decide(token, { agreed: "" });
    expect(page.data.values).toEqual({ typedName: "Olivia Nguyen", agreed: false });
  });

  it("refuses the version the page showed once a newer one is published, and shows the new one", async () => {
    const { id, token, documentId } = await offer();
    const shown = (await open(token)).data.offer.versionId;
    await publishAgreementVersion(acme, documentId, { body: `${TEXT}\n## Fees\n\nNone.\n` });
    const posted = await post(token, { typedName: "Olivia", agreed: "yes", intent: "accept", versionId: shown });
    expect(posted.location).toBe(`/agreements/acceptance/${token}?notice=changed`);
    expect(await decisions(id)).toBe(0);
    const page = await open(token, undefined, "?notice=changed");
    expect(page.data).toMatchObject({ kind: "open", notice: "changed", offer: { version: 2 } });
    expect(page.data.offer.versionId).not.toBe(shown);
    expect(page.data.body).toContain("## Fees");
  });

  it.each([
    ["a random id", () => randomUUID()],
    ["a malformed id", () => "' OR 1=1 --"],
    ["none", () => ""],
  ])("refuses a tampered version id (%s) as stale", async (_label, versionId) => {
    const { id, token } = await offer();
    const posted = await post(token, { typedName: "Olivia", agreed: "yes", intent: "accept", versionId: versionId() });
    expect(posted.location).toBe(`/agreements/acceptance/${token}?notice=stale`);
    expect(await decisions(id)).toBe(0);
  });

  it("refuses a POST from another site", async () => {
    const { id, token } = await offer();
    const page = await open(token);
    const posted = await post(
      token,
      { typedName: "Olivia", agreed: "yes", intent: "accept", versionId: page.data.offer.versionId },
      { origin: "http://evil.example" },
    );
    expect(posted.status).toBe(403);
    expect(await decisions(id)).toBe(0);
  });

  it("says a withdrawn, replaced or expired offer can't be decided, with whom to ask, and takes nothing", async () => {
    const withdrawn = await offer();
    await handle.db
      .updateTable("agreement_offers")
      .set({ status: "withdrawn", withdrawn_at: new Date() })
      .where("id", "=", withdrawn.id)
      .execute();
    const replaced = await offer();
    await revokeLinkTokens(handle.db, { businessId: acme, purpose: "agreement", subjectId: replaced.id });
    const expired = await offer({ expiresInMs: 60_000 });
    const versionId = (await open(expired.token)).data.offer.versionId;
    setClockForTesting(fixedClock(new Date(Date.now() + 120_000)));
    for (const [made, reason] of [
      [withdrawn, "withdrawn"],
      [replaced, "replaced"],
      [expired, "expired"],
    ] as const) {
      const page = await open(made.token);
      expect(page.data).toMatchObject({
        kind: "closed",
        reason,
        reference: made.reference,
        contact: { email: "accounts@acme.example", phone: "1300 226 300" },
      });
      const posted = await post(made.token, { typedName: "Olivia", agreed: "yes", intent: "accept", versionId });
      expect(posted.location).toBe(`/agreements/acceptance/${made.token}?notice=closed`);
      expect(await decisions(made.id)).toBe(0);
      expect((await get(linkDownload as Handler, "/x", { slug: made.token })).status).toBe(404);
    }
  });

  it("reads as withdrawn once the link's contact may not act for the account, before anything else", async () => {
    const contact = await handle.db
      .insertInto("contacts")
      .values({
        business_id: acme,
        email: `leaver-${randomUUID().slice(0, 8)}@coastal.example`,
        first_name: "Lee",
        last_name: "Leaver",
        position: "",
        verified_at: new Date(),
        permissions: [],
        password_hash: null,
        external_subject: null,
        disabled_at: null,
      })
      .returning(["id", "email"])
      .executeTakeFirstOrThrow();
    contacts[contact.email] = contact.id;
    await handle.db
      .insertInto("account_contacts")
      .values({ business_id: acme, account_id: accounts["ACME-2000"]!, contact_id: contact.id, role: "contact" })
      .execute();
    const made = await offer({ account: "ACME-2000", contact: contact.email });
    const versionId = (await open(made.token)).data.offer.versionId;
    await handle.db.deleteFrom("account_contacts").where("contact_id", "=", contact.id).execute();
    expect((await open(made.token)).data).toMatchObject({ kind: "closed", reason: "withdrawn" });
    const posted = await post(made.token, { typedName: "Lee", agreed: "yes", intent: "accept", versionId });
    expect(posted.location).toBe(`/agreements/acceptance/${made.token}?notice=closed`);
    expect(await decisions(made.id)).toBe(0);
  });

  it("after the link expires, says the decision is recorded and where to see it, without the record", async () => {
    const made = await offer({ expiresInMs: 60_000 });
    await decide(made.token);
    setClockForTesting(fixedClock(new Date(Date.now() + 120_000)));
    const page = await open(made.token);
    expect(page.data).toMatchObject({ kind: "closed", reason: "decided", reference: made.reference });
    expect(page.data.decidedOn).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    expect(JSON.stringify(page.data)).not.toContain("Olivia Nguyen");
  });
});

describe("a link whose contact did not decide", () => {
  it("shows only 'decided, sign in to see it' — never another contact's address or browser — and no file", async () => {
    // Addressed to Sam by link; Olivia, signed in, decided it first.
    const made = await offer({ account: "ACME-1001", contact: "sam@coastal.example" });
    await decide(made.reference, { typedName: "Olivia Nguyen" }, "olivia@coastal.example");
    const page = await open(made.token);
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({ kind: "closed", reason: "decided", reference: made.reference });
    const shown = JSON.stringify(page.data);
    for (const secret of ["192.0.2.44", "route test", "Olivia Nguyen", "olivia@coastal.example"]) {
      expect(shown).not.toContain(secret);
    }
    for (const query of ["", "?format=text", "?format=pdf"]) {
      const file = await get(linkDownload as Handler, `/x${query}`, { slug: made.token });
      expect(file.status).toBe(404);
      expect(file.text).toBeUndefined();
    }
    const posted = await post(made.token, { typedName: "Sam Taylor", agreed: "yes", intent: "accept", versionId: "x" });
    expect(posted.location).toBe(`/agreements/acceptance/${made.token}?notice=decided`);
    expect(await decisions(made.id)).toBe(1);
  });
});

describe("a link replaced between its check and the decision", () => {
  it("decides nothing: the link is read again under the offer's lock", async () => {
    const made = await offer();
    const request = () =>
      new Request(`${ORIGIN}/agreements/acceptance/${made.token}`, {
        method: "POST",
        headers: { host: HOST, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          typedName: "Olivia Nguyen",
          agreed: "yes",
          intent: "accept",
          versionId: "",
        }).toString(),
      });
    const { branding } = await getPageContext(request());
    // The page's check passes…
    const context = await agreementByLink(branding, made.token);
    expect(context.wayIn.kind === "link" && context.wayIn.status).toBe("valid");
    const form = new URLSearchParams({
      typedName: "Olivia Nguyen",
      agreed: "yes",
      intent: "accept",
      versionId: context.offer.version.id,
    });
    // …then the business resends it (a new link; this one is revoked) before the decision is taken.
    await revokeLinkTokens(handle.db, {
      businessId: acme,
      purpose: "agreement",
      subjectId: made.id,
      contactId: contacts["olivia@coastal.example"],
    });
    const answer = (await decideAction(
      new Request(`${ORIGIN}/agreements/acceptance/${made.token}`, {
        method: "POST",
        headers: { host: HOST, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
        body: form.toString(),
      }),
      context,
    )) as Response;
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe(`/agreements/acceptance/${made.token}?notice=closed`);
    expect(await decisions(made.id)).toBe(0);
    expect((await open(made.token)).data).toMatchObject({ kind: "closed", reason: "replaced" });
  });
});

describe("the download", () => {
  it("is the record's header, then the text byte for byte: the SHA-256 of its last bytes is the recorded hash", async () => {
    const body = "# Terms — ünïcödé 🧾\n\nLine one.\nLine two without a final newline";
    const document = await createAgreementDocument(acme, { kind: "terms-of-trade", title: "Unicode terms", body });
    const made = await offer({ documentId: document.id });
    await decide(made.token, { typedName: "Olivia Nguyen" });
    const file = await get(linkDownload as Handler, `/agreements/acceptance/${made.token}/download`, {
      slug: made.token,
    });
    expect(file.status).toBe(200);
    expect(file.headers?.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(file.headers?.get("content-disposition")).toBe(`attachment; filename="${made.reference}-v1-accepted.md"`);
    expect(file.headers?.get("cache-control")).toBe("private, no-store");
    expect(file.headers?.get("referrer-policy")).toBe("strict-origin");
    const bytes = Buffer.from(file.text!, "utf8");
    const length = Buffer.byteLength(body, "utf8");
    expect(bytes.subarray(bytes.length - length).toString("utf8")).toBe(body);
    expect(sha256(bytes.subarray(bytes.length - length))).toBe(sha256(body));
    // The header says which bytes, and everything after the marker line is the text.
    const afterMarker = file.text!.split(`${AGREEMENT_TEXT_MARKER}\n`)[1];
    expect(afterMarker).toBe(body);
    for (const line of [
      "- Business: Acme Plumbing Supplies",
      "- Agreement: Unicode terms (terms of trade)",
      `- Offer reference: ${made.reference}`,
      "- Account: Coastal Builders Group (ACME-1000)",
      "- Decision: Accepted",
      "- Name typed: Olivia Nguyen",
      "- Contact email: olivia@coastal.example",
      "- Client address: 192.0.2.44",
      "- Browser: Mozilla/5.0 (route test)",
      `- SHA-256 of the agreement text: ${sha256(body)}`,
      `- Length of the agreement text: ${length} bytes (UTF-8)`,
      `    tail -c ${length} ${made.reference}-v1-accepted.md | sha256sum`,
    ]) {
      expect(file.text).toContain(line);
    }
    expect(file.text).toMatch(
      /- Time: [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}:\d{2} [AP]M GMT\+1[01] \(Australia\/Sydney\)/,
    );
    expect(file.text).toMatch(/- Time \(UTC\): \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/);

    const text = await get(linkDownload as Handler, "/x?format=text", { slug: made.token });
    expect(text.text).toBe(body);
    expect(text.headers?.get("content-disposition")).toBe(`attachment; filename="${made.reference}-v1-text.md"`);
  });

  it("as a PDF (issue 34): the record's facts, the time in the business's zone and in UTC, the hash, then the text tagged", async () => {
    const body =
      "# Terms of trade\n\nPayment is due in 30 days.\n\n## Fees\n\n- A late fee of $15.00\n- Card surcharges as shown\n";
    const document = await createAgreementDocument(acme, { kind: "terms-of-trade", title: "Trade terms", body });
    const made = await offer({ documentId: document.id });
    await decide(made.token, { typedName: "Olivia Nguyen" });
    const answer = await run(
      linkDownload as Handler,
      new Request(`${ORIGIN}/agreements/acceptance/${made.token}/download?format=pdf`, { headers: { host: HOST } }),
      { slug: made.token },
    );
    expect(answer).toBeInstanceOf(Response);
    const response = answer as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toContain(
      `attachment; filename="Acme-Plumbing-Supplies-${made.reference}-v1-accepted.pdf"`,
    );
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin");
    const pdf = await readPdf(new Uint8Array(await response.arrayBuffer()));
    const text = pdf.text.replace(/\s+/g, " ");
    expect(pdf.title).toBe("Trade terms, as accepted");
    for (const line of [
      "Olivia Nguyen accepted version 1 on",
      "Agreement Trade terms (terms of trade)",
      `Offer reference ${made.reference}`,
      "Decision Accepted",
      "Name typed Olivia Nguyen",
      "Contact olivia@coastal.example",
      "Client address 192.0.2.44",
      `SHA-256 of the text ${sha256(body)}`,
      "Payment is due in 30 days.",
      "A late fee of $15.00",
    ]) {
      expect(text).toContain(line);
    }
    expect(text).toMatch(
      /Time [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}:\d{2} [AP]M GMT\+1[01] \(Australia\/Sydney\)/,
    );
    expect(text).toMatch(/Time \(UTC\) \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/);
    // The text's own headings under the document's two, and its list as a list.
    const roles = pdf.trees.flatMap(rolesOf);
    expect(roles).toEqual(expect.arrayContaining(["H1", "H2", "H3", "H4", "L", "LI", "Lbl", "LBody", "Table", "TH"]));
    expect(pdf.lang).toBe("en-AU");
  });

  it("has no file for an offer not yet decided", async () => {
    const made = await offer();
    expect((await get(linkDownload as Handler, "/x?format=pdf", { slug: made.token })).status).toBe(404);
    expect((await get(linkDownload as Handler, "/x", { slug: made.token })).status).toBe(404);
    expect(
      (await get(recordDownload as Handler, "/x", { reference: made.reference }, "olivia@coastal.example")).status,
    ).toBe(404);
  });
});

describe("signed in", () => {
  it("opens the acceptance page by reference for a portal contact who may act for the account, and records them", async () => {
    // Olivia (portal access) may act for ACME-1001; the offer was addressed to Sam.
    const made = await offer({ account: "ACME-1001", contact: "sam@coastal.example" });
    const page = await open(made.reference, "olivia@coastal.example");
    expect(page.data).toMatchObject({ kind: "open", offer: { reference: made.reference } });
    const posted = await decide(made.reference, { typedName: "Olivia Nguyen" }, "olivia@coastal.example");
    expect(posted.location).toBe(`/agreements/acceptance/${made.reference}?notice=recorded`);
    const row = await handle.db
      .selectFrom("agreement_decisions")
      .select(["contact_id", "typed_name"])
      .where("offer_id", "=", made.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ contact_id: contacts["olivia@coastal.example"], typed_name: "Olivia Nguyen" });
    const record = await open(made.reference, "olivia@coastal.example");
    expect(record.data.downloads.record).toBe(`/customer/agreement/${made.reference}/download`);
    const file = await get(recordDownload as Handler, "/x", { reference: made.reference }, "olivia@coastal.example");
    expect(file.status).toBe(200);
    expect(file.text).toContain("- Contact email: olivia@coastal.example");
    expect(file.text!.endsWith(TEXT)).toBe(true);
    // Sam, to whom it was addressed, sees it signed in as decided by Olivia.
    const his = await get(recordLoader as Handler, "/x", { reference: made.reference }, "sam@coastal.example");
    expect(his.data).toMatchObject({ kind: "record", record: { contact: "olivia@coastal.example" } });
  });

  it("is 'Page not found' for a customer-style contact opening a colleague's offer on their own account", async () => {
    // Sam has no portal access: he sees only the offers addressed to him (as his list does),
    // not Olivia's on ACME-1001 — neither waiting (to decide) nor decided (the record, the file).
    const waiting = await offer({ account: "ACME-1001" });
    const decided = await offer({ account: "ACME-1001" });
    await decide(decided.reference, {}, "olivia@coastal.example");
    for (const made of [waiting, decided]) {
      const page = await open(made.reference, "sam@coastal.example");
      expect(page.status, made.reference).toBe(404);
      expect(page.data).toEqual({ reason: "no-access" });
      const posted = await post(
        made.reference,
        {
          typedName: "Sam Taylor",
          agreed: "yes",
          intent: "decline",
          versionId: (await open(made.reference, "olivia@coastal.example")).data.offer.versionId,
        },
        { who: "sam@coastal.example" },
      );
      expect(posted.status).toBe(404);
      const reference = made.reference;
      expect((await get(recordLoader as Handler, "/x", { reference }, "sam@coastal.example")).status).toBe(404);
      expect((await get(recordDownload as Handler, "/x", { reference }, "sam@coastal.example")).status).toBe(404);
      expect((await get(linkDownload as Handler, "/x", { slug: reference }, "sam@coastal.example")).status).toBe(404);
      for (const format of ["text", "pdf"]) {
        expect(
          (await get(linkDownload as Handler, `/x?format=${format}`, { slug: reference }, "sam@coastal.example"))
            .status,
        ).toBe(404);
      }
      expect((await get(recordDownload as Handler, "/x?format=pdf", { reference }, "sam@coastal.example")).status).toBe(
        404,
      );
    }
    expect(await decisions(waiting.id)).toBe(0);
    const kept = await handle.db
      .selectFrom("agreement_decisions")
      .select(["contact_id", "decision"])
      .where("offer_id", "=", decided.id)
      .execute();
    expect(kept).toEqual([{ contact_id: contacts["olivia@coastal.example"], decision: "accepted" }]);
    // His own offer on the same account still opens.
    const his = await offer({ account: "ACME-1001", contact: "sam@coastal.example" });
    expect((await open(his.reference, "sam@coastal.example")).data).toMatchObject({ kind: "open" });
  });

  it("is 'Page not found' for another account's or business's offer, in the loader, the action and the downloads", async () => {
    const olivias = await offer({ account: "ACME-2000" });
    const kiwiDocument = await createAgreementDocument(kiwi, { kind: "other", title: "Kiwi", body: TEXT });
    const kiwis = await offer({
      businessId: kiwi,
      documentId: kiwiDocument.id,
      account: "KF-500",
      contact: "aroha@orchards.example",
    });
    for (const reference of [olivias.reference, kiwis.reference, "AG-NOSUCH01"]) {
      const page = await open(reference, "sam@coastal.example");
      expect(page.status, reference).toBe(404);
      expect(page.data).toEqual({ reason: "no-access" });
      const posted = await post(
        reference,
        { typedName: "Sam", agreed: "yes", intent: "accept", versionId: randomUUID() },
        { who: "sam@coastal.example" },
      );
      expect(posted.status).toBe(404);
      expect((await get(recordLoader as Handler, "/x", { reference }, "sam@coastal.example")).status).toBe(404);
      expect((await get(recordDownload as Handler, "/x", { reference }, "sam@coastal.example")).status).toBe(404);
    }
    expect(await decisions(olivias.id)).toBe(0);
  });

  it("sends a visitor without a session to sign in", async () => {
    const made = await offer();
    const page = await open(made.reference);
    expect(page.status).toBe(302);
    expect(page.location).toMatch(/^\/auth\/signin\?/);
  });

  it("shows the seeded acceptance as decided, with its download; a waiting offer leads to its acceptance page", async () => {
    const page = await get(
      recordLoader as Handler,
      "/x",
      { reference: DEMO_ACCEPTED_AGREEMENT_REFERENCE },
      "olivia@coastal.example",
    );
    expect(page.data).toMatchObject({
      kind: "record",
      offer: { version: 1, title: "Terms of trade" },
      record: { decision: "accepted", name: "Olivia Nguyen" },
    });
    // The client address and the hash stay in the business's record and the download.
    expect(page.data.record).not.toHaveProperty("address");
    expect(page.data.record).not.toHaveProperty("hash");
    const waiting = await get(recordLoader as Handler, "/x", { reference: "AG-DEMO0002" }, "olivia@coastal.example");
    expect(waiting.status).toBe(302);
    expect(waiting.location).toBe("/agreements/acceptance/AG-DEMO0002");
  });

  it("lists the selected account's agreements for a portal contact, and a customer-style contact's own", async () => {
    const index = await get(indexLoader as Handler, "/customer/agreement", {}, "olivia@coastal.example");
    expect(index.location).toBe("/customer/agreement/all");
    // The tests above made many offers on Olivia's account: walk the pages, 20 at a time, newest first.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const items: any[] = [];
    let path: string | null = "/customer/agreement/all";
    while (path) {
      const page = await get(listLoader as Handler, path, {}, "olivia@coastal.example");
      expect(page.data.account).toBe("Coastal Builders Group (ACME-1000)");
      expect(page.data.items.length).toBeLessThanOrEqual(20);
      items.push(...page.data.items);
      path = page.data.olderHref ? `/customer/agreement/all${page.data.olderHref}` : null;
    }
    const references = items.map((i: { reference: string }) => i.reference);
    expect(new Set(references).size).toBe(references.length);
    expect(references.length).toBeGreaterThan(20);
    expect(references).toEqual(expect.arrayContaining(["AG-DEMO0001", "AG-DEMO0002"]));
    const demo = items.find((i: { reference: string }) => i.reference === "AG-DEMO0002");
    expect(demo).toMatchObject({ state: "offered", href: "/agreements/acceptance/AG-DEMO0002" });
    const accepted = items.find((i: { reference: string }) => i.reference === "AG-DEMO0001");
    expect(accepted).toMatchObject({ state: "accepted", version: 1, href: "/customer/agreement/AG-DEMO0001" });

    const forSam = await offer({ account: "ACME-1001", contact: "sam@coastal.example" });
    const sam = await get(listLoader as Handler, "/customer/agreement/all", {}, "sam@coastal.example");
    expect(sam.data.account).toBeNull();
    expect(sam.data.items.map((i: { reference: string }) => i.reference)).toContain(forSam.reference);
    expect(sam.data.items.map((i: { reference: string }) => i.reference)).not.toContain("AG-DEMO0002");
    const home = await get(homeLoader as Handler, "/payment/payment-request/all", {}, "sam@coastal.example");
    expect(home.data.agreements[0]).toMatchObject({
      reference: forSam.reference,
      state: "offered",
      href: `/agreements/acceptance/${forSam.reference}`,
    });
    expect((await get(listLoader as Handler, "/customer/agreement/all", {})).status).toBe(302);
  });
});
