/**
 * The SMTP catcher as a process of its own (Playwright starts it): SMTP plus the HTTP
 * query API that tests/support/mailbox.ts reads.
 *
 *   npx tsx tests/support/smtp-catcher-cli.ts
 *   SMTP_CATCHER_PORT=4325 SMTP_CATCHER_HTTP_PORT=4326 (the defaults; 0 picks a free port)
 *
 * Prints one line once both are listening; runs until SIGTERM or SIGINT, then closes.
 */
import { startSmtpCatcher } from "./smtp-catcher";

function port(name: string, fallback: number) {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65_535) {
    process.stderr.write(`smtp catcher: ${name} must be a port number (0-65535), got ${JSON.stringify(raw)}\n`);
    process.exit(1);
  }
  return value;
}

const smtpPort = port("SMTP_CATCHER_PORT", 4325);
const httpPort = port("SMTP_CATCHER_HTTP_PORT", 4326);

let catcher: Awaited<ReturnType<typeof startSmtpCatcher>>;
try {
  catcher = await startSmtpCatcher({ smtpPort, httpPort });
} catch (error) {
  process.stderr.write(`smtp catcher: could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

process.stdout.write(`smtp catcher listening: SMTP ${catcher.smtpUrl}, HTTP ${catcher.httpUrl}/messages\n`);

let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  catcher.close().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`smtp catcher: error while closing: ${String(error)}\n`);
      process.exit(1);
    },
  );
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
