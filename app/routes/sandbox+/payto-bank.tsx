import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { formatDateTime, formatMoney, parseMoneyToCents } from "~/lib/format";
import { isAgreementStatus, type AgreementStatus } from "~/lib/payto-states";
import {
  getPayToProvider,
  asSandboxPayTo,
  payerKeysFromInput,
  type BankAgreement,
  type PayerAction,
  type PayerActionResult,
  type SandboxPayTo,
  readForm,
  requireSameOrigin,
} from "./sandbox.server";
import * as styles from "~/styles/sandbox-bank.css";

/**
 * The PayTo sandbox's stand-in for the payer's banking app (decision 027): where a payer
 * approves, declines, suspends, resumes or cancels the agreements businesses asked for, and
 * sends money to a PayID. It belongs to the sandbox provider, not to the portal: served only
 * while PAYTO_PROVIDER=sandbox, with its own look, and in English only (a third party's page).
 * Plain forms, POST/redirect/GET: it works the same with and without JavaScript.
 */
/** A stand-in bank's own page (not the portal's shell), whose forms post: no script (decision 084). */
export const handle = { standalone: true, hydrate: false };

const PATH = "/sandbox/payto-bank";
const MAX_INPUT = 256;

const ACTIONS: Record<
  PayerAction,
  { label: string; done: string; run: (bank: SandboxPayTo, id: string) => Promise<PayerActionResult> }
> = {
  approve: { label: "Approve", done: "You approved the agreement.", run: (b, id) => b.payerApproves(id) },
  decline: { label: "Decline", done: "You declined the agreement.", run: (b, id) => b.payerDeclines(id) },
  suspend: { label: "Suspend", done: "You suspended the agreement.", run: (b, id) => b.payerSuspends(id) },
  resume: { label: "Resume", done: "You resumed the agreement.", run: (b, id) => b.payerResumes(id) },
  cancel: { label: "Cancel", done: "You cancelled the agreement.", run: (b, id) => b.payerCancels(id) },
};

const STATUS_LABELS: Record<AgreementStatus, string> = {
  CREATED: "Waiting for your answer",
  ACTIVE: "Active",
  SUSPENDED: "Suspended",
  CANCELLED: "Cancelled",
  DECLINED: "Declined",
  EXPIRED: "Expired",
  FAILED: "Failed",
};

const isPayerAction = (value: unknown): value is PayerAction =>
  typeof value === "string" && Object.hasOwn(ACTIONS, value);

function sandboxBank(): SandboxPayTo {
  const bank = asSandboxPayTo(getPayToProvider());
  // Another provider has no sandbox bank: the page does not exist.
  if (!bank) throw new Response("Not found", { status: 404 });
  return bank;
}

/** A payer key as a person reads it: "BSB 062-000, account 12345678" or the PayID itself. */
function payerLabel(key: string): string {
  const bban = /^BBAN:(\d{3})(\d{3})(\d+)$/.exec(key);
  if (bban) return `BSB ${bban[1]}-${bban[2]}, account ${bban[3]}`;
  return key.slice(key.indexOf(":") + 1);
}

function view(agreement: BankAgreement) {
  return {
    agreementId: agreement.agreementId,
    description: agreement.description || "Payment agreement",
    hostname: agreement.hostname,
    partyName: agreement.partyName,
    maxAmount: formatMoney(agreement.maxAmountCents),
    status: agreement.status,
    statusLabel: isAgreementStatus(agreement.status) ? STATUS_LABELS[agreement.status] : agreement.status,
    statusReason: agreement.statusReason,
    requestedAt: formatDateTime(agreement.createdAt, { timeZone: "Australia/Sydney" }),
    actions: agreement.actions.map((action) => ({ action, label: ACTIONS[action].label })),
  };
}

const text = (value: FormDataEntryValue | string | null) => (typeof value === "string" ? value : "");

export async function loader({ request }: LoaderFunctionArgs) {
  const bank = sandboxBank();
  const params = new URL(request.url).searchParams;
  const agreementId = params.get("agreement")?.trim() ?? "";
  const payerInput = (params.get("payer") ?? "").slice(0, MAX_INPUT);
  const done = params.get("done") ?? "";
  const notice = isPayerAction(done)
    ? ACTIONS[done].done
    : done === "sent"
      ? "Money sent. The business will see it arrive shortly."
      : null;

  let payer: string | null = null;
  let agreements: BankAgreement[] = [];
  let lookupError: string | null = null;
  let missing: string | null = null;
  if (agreementId !== "") {
    const found = await bank.findAgreementForBank(agreementId.slice(0, 100));
    if (found) {
      payer = found.payer;
      agreements = await bank.listForPayer(found.payer);
    } else {
      missing = "There is no such agreement at this bank. Look the payer up by PayID or account instead.";
    }
  } else if (payerInput.trim() !== "") {
    const keys = payerKeysFromInput(payerInput);
    if (!keys) {
      lookupError = "Enter a PayID (like name@example.com) or a BSB and account number (like 062-000 12345678).";
    } else {
      agreements = await bank.listForPayer(keys);
      payer = agreements[0]?.payer ?? keys[0]!;
    }
  }
  return {
    agreementParam: agreementId.slice(0, 100),
    payerInput,
    payer: payer ? payerLabel(payer) : null,
    agreements: agreements.map(view),
    lookupError,
    missing,
    notice,
  };
}

