import { randomBytes } from "node:crypto";
import { PassThrough } from "node:stream";
import type { EntryContext, HandleDataRequestFunction, HandleErrorFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { cssBundleHref } from "@remix-run/css-bundle";
import { NonceProvider } from "~/components/nonce";
import { InlineStylesProvider } from "~/components/InlineStyles";
import { DocumentScriptsProvider } from "~/components/PageScripts";
import { documentScripts } from "~/components/PageScripts.server";
import { inlineCssFor, styleHashSource } from "~/services/platform/inline-css.server";
import { isThemeName } from "~/themes/names";
import { PRODUCT_FRUITS_ORIGIN } from "~/components/ProductFruits";
import { getDatabaseHandle, onDatabaseReady } from "~/services/platform/database.server";
import { checkHealth } from "~/services/platform/heartbeat.server";
import { getEnv } from "~/services/platform/env.server";
import { logger } from "~/services/platform/logger.server";
import { startSandboxClock } from "~/services/payments/payto/sandbox/clock.server";
import { startProcessBackgroundWork, stopProcessBackgroundWork } from "~/services/jobs/background.server";
import { currentQueryCount, installRequestScope, QUERY_COUNT_HEADER } from "~/services/platform/request-scope.server";
import { installRequestGuard } from "~/services/platform/request-guard.server";
import { installRequestLogging, logTokenFor } from "~/services/platform/request-log.server";
import {
  DOCUMENT_CACHE_CONTROL,
  securityHeaders,
  withDataRequestHeaders,
} from "~/services/platform/security-headers.server";
import { redactLinkPath } from "~/lib/link-paths";
import { MESSAGES } from "~/lib/i18n/catalog";
import { provideMessages } from "~/lib/i18n/runtime";
import type { LanguageCode } from "~/lib/i18n";
import { seedNewEmbeddedDatabase } from "../db/seed/first-start";

// The server renders every page in its language from its own copy of both dictionaries (decision 050).
for (const [language, messages] of Object.entries(MESSAGES)) provideMessages(language as LanguageCode, messages);

const ABORT_DELAY = 5_000;

// Start-up, before remix-serve listens: validate configuration (exits naming a bad
// variable), start request logging, open the database and run migrations (and seed a
// brand-new embedded database). A database that cannot be opened stops start-up.
const env = getEnv();
onDatabaseReady(seedNewEmbeddedDatabase);
installRequestLogging();
installRequestGuard({ trustProxy: env.TRUST_PROXY });
installRequestScope();
try {
  const handle = await getDatabaseHandle();
  logger.info("portal ready", { database: handle.kind });
  // Background work on the job queue (decisions 035 and 043): this process offers each periodic
  // job once per slot — the card reconciler (RECONCILE_EVERY_MS: payments whose outcome was lost
  // are settled from the gateway's record), the PayTo payment and agreement polls (PAYTO_POLL_MS:
  // webhooks may be lost), the instalment sweep (every minute) and the expiry sweep
  // (EXPIRY_EVERY_MS) — and pg-boss keeps one per slot across all processes; this process also
  // works every queue (instalment charges, emails), taking whichever jobs it fetches first.
  await startProcessBackgroundWork(handle).catch((error: unknown) =>
    logger.error("the background work did not start; this process reconciles, polls and charges nothing (others may)", {
      error,
    }),
  );
  if (env.PORTAL_TEST_CLOCK === "on") {
    logger.warn(
      "PORTAL_TEST_CLOCK is on: POST /__test/clock and /__test/run-due-instalments let loopback callers move this portal's clock and charge instalments now — for the e2e suite only, never in production",
    );
  }
  // The PayTo sandbox stands in for a provider's own clock: expiry, settlement, webhooks.
  if (env.PAYTO_PROVIDER === "sandbox") {
    startSandboxClock();
    // Said once at start-up, because a production-mode portal on the sandbox is only right for demos.
    if (env.NODE_ENV === "production") {
      logger.warn(
        "PayTo runs on the sandbox provider: its payer's-bank stand-in (/sandbox/payto-bank) is public and moves pretend money; configure a real provider before taking real PayTo payments",
      );
    }
  }
} catch (error) {
  logger.error("database could not be opened; the portal did not start", { error });
  process.exit(1);
}

/**
 * Called by scripts/serve.js on SIGTERM/SIGINT before the server closes: the periodic offers
 * stop, the job queue stops fetching and lets the jobs in hand finish (or hands them back to be
 * retried, by another process or after a restart).
 */
export async function shutdown() {
  await stopProcessBackgroundWork();
}

/**
 * Called by scripts/serve.js for GET /ready (a load balancer's readiness check, decision 045):
 * true when this process can serve, that is the database answers a round trip (at most 2 s).
 */
export async function isReady(): Promise<boolean> {
  return (await checkHealth()).ok;
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  const nonce = randomBytes(16).toString("base64");
  // The document is drawn in its host's theme only (decision 088): its preset, not all fifteen.
  const brand = (remixContext.staticHandlerContext.loaderData?.root as { brand?: { theme?: unknown } } | undefined)
    ?.brand;
  const theme = isThemeName(brand?.theme) ? brand.theme : null;
  const inlineCss = env.CSS_DELIVERY === "inline" ? inlineCssFor(cssBundleHref, theme) : null;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // Wait for the whole document: pages carry no deferred data, and a complete
    // response keeps status codes right for no-JS browsers and crawlers alike.
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <InlineStylesProvider value={inlineCss}>
          <DocumentScriptsProvider value={documentScripts}>
            <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
          </DocumentScriptsProvider>
        </InlineStylesProvider>
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          responseHeaders.set("Cache-Control", DOCUMENT_CACHE_CONTROL);
          // A 503 (the database lost: decision 046) tells browsers and proxies when to come back.
          if (responseStatusCode === 503 && !responseHeaders.has("Retry-After"))
            responseHeaders.set("Retry-After", "5");
          const rootData = remixContext.staticHandlerContext.loaderData?.root as
            { identityProviderOrigin?: string | null; productFruits?: unknown } | undefined;
          const formActionOrigins = rootData?.identityProviderOrigin ? [rootData.identityProviderOrigin] : [];
          // The onboarding tour's origin is allowed only on pages that render it.
          const thirdPartyOrigins = rootData?.productFruits ? [PRODUCT_FRUITS_ORIGIN] : [];
          for (const [name, value] of Object.entries(
            securityHeaders(request, nonce, {
              formActionOrigins,
              thirdPartyOrigins,
              styleSources: inlineCss === null ? [] : [styleHashSource(inlineCss)],
            }),
          )) {
            responseHeaders.set(name, value);
          }
          // Every loader has finished by now (the document waits for all data), so this is
          // the page's whole count; rendering itself sends no SQL.
          const statements = env.BENCH_QUERY_COUNT ? currentQueryCount() : undefined;
          if (statements !== undefined) responseHeaders.set(QUERY_COUNT_HEADER, String(statements));
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered)
            logger.error("render error", { error, path: redactLinkPath(new URL(request.url).pathname) });
        },
      },
    );
    setTimeout(abort, ABORT_DELAY + 1_000);
  });
}

/**
 * Single-fetch (`.data`) answers — loaders, actions and their redirects — carry the same account
 * data as documents: never kept by the browser or any cache, never sniffed as a script.
 */
export const handleDataRequest: HandleDataRequestFunction = (response, { request }) =>
  withDataRequestHeaders(response, request);

export const handleError: HandleErrorFunction = (error, { request }) => {
  // Aborted requests (client went away) are not errors of ours.
  if (request.signal.aborted) return;
  // 4xx answers (unknown route, wrong method) are the client's mistake, not a fault.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  logger.error("unhandled error", {
    error,
    method: request.method,
    path: redactLinkPath(new URL(request.url).pathname),
    requestId: request.headers.get("x-request-id"),
    sessionLogId: logTokenFor(request),
  });
};
