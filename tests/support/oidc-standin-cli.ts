/**
 * The stand-in provider as a process of its own: Playwright starts it for the e2e tests,
 * and `npx tsx tests/support/oidc-standin-cli.ts` runs it for local demos.
 *   OIDC_PORT      port to listen on (default 4311)
 *   OIDC_CERT_DIR  where its self-signed certificate lives (default .tmp/oidc)
 */
import { startOidcStandin } from "./oidc-standin";
import { HARBOUR_CLIENT, HARBOUR_USERS } from "./oidc-standin-demo";

const standin = await startOidcStandin({
  port: Number(process.env.OIDC_PORT ?? 4311),
  certDir: process.env.OIDC_CERT_DIR ?? ".tmp/oidc",
  clients: [HARBOUR_CLIENT],
  users: HARBOUR_USERS,
});
process.stdout.write(`oidc stand-in listening on ${standin.origin}\n`);

let stopping = false;
function stop() {
  if (stopping) process.exit(1); // a second signal: stop waiting
  stopping = true;
  standin.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error("oidc stand-in: close failed:", error);
      process.exit(1);
    },
  );
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
