import { data, redirect } from "@remix-run/node";
import {
  isPreferenceKey,
  optInNeedsSignIn,
  PREFERENCE_KEYS,
  PREFERENCE_TOPICS,
  splitPreferenceKey,
  TOPIC_CHANNELS,
  type PreferenceKey,
  type PreferencesPageData,
  type PreferencesViewData,
  type UnsubscribePageData,
} from "~/lib/communication";
import { requireSession } from "../auth/auth.server";
import type { HostBranding } from "../host/host.server";
import { pageDates } from "../host/language.server";
import { LINK_PAGE_HEADERS } from "../links/link-pages.server";
import { readForm } from "../platform/http.server";
import { checkLink, preferencesLinkPath, signLink, unsubscribeLinkPath } from "./preference-links.server";
import { changePreferences, readPreferences, type ContactPreferences } from "./preferences.server";

/**
 * The preference centre's pages (issue 17; decision 039), for both ways in:
 * - signed in, `/communication`: the signed-in contact's own preferences (a verified contact,
 *   with or without portal access: the path is public and customer-style, so the loader reads the
 *   session itself);
 * - signed out, `/communication/<token>`: the preferences of the contact a signed link names,
 *   and nothing else of theirs (no account, no name of an account, no menu);
 * and the one-click unsubscribe page, `/communication/unsubscribe?token=<token>` (RFC 8058).
 *
 * The form posts every choice it shows: a ticked box is on, an unticked one off. A form naming a
 * choice the page does not offer (another topic, receipts, HTML, another contact's anything) is
 * refused whole, and nothing changes. The contact is the session's or the link's, never the form's.
 * A link's page may turn news and offers off but not on: while they are off it shows how to sign
 * in to choose them instead of a box, and a form turning them on by link is refused whole.
 */
const SIGN_IN_HREF = `/auth/signin?${new URLSearchParams({ callbackUrl: "/communication" })}`;

/**
 * The page; a change's time is where the business is, in the page's language: "Nov 30, 2026,
 * 10:04 am", "30 Nov 2026, 10.04" (decision 078).
 */
async function pageOf(
  branding: HostBranding,
  preferences: ContactPreferences,
  way: "session" | "link",
  request: Request,
  refusal: { error: PreferencesViewData["error"]; refused?: PreferenceKey[] } = { error: null },
): Promise<PreferencesPageData> {
  const { dateTime } = await pageDates(request, branding);
  const params = new URL(request.url).searchParams;
  const { error } = refusal;
  return {
    kind: "preferences",
    way,
    businessName: branding.businessName,
    email: preferences.contact.email,
    topics: PREFERENCE_TOPICS.map((topic) => ({
      topic,
      channels: TOPIC_CHANNELS[topic].map((channel) => {
        const enabled = preferences.choices.find((c) => c.topic === topic && c.channel === channel)!.enabled;
        const signInToEnable = way === "link" && !enabled && optInNeedsSignIn(`${topic}.${channel}`, "link");
        return { channel, enabled, signInToEnable };
      }),
    })),
    history: preferences.history.map((change) => ({
      topic: change.topic,
      channel: change.channel,
      enabled: change.enabled,
      via: change.via,
      when: dateTime(change.changedAt),
    })),
    notice: error ? null : params.has("saved") ? "saved" : params.has("unchanged") ? "unchanged" : null,
    error,
    refused: [...new Set((refusal.refused ?? []).map((key) => splitPreferenceKey(key).topic))],
    signInHref: SIGN_IN_HREF,
  };
}

const invalid = (branding: HostBranding) =>
  data<PreferencesPageData>(
    { kind: "invalid", businessName: branding.businessName },
    { status: 404, headers: LINK_PAGE_HEADERS },
  );

/** The contact a preferences link names, if it checks out for this host and the contact exists. */
function linkContact(branding: HostBranding, token: string | undefined): string | null {
  const checked = checkLink(branding.businessId, token, "preferences");
  return checked.ok ? checked.contactId : null;
}

// ---------------------------------------------------------------------------------------------
// Loaders

