/**
 * The ordered list of migrations. Each is plain SQL kept in a TypeScript module so that
 * it ships inside the server bundle (no file-system lookups at run time) and runs the
 * same under remix-serve, `npm run portal -- db migrate` and the tests.
 * Append new migrations; never edit one that has been released.
 */
import * as m0001 from "./0001-tenancy";
import * as m0002 from "./0002-auth";
import * as m0003 from "./0003-invoices-and-statements";
import * as m0004 from "./0004-payment-methods";
import * as m0004a from "./0004a-account-search";
import * as m0005 from "./0005-statement-daily-totals";
import * as m0006 from "./0006-payments";
import * as m0007 from "./0007-sliding-limits-and-public-urls";
import * as m0008 from "./0008-payto";
import * as m0009 from "./0009-payment-polling";
import * as m0010 from "./0010-payment-requests";
import * as m0010a from "./0010a-payments-by-payer";
import * as m0011 from "./0011-schedules-and-agreements";
import * as m0012 from "./0012-job-queue";
import * as m0012a from "./0012a-schedule-references";
import * as m0013 from "./0013-attempt-way-to-pay";
import * as m0014 from "./0014-brands";
import * as m0015 from "./0015-credit-applications";
import * as m0016 from "./0016-communication-preferences";
import * as m0017 from "./0017-response-requests";
import * as m0018 from "./0018-background-queues";
import * as m0019 from "./0019-mail-outbox";
import * as m0020 from "./0020-sandbox-faults";
import * as m0021 from "./0021-held-cards";
import * as m0022 from "./0022-business-local-statement-dates";
import * as m0023 from "./0023-host-admin-changes-index";
import * as m0024 from "./0024-card-brands-in-statement-lines";

export type Migration = { name: string; up: string };

export const migrations: Migration[] = [
  m0001,
  m0002,
  m0003,
  m0004,
  m0004a,
  m0005,
  m0006,
  m0007,
  m0008,
  m0009,
  m0010,
  m0010a,
  m0011,
  m0012,
  m0012a,
  m0013,
  m0014,
  m0015,
  m0016,
  m0017,
  m0018,
  m0019,
  m0020,
  m0021,
  m0022,
  m0023,
  m0024,
];