type SendErrors = { payId?: string; amount?: string; payerName?: string };

/** Back to the page the form was on (its agreement or payer), with what was done. */
function backTo(form: FormData, done: string, agreementId?: string) {
  const query = new URLSearchParams();
  const agreement = agreementId ?? text(form.get("agreement")).slice(0, 100);
  const payer = text(form.get("payer")).slice(0, MAX_INPUT);
  if (agreement) query.set("agreement", agreement);
  else if (payer) query.set("payer", payer);
  query.set("done", done);
  return redirect(`${PATH}?${query.toString()}`);
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const bank = sandboxBank();
  // Only form bodies, capped, without control characters: anything else is a 4xx, never a 500.
  const form = await readForm(request);
  const intent = text(form.get("intent"));

  if (isPayerAction(intent)) {
    const agreementId = text(form.get("agreementId")).trim();
    if (agreementId === "" || agreementId.length > 100) {
      return data({ formError: "There is no such agreement at this bank." } as const, { status: 404 });
    }
    const result = await ACTIONS[intent].run(bank, agreementId);
    if (!result.ok) {
      return data({ formError: result.message } as const, { status: result.reason === "not_found" ? 404 : 409 });
    }
    return backTo(form, intent, agreementId);
  }

  if (intent === "send") {
    const values = {
      payId: text(form.get("payId")).slice(0, MAX_INPUT),
      amount: text(form.get("amount")).slice(0, 40),
      payerName: text(form.get("payerName")).slice(0, 200),
    };
    const errors: SendErrors = {};
    if (values.payId.trim() === "") errors.payId = "Enter the PayID to pay, like 10042@acme.payto.test.";
    const amount = parseMoneyToCents(values.amount);
    if (!amount.ok) errors.amount = amount.error;
    else if (amount.cents <= 0) errors.amount = "Enter an amount of at least 0.01.";
    if (values.payerName.trim() === "") errors.payerName = "Enter the name the business will see.";
    else if (values.payerName.trim().length > 140) errors.payerName = "Use at most 140 characters.";
    if (Object.keys(errors).length === 0 && amount.ok) {
      const sent = await bank.sendToPayId({
        payId: values.payId,
        amountCents: amount.cents,
        payerName: values.payerName,
      });
      if (sent.ok) return backTo(form, "sent");
      if (sent.reason === "unknown_payid") errors.payId = sent.message;
      else if (sent.reason === "invalid_amount") errors.amount = sent.message;
      else errors.payerName = sent.message;
    }
    return data({ sendErrors: errors, values } as const, { status: 400 });
  }

  return data({ formError: "This bank does not know that request. Nothing was changed." } as const, { status: 400 });
}

export const meta: MetaFunction = () => [
  { title: "Sandbox bank" },
  // A stand-in for the payer's bank, English only like the rest of this page.
  {
    name: "description",
    content: "A sandbox bank standing in for the payer's banking app: answer PayTo agreements and pay to a PayID.",
  },
];

