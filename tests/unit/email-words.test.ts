import { describe, expect, it } from "vitest";
import { describeFindings, scanText } from "../support/text-scan";
import { DEMOS, everyEmail, type RenderedEmail } from "../support/email-gallery";

/** What a reader sees of an HTML email: no head, no tags, entities decoded. */
function visibleText(html: string): string {
  return html
    .replace(/<head[\s\S]*?<\/head>/gi, " ")
    .replace(/<(style|script)[\s\S]*?<\/\1>/gi, " ")
    .replace(/<br\s*\/?>|<\/(p|div|td|tr|h\d|li)>/gi, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/&nbsp;|&#xa0;/gi, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

function findings(name: string, mail: RenderedEmail): string[] {
  const parts: [string, string][] = [
    ["subject", mail.subject ?? ""],
    ["text part", mail.text ?? ""],
    ["HTML", visibleText(mail.html)],
  ];
  return parts.flatMap(([part, text]) => describeFindings(`${name} (${part})`, scanText(text, { customerPage: true })));
}

/**
 * The words check of issue 32 on every email to a contact, and on the business's copies (an answer, an
 * instalment in arrears or paid twice), rendered for both demo brands (tests/support/email-gallery.ts).
 * The text part, the subject and the HTML's visible text are scanned.
 */
describe.each(Object.entries(DEMOS))("every email of %s reads right (issue 32)", (_, demo) => {
  it("has no 's's, no double stop, no lower-case card brand, no 'sandbox' and no ISO timestamp", async () => {
    const mails = await everyEmail(demo);
    expect(mails).toHaveLength(25);
    expect(mails.flatMap(([name, mail]) => findings(name, mail))).toEqual([]);
  });
});
