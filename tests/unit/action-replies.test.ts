import type { useActionData } from "@remix-run/react";
import { describe, expectTypeOf, it } from "vitest";
import type { action as action1 } from "~/routes/_customer+/agreements.acceptance.$slug";
import type { action as action2 } from "~/routes/_customer+/customer.adhoc.$token";
import type { action as action3 } from "~/routes/_customer+/customer.payment-schedule+/$slug";
import type { action as action4 } from "~/routes/_customer+/payment-schedule.acceptance.$slug";
import type { action as action5 } from "~/routes/_customer+/payment.adhoc.$slug";
import type { action as action6 } from "~/routes/_customer+/payment.payment-request.$slug";
import type { action as action7 } from "~/routes/_link+/communication_.$token";
import type { action as action8 } from "~/routes/_link+/communication_.unsubscribe";
import type { action as action9 } from "~/routes/_link+/credit-trade-reference.$token";
import type { action as action10 } from "~/routes/_link+/customer.invoices-and-payments+/$token";
import type { action as action11 } from "~/routes/_link+/customer.invoices-and-payments+/pay";
import type { action as action12 } from "~/routes/_link+/customer.payment-request.$token";
import type { action as action13 } from "~/routes/_link+/response.$slug";
import type { action as action14 } from "~/routes/_portal+/payment-methods+/bank-accounts.new";
import type { action as action15 } from "~/routes/_portal+/payment-methods+/cards.$cardId";
import type { action as action16 } from "~/routes/_portal+/payment-methods+/cards.new";
import type { action as action17 } from "~/routes/_portal+/payment-methods+/payto.$agreementId_.cancel";
import type { action as action18 } from "~/routes/_portal+/payment-methods+/payto.new";
import type { action as action19 } from "~/routes/_public+/auth+/password";
import type { action as action20 } from "~/routes/_public+/auth+/password_.reset";
import type { action as action21 } from "~/routes/_public+/auth+/signin";
import type { action as action22 } from "~/routes/_public+/auth+/verify";
import type { action as action23 } from "~/routes/_public+/communication";
import type { action as action24 } from "~/routes/_public+/credit+/address";
import type { action as action25 } from "~/routes/_public+/credit+/bank";
import type { action as action26 } from "~/routes/_public+/credit+/business";
import type { action as action27 } from "~/routes/_public+/credit+/check";
import type { action as action28 } from "~/routes/_public+/credit+/contacts";
import type { action as action29 } from "~/routes/_public+/credit+/credit";
import type { action as action30 } from "~/routes/_public+/credit+/directors";
import type { action as action31 } from "~/routes/_public+/credit+/documents";
import type { action as action32 } from "~/routes/_public+/credit+/references";
import type { action as action33 } from "~/routes/_public+/credit+/terms";
import type { action as action34 } from "~/routes/admin+/branding+/_index";
import type { action as action35 } from "~/routes/admin+/branding+/preview._index";
import type { action as action36 } from "~/routes/sandbox+/payto-bank";
import type { action as action37 } from "~/routes/admin+/branding+/preview.page.$kind";

/**
 * Every page that reads its action's reply does it as `useActionData<typeof action>()`, and ESLint refuses a cast
 * there (eslint.config.js). What is left to go wrong is an action whose reply type says nothing: one branch that
 * returns a plain `Response` (a `TypedResponse<any>` to Remix) makes the whole reply `any`, and every field the page
 * reads would type-check. tsc checks the assertions below; at run time they do nothing.
 */
/** What a page gets from `useActionData<typeof action>()`. */
type Reply<Action> = ReturnType<typeof useActionData<Action>>;

