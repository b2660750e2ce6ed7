/**
 * Sentences around names the portal does not write itself (issue 32): a business called
 * "Kiwi Freight Co." must not end up as "Contact Kiwi Freight Co..". Pure, shared by the
 * translator (a `{placeholder}` followed by a full stop) and the emails' hand-written lines.
 */

/** Ends a sentence with a full stop, unless its last word already carries one (or "!", "?"). */
export function endSentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/**
 * Fills `{name}` placeholders from params, as text. A value that already ends in "." followed by
 * the template's own full stop keeps one stop; an ellipsis in the template ("{name}...") is kept.
 */
export function fillPlaceholders(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}(\.(?!\.))?/g, (_, name: string, stop: string | undefined) => {
    // Own keys only, so a key that reached here from a URL can never name Object.prototype's.
    const text = String((Object.hasOwn(params, name) ? params[name] : undefined) ?? `{${name}}`);
    return stop && text.endsWith(".") ? text : text + (stop ?? "");
  });
}
