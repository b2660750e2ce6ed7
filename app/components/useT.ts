import { useRouteLoaderData } from "@remix-run/react";
import { createElement, Fragment, useMemo, type ReactNode } from "react";
import { translatorFrom, type LanguageCode } from "~/lib/i18n";
import { messagesIn } from "~/lib/i18n/runtime";

/** The translator for the page's language (the root loader says which; decision 050). */
export function useT() {
  const data = useRouteLoaderData<{ language?: LanguageCode }>("root");
  const messages = messagesIn(data?.language);
  return useMemo(() => translatorFrom(messages), [messages]);
}

/** The page's language (the root loader's), for what a dictionary cannot say: ordinals, dates. */
export function useLanguage(): LanguageCode | undefined {
  return useRouteLoaderData<{ language?: LanguageCode }>("root")?.language;
}

/**
 * Fills `{name}` placeholders of a translated sentence with elements (a link, a bold
 * email), so the word order stays the translation's own.
 */
export function withElements(text: string, elements: Record<string, ReactNode>): ReactNode[] {
  return text.split(/(\{\w+\})/).map((part, index) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    const node = name !== undefined && Object.hasOwn(elements, name) ? elements[name] : part;
    return createElement(Fragment, { key: index }, node);
  });
}