export default function SandboxBank() {
  const loaded = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const formError = answer && "formError" in answer ? answer.formError : null;
  const sendErrors: SendErrors = answer && "sendErrors" in answer ? answer.sendErrors : {};
  const sendValues = answer && "values" in answer ? answer.values : null;
  const pendingCount = loaded.agreements.filter((a) => a.status === "CREATED").length;

  return (
    <div className={styles.page}>
      <header>
        <p className={styles.banner}>
          <strong>Sandbox bank</strong> — this page stands in for the payer&apos;s banking app; it is not part of the
          portal.
        </p>
        <div className={styles.header}>
          <h1>Sandbox Bank</h1>
          <p>PayTo agreements and PayID payments</p>
        </div>
      </header>
      <main id="main" tabIndex={-1} className={styles.main}>
        {loaded.notice && !answer ? (
          <p role="status" className={styles.notice}>
            {loaded.notice}
          </p>
        ) : null}
        {formError ? (
          <p role="alert" className={styles.problem}>
            {formError}
          </p>
        ) : null}

        <section className={styles.panel} aria-labelledby="payer-heading">
          <h2 id="payer-heading">Whose bank is this?</h2>
          <Form method="get" action={PATH} className={styles.inlineForm}>
            <div className={styles.field}>
              <label htmlFor="payer">PayID or BSB and account number</label>
              <input
                id="payer"
                name="payer"
                defaultValue={loaded.payerInput}
                maxLength={MAX_INPUT}
                autoComplete="off"
                aria-invalid={loaded.lookupError ? true : undefined}
                aria-describedby={loaded.lookupError ? "payer-error" : "payer-hint"}
              />
              {loaded.lookupError ? (
                <p id="payer-error" className={styles.fieldError}>
                  {loaded.lookupError}
                </p>
              ) : (
                <p id="payer-hint" className={styles.hint}>
                  For example approve@payto.test or 000-000 10000001.
                </p>
              )}
            </div>
            <button type="submit" className={styles.button}>
              Open
            </button>
          </Form>
        </section>

        {loaded.missing ? (
          <p role="alert" className={styles.problem}>
            {loaded.missing}
          </p>
        ) : null}

        {loaded.payer ? (
          <section className={styles.panel} aria-labelledby="agreements-heading">
            <h2 id="agreements-heading">Payment agreements for {loaded.payer}</h2>
            {loaded.agreements.length === 0 ? (
              <p>This bank has no payment agreements for {loaded.payer}.</p>
            ) : (
              <>
                <p className={styles.hint}>
                  {pendingCount === 0
                    ? "Nothing is waiting for your answer."
                    : pendingCount === 1
                      ? "1 agreement is waiting for your answer."
                      : `${pendingCount} agreements are waiting for your answer.`}
                </p>
                <ul className={styles.list}>
                  {loaded.agreements.map((agreement) => (
                    <li
                      key={agreement.agreementId}
                      className={
                        agreement.status === "CREATED" ? `${styles.agreement} ${styles.pending}` : styles.agreement
                      }
                    >
                      <article aria-labelledby={`agreement-${agreement.agreementId}`}>
                        <h3 id={`agreement-${agreement.agreementId}`}>{agreement.description}</h3>
                        <dl className={styles.facts}>
                          <dt>Status</dt>
                          <dd>{agreement.statusLabel}</dd>
                          {agreement.statusReason && agreement.status !== "CREATED" ? (
                            <>
                              <dt>Last change</dt>
                              <dd>{agreement.statusReason}</dd>
                            </>
                          ) : null}
                          <dt>Up to</dt>
                          <dd>{agreement.maxAmount} a payment</dd>
                          <dt>Requested by</dt>
                          <dd>{agreement.hostname}</dd>
                          <dt>Account holder</dt>
                          <dd>{agreement.partyName}</dd>
                          <dt>Requested</dt>
                          <dd>{agreement.requestedAt}</dd>
                        </dl>
                        {agreement.actions.length > 0 ? (
                          <div className={styles.actions}>
                            {agreement.actions.map(({ action, label }) => (
                              <Form method="post" key={action}>
                                <input type="hidden" name="agreementId" value={agreement.agreementId} />
                                <button
                                  type="submit"
                                  name="intent"
                                  value={action}
                                  disabled={busy}
                                  className={
                                    action === "decline" || action === "cancel" ? styles.secondaryButton : styles.button
                                  }
                                  aria-describedby={`agreement-${agreement.agreementId}`}
                                >
                                  {label}
                                </button>
                              </Form>
                            ))}
                          </div>
                        ) : null}
                      </article>
                    </li>
                  ))}
                </ul>
              </>
            )}
          </section>
        ) : null}

        <section className={styles.panel} aria-labelledby="send-heading">
          <h2 id="send-heading">Pay to a PayID</h2>
          {Object.keys(sendErrors).length > 0 ? (
            <p role="alert" className={styles.problem}>
              Nothing was sent. Correct the details below.
            </p>
          ) : null}
          <Form method="post" noValidate>
            <input type="hidden" name="agreement" value={loaded.agreementParam} />
            <input type="hidden" name="payer" value={loaded.payerInput} />
            <div className={styles.field}>
              <label htmlFor="payId">PayID</label>
              <input
                id="payId"
                name="payId"
                type="email"
                inputMode="email"
                autoComplete="off"
                maxLength={MAX_INPUT}
                defaultValue={sendValues?.payId ?? ""}
                aria-invalid={sendErrors.payId ? true : undefined}
                aria-describedby={sendErrors.payId ? "payId-error" : undefined}
              />
              {sendErrors.payId ? (
                <p id="payId-error" className={styles.fieldError}>
                  {sendErrors.payId}
                </p>
              ) : null}
            </div>
            <div className={styles.field}>
              <label htmlFor="amount">Amount (AUD)</label>
              <input
                id="amount"
                name="amount"
                inputMode="decimal"
                autoComplete="off"
                maxLength={20}
                defaultValue={sendValues?.amount ?? ""}
                aria-invalid={sendErrors.amount ? true : undefined}
                aria-describedby={sendErrors.amount ? "amount-error" : undefined}
              />
              {sendErrors.amount ? (
                <p id="amount-error" className={styles.fieldError}>
                  {sendErrors.amount}
                </p>
              ) : null}
            </div>
            <div className={styles.field}>
              <label htmlFor="payerName">Your name</label>
              <input
                id="payerName"
                name="payerName"
                autoComplete="name"
                maxLength={140}
                defaultValue={sendValues?.payerName ?? ""}
                aria-invalid={sendErrors.payerName ? true : undefined}
                aria-describedby={sendErrors.payerName ? "payerName-error" : undefined}
              />
              {sendErrors.payerName ? (
                <p id="payerName-error" className={styles.fieldError}>
                  {sendErrors.payerName}
                </p>
              ) : null}
            </div>
            <button type="submit" name="intent" value="send" disabled={busy} className={styles.button}>
              Send money
            </button>
          </Form>
        </section>
      </main>
    </div>
  );
}
