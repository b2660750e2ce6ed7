/** The SMTP catcher as a process of its own (Playwright starts it): SMTP plus a small query API. */
import { startSmtpCatcher } from "./smtp-catcher";

const catcher = await startSmtpCatcher({
  smtpPort: Number(process.env.SMTP_CATCHER_PORT ?? 4325),
  httpPort: Number(process.env.SMTP_CATCHER_HTTP_PORT ?? 4326),
});
process.stdout.write(`smtp catcher: ${catcher.smtpUrl}, messages at ${catcher.httpUrl}/messages\n`);
const stop = () => void catcher.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
