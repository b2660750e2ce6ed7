/** The stand-in provider as a process of its own (Playwright starts it; `npm run idp:standin` for demos). */
import { startOidcStandin } from "./oidc-standin";
import { HARBOUR_CLIENT, HARBOUR_USERS } from "./oidc-standin-demo";

const standin = await startOidcStandin({
  port: Number(process.env.OIDC_PORT ?? 4311),
  certDir: process.env.OIDC_CERT_DIR ?? ".tmp/oidc",
  clients: [HARBOUR_CLIENT],
  users: HARBOUR_USERS,
});
process.stdout.write(`oidc stand-in listening on ${standin.origin} (certificate: ${standin.caCertPath})\n`);
const stop = () => void standin.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
