import type { MetaDescriptor } from "@remix-run/node";
import { metaTranslator, type MessageKey } from "~/lib/i18n";

/**
 * Meta descriptions (issue 19). Every page says in one sentence, in the page's language,
 * what it is for and whose portal it is: search engines and link previews show it under
 * the title, and Lighthouse's SEO audit asks for one. The sentences live in the message
 * files (`meta.*`, with a `{business}` placeholder); the routes only choose one.
 */

type Matches = readonly { id: string; data: unknown }[];

type RootBrand = { brand?: { businessName?: unknown } } | undefined;

/** The host's business name from the root loader, for pages whose own loader gave none (errors). */
export function hostBusinessName(matches: Matches): string | undefined {
  const root = matches.find((match) => match.id === "root")?.data as RootBrand;
  const name = root?.brand?.businessName;
  return typeof name === "string" && name !== "" ? name : undefined;
}

/**
 * The page's `<meta name="description">`. The business name is the page loader's when it
 * has one (a preview shows the draft's), else the host's; with neither (an unknown host)
 * the sentence says the portal is not here, since there is no business to name.
 */
export function metaDescription(
  matches: Matches,
  key: MessageKey,
  businessName?: string,
  params: Record<string, string> = {},
): MetaDescriptor {
  const t = metaTranslator(matches);
  const business = businessName ?? hostBusinessName(matches);
  return { name: "description", content: business ? t(key, { ...params, business }) : t("meta.noHost") };
}
