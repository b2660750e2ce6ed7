import { useRouteLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { DEFAULT_LANGUAGE, translator, type LanguageCode } from "~/lib/i18n";

/** The translator for the page's language, chosen on the server by the root loader. */
export function useT() {
  const data = useRouteLoaderData<{ language?: LanguageCode }>("root");
  const language = data?.language ?? DEFAULT_LANGUAGE;
  return useMemo(() => translator(language), [language]);
}
