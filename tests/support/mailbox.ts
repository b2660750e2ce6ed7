import type { CaughtMail } from "./smtp-catcher";

/** Waits for a mail caught by the SMTP catcher running in another process (its HTTP API). */
export async function waitForMailVia(
  httpUrl: string,
  to: string,
  options: { timeoutMs?: number; subject?: RegExp; since?: number } = {},
): Promise<CaughtMail> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    const response = await fetch(`${httpUrl}/messages?${new URLSearchParams({ to })}`);
    const messages = (await response.json()) as CaughtMail[];
    const found = messages.find(
      (m) => (!options.subject || options.subject.test(m.subject)) && (!options.since || m.receivedAt >= options.since - 1_000),
    );
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} within the time-out`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
