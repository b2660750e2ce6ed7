import type { CaughtMail } from "./smtp-catcher";

export type { CaughtMail };

/**
 * Waits for a mail caught by the SMTP catcher running in another process (its HTTP API,
 * see smtp-catcher-cli.ts), polling every 100 ms. Returns the oldest matching mail.
 *
 * `since` (epoch ms, e.g. `Date.now()` taken before the action that sends the mail) skips
 * mail the catcher received earlier; the catcher runs on the same machine, so the clocks agree.
 */
export async function waitForMailVia(
  httpUrl: string,
  to: string,
  options: { timeoutMs?: number; subject?: RegExp; since?: number } = {},
): Promise<CaughtMail> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const deadline = Date.now() + timeoutMs;
  const query = new URLSearchParams({ to: to.trim().toLowerCase() });
  if (options.since !== undefined) query.set("since", String(options.since));
  const url = `${httpUrl.replace(/\/+$/, "")}/messages?${query}`;
  let lastProblem = "";
  let seen: CaughtMail[] = [];
  for (;;) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(Math.max(1_000, deadline - Date.now())) });
      if (!response.ok) throw new Error(`${url} answered ${response.status}`);
      seen = (await response.json()) as CaughtMail[];
      lastProblem = "";
      const found = seen.find(
        (m) =>
          (!options.subject || options.subject.test(m.subject)) &&
          (options.since === undefined || m.receivedAt >= options.since),
      );
      if (found) return found;
    } catch (error) {
      // The catcher may not be up yet, or briefly busy: keep polling until the deadline.
      lastProblem = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() >= deadline) {
      const subjects = seen.map((m) => JSON.stringify(m.subject)).join(", ") || "none";
      throw new Error(
        `no mail to ${to}${options.subject ? ` matching ${options.subject}` : ""} within ${timeoutMs} ms` +
          ` (mail to that address: ${subjects}${lastProblem ? `; last error: ${lastProblem}` : ""})`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