describe("route actions' replies", () => {
  it("are typed: never any, never unknown", () => {
    expectTypeOf<Reply<typeof action1>>().not.toBeAny(); // _customer+/agreements.acceptance.$slug.tsx
    expectTypeOf<Reply<typeof action1>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action2>>().not.toBeAny(); // _customer+/customer.adhoc.$token.tsx
    expectTypeOf<Reply<typeof action2>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action3>>().not.toBeAny(); // _customer+/customer.payment-schedule+/$slug.tsx
    expectTypeOf<Reply<typeof action3>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action4>>().not.toBeAny(); // _customer+/payment-schedule.acceptance.$slug.tsx
    expectTypeOf<Reply<typeof action4>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action5>>().not.toBeAny(); // _customer+/payment.adhoc.$slug.tsx
    expectTypeOf<Reply<typeof action5>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action6>>().not.toBeAny(); // _customer+/payment.payment-request.$slug.tsx
    expectTypeOf<Reply<typeof action6>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action7>>().not.toBeAny(); // _link+/communication_.$token.tsx
    expectTypeOf<Reply<typeof action7>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action8>>().not.toBeAny(); // _link+/communication_.unsubscribe.tsx
    expectTypeOf<Reply<typeof action8>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action9>>().not.toBeAny(); // _link+/credit-trade-reference.$token.tsx
    expectTypeOf<Reply<typeof action9>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action10>>().not.toBeAny(); // _link+/customer.invoices-and-payments+/$token.tsx
    expectTypeOf<Reply<typeof action10>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action11>>().not.toBeAny(); // _link+/customer.invoices-and-payments+/pay.tsx
    expectTypeOf<Reply<typeof action11>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action12>>().not.toBeAny(); // _link+/customer.payment-request.$token.tsx
    expectTypeOf<Reply<typeof action12>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action13>>().not.toBeAny(); // _link+/response.$slug.tsx
    expectTypeOf<Reply<typeof action13>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action14>>().not.toBeAny(); // _portal+/payment-methods+/bank-accounts.new.tsx
    expectTypeOf<Reply<typeof action14>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action15>>().not.toBeAny(); // _portal+/payment-methods+/cards.$cardId.tsx
    expectTypeOf<Reply<typeof action15>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action16>>().not.toBeAny(); // _portal+/payment-methods+/cards.new.tsx
    expectTypeOf<Reply<typeof action16>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action17>>().not.toBeAny(); // _portal+/payment-methods+/payto.$agreementId_.cancel.tsx
    expectTypeOf<Reply<typeof action17>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action18>>().not.toBeAny(); // _portal+/payment-methods+/payto.new.tsx
    expectTypeOf<Reply<typeof action18>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action19>>().not.toBeAny(); // _public+/auth+/password.tsx
    expectTypeOf<Reply<typeof action19>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action20>>().not.toBeAny(); // _public+/auth+/password_.reset.tsx
    expectTypeOf<Reply<typeof action20>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action21>>().not.toBeAny(); // _public+/auth+/signin.tsx
    expectTypeOf<Reply<typeof action21>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action22>>().not.toBeAny(); // _public+/auth+/verify.tsx
    expectTypeOf<Reply<typeof action22>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action23>>().not.toBeAny(); // _public+/communication.tsx
    expectTypeOf<Reply<typeof action23>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action24>>().not.toBeAny(); // _public+/credit+/address.tsx
    expectTypeOf<Reply<typeof action24>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action25>>().not.toBeAny(); // _public+/credit+/bank.tsx
    expectTypeOf<Reply<typeof action25>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action26>>().not.toBeAny(); // _public+/credit+/business.tsx
    expectTypeOf<Reply<typeof action26>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action27>>().not.toBeAny(); // _public+/credit+/check.tsx
    expectTypeOf<Reply<typeof action27>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action28>>().not.toBeAny(); // _public+/credit+/contacts.tsx
    expectTypeOf<Reply<typeof action28>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action29>>().not.toBeAny(); // _public+/credit+/credit.tsx
    expectTypeOf<Reply<typeof action29>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action30>>().not.toBeAny(); // _public+/credit+/directors.tsx
    expectTypeOf<Reply<typeof action30>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action31>>().not.toBeAny(); // _public+/credit+/documents.tsx
    expectTypeOf<Reply<typeof action31>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action32>>().not.toBeAny(); // _public+/credit+/references.tsx
    expectTypeOf<Reply<typeof action32>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action33>>().not.toBeAny(); // _public+/credit+/terms.tsx
    expectTypeOf<Reply<typeof action33>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action34>>().not.toBeAny(); // admin+/branding+/_index.tsx
    expectTypeOf<Reply<typeof action34>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action35>>().not.toBeAny(); // admin+/branding+/preview._index.tsx
    expectTypeOf<Reply<typeof action35>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action36>>().not.toBeAny(); // sandbox+/payto-bank.tsx
    expectTypeOf<Reply<typeof action36>>().not.toBeUnknown();
    expectTypeOf<Reply<typeof action37>>().not.toBeAny(); // admin+/branding+/preview.page.$kind.tsx
    expectTypeOf<Reply<typeof action37>>().not.toBeUnknown();
  });
});