export async function preferencesBySession(
  branding: HostBranding,
  session: { contact: { id: string; verified: boolean } } | null,
  request: Request,
) {
  if (!session) {
    return data<PreferencesPageData>({
      kind: "signed-out",
      businessName: branding.businessName,
      signInHref: SIGN_IN_HREF,
    });
  }
  // Consent to email is the address owner's to give: an address never confirmed gives none.
  if (!session.contact.verified) {
    return data<PreferencesPageData>({ kind: "unverified", businessName: branding.businessName });
  }
  const preferences = await readPreferences(branding.businessId, session.contact.id);
  if (!preferences) throw new Response(null, { status: 404 });
  return data(await pageOf(branding, preferences, "session", request));
}

export async function preferencesByLink(branding: HostBranding, token: string | undefined, request: Request) {
  const contactId = linkContact(branding, token);
  const preferences = contactId ? await readPreferences(branding.businessId, contactId) : null;
  if (!preferences) return invalid(branding);
  return data(await pageOf(branding, preferences, "link", request), { headers: LINK_PAGE_HEADERS });
}

// ---------------------------------------------------------------------------------------------
// Saving

/** The choices a form posts, or null when it names anything the page does not offer. */
export function choicesFromForm(form: FormData): Record<PreferenceKey, boolean> | null {
  const chosen = new Set<PreferenceKey>();
  for (const [name, value] of form) {
    if (name === "intent" && value === "save") continue;
    if (name === "pref" && isPreferenceKey(value)) {
      chosen.add(value);
      continue;
    }
    return null;
  }
  if (form.getAll("intent").length !== 1) return null;
  return Object.fromEntries(PREFERENCE_KEYS.map((key) => [key, chosen.has(key)])) as Record<PreferenceKey, boolean>;
}

async function save(
  branding: HostBranding,
  contactId: string,
  via: "portal" | "link",
  request: Request,
  self: string,
  headers: Record<string, string>,
) {
  const form = await readForm(request);
  const way = via === "portal" ? "session" : "link";
  /** The page again as stored now (nothing changed), with why the form was refused: 400. */
  const refuse = async (refusal: Parameters<typeof pageOf>[4]) => {
    const preferences = await readPreferences(branding.businessId, contactId);
    if (!preferences) return invalid(branding);
    return data(await pageOf(branding, preferences, way, request, refusal), { status: 400, headers });
  };
  const choices = choicesFromForm(form);
  if (!choices) return refuse({ error: "unknown" });
  const result = await changePreferences(branding.businessId, contactId, choices, { via });
  if (!result) return invalid(branding);
  if (result.refused?.length) return refuse({ error: "sign-in-to-opt-in", refused: result.refused });
  // POST/redirect/GET: a reload never posts again, and the notice says what happened.
  return redirect(`${self}?${result.changed.length ? "saved" : "unchanged"}=1`, { headers });
}

export async function saveBySession(request: Request) {
  const { branding, session } = await requireSession(request);
  if (!session.contact.verified) {
    return data<PreferencesPageData>({ kind: "unverified", businessName: branding.businessName }, { status: 403 });
  }
  return save(branding, session.contact.id, "portal", request, "/communication", {});
}

export async function saveByLink(branding: HostBranding, token: string | undefined, request: Request) {
  const contactId = linkContact(branding, token);
  if (!contactId) return invalid(branding);
  return save(branding, contactId, "link", request, preferencesLinkPath(token!), LINK_PAGE_HEADERS);
}

// ---------------------------------------------------------------------------------------------
// One-click unsubscribe (RFC 8058)

const unsubscribeInvalid = (branding: HostBranding) =>
  data<UnsubscribePageData>(
    { kind: "invalid", businessName: branding.businessName },
    { status: 404, headers: LINK_PAGE_HEADERS },
  );

