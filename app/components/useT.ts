import { useRouteLoaderData } from "@remix-run/react";
import { createElement, Fragment, useMemo, type ReactNode } from "react";
import { translatorFrom, type Messages } from "~/lib/i18n";

/** The translator for the page's language: the messages the root loader sent for it. */
export function useT() {
  const data = useRouteLoaderData<{ messages?: Messages }>("root");
  const messages = data?.messages;
  return useMemo(() => translatorFrom(messages), [messages]);
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