async function unsubscribeView(
  branding: HostBranding,
  token: string | null,
  notice: "unsubscribed" | "resubscribed" | null,
  error: "sign-in-to-opt-in" | null = null,
): Promise<UnsubscribePageData | null> {
  const checked = checkLink(branding.businessId, token, "unsubscribe");
  if (!checked.ok || checked.purpose.kind !== "unsubscribe") return null;
  const preferences = await readPreferences(branding.businessId, checked.contactId, { historyLimit: 0 });
  if (!preferences) return null;
  const topic = checked.purpose.topic;
  return {
    kind: "unsubscribe",
    businessName: branding.businessName,
    email: preferences.contact.email,
    topic,
    enabled: preferences.choices.find((c) => c.topic === topic && c.channel === "email")!.enabled,
    resubscribe: !optInNeedsSignIn(`${topic}.email`, "link"),
    // The unsubscribe link proves the same person: their whole preference page is one step away.
    preferencesHref: preferencesLinkPath(signLink(branding.businessId, checked.contactId, { kind: "preferences" })),
    signInHref: SIGN_IN_HREF,
    notice,
    error,
  };
}

/** GET: shows the contact's choice for the link's topic and one button; it never changes anything. */
export async function unsubscribePage(branding: HostBranding, request: Request) {
  const params = new URL(request.url).searchParams;
  const done = params.get("done");
  const view = await unsubscribeView(
    branding,
    params.get("token"),
    done === "unsubscribed" || done === "resubscribed" ? done : null,
  );
  return view ? data(view, { headers: LINK_PAGE_HEADERS }) : unsubscribeInvalid(branding);
}

/** What a POST to the unsubscribe URL asks: RFC 8058's one click, or the page's own buttons. */
export type UnsubscribeIntent = "one-click" | "unsubscribe" | "resubscribe" | "bad";

export function unsubscribeIntentOf(form: FormData): UnsubscribeIntent {
  const names = [...form.keys()];
  // RFC 8058 §3.1: the body is the key/value pair "List-Unsubscribe=One-Click".
  if (names.includes("List-Unsubscribe")) {
    return names.length === 1 &&
      form.getAll("List-Unsubscribe").length === 1 &&
      form.get("List-Unsubscribe") === "One-Click"
      ? "one-click"
      : "bad";
  }
  if (names.length !== 1 || form.getAll("intent").length !== 1) return "bad";
  const intent = form.get("intent");
  return intent === "unsubscribe" || intent === "resubscribe" ? intent : "bad";
}

/**
 * POST: the signed link is the authority (decision 039). One click turns the link's topic off by
 * email and answers 200 with the page (no redirect: a mail provider posting server to server
 * follows none); the page's buttons turn it off or back on and redirect to the page (POST/redirect/
 * GET). Again is no change. A link that does not check out changes nothing.
 */
export async function unsubscribeAction(branding: HostBranding, request: Request, intent: UnsubscribeIntent) {
  if (intent === "bad") throw data({ reason: "bad-form" }, { status: 400, headers: LINK_PAGE_HEADERS });
  const token = new URL(request.url).searchParams.get("token");
  const checked = checkLink(branding.businessId, token, "unsubscribe");
  if (!checked.ok || checked.purpose.kind !== "unsubscribe") return unsubscribeInvalid(branding);
  const topic = checked.purpose.topic;
  const enabled = intent === "resubscribe";
  const result = await changePreferences(
    branding.businessId,
    checked.contactId,
    { [`${topic}.email`]: enabled },
    { via: intent === "one-click" ? "one-click" : "link" },
  );
  if (!result) return unsubscribeInvalid(branding);
  if (result.refused?.length) {
    // "Subscribe again" to news and offers: not by a link (the page offers no such button).
    const view = await unsubscribeView(branding, token, null, "sign-in-to-opt-in");
    return view ? data(view, { status: 400, headers: LINK_PAGE_HEADERS }) : unsubscribeInvalid(branding);
  }
  const notice = enabled ? "resubscribed" : "unsubscribed";
  if (intent === "one-click") {
    const view = await unsubscribeView(branding, token, notice);
    return view ? data(view, { headers: LINK_PAGE_HEADERS }) : unsubscribeInvalid(branding);
  }
  return redirect(`${unsubscribeLinkPath(token!)}&done=${notice}`, { headers: LINK_PAGE_HEADERS });
}
