import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { CARD_PREFIX_MAX } from "~/lib/card";
import { isPriceField, LIVE_TOTAL_DEBOUNCE_MS, type PayFormReply } from "~/lib/pay-form";

/**
 * The total as the customer changes the form: after a quiet spell, the form's price inputs
 * go to the page's action as `intent=quote`, which answers with the server's breakdown and
 * charges nothing. One fetcher per rendered form (its requestGuid), so an answer for an older
 * form never shows; a new quote aborts the one in flight, so only the latest answer lands.
 * While a change waits for its total, Pay waits too: the customer pays the total they see.
 */
export function useLiveTotal(requestGuid: string, url: string) {
  const fetcher = useFetcher<PayFormReply>({ key: `pay-total-${requestGuid}` });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Which form a change is waiting for: a new form (new requestGuid) starts with nothing waiting.
  const [waitingFor, setWaitingFor] = useState<string | null>(null);
  const waiting = waitingFor === requestGuid;
  useEffect(() => () => clearTimeout(timer.current), [requestGuid]);
  const schedule = (form: HTMLFormElement) => {
    clearTimeout(timer.current);
    setWaitingFor(requestGuid);
    timer.current = setTimeout(() => {
      setWaitingFor(null);
      const all = new FormData(form);
      const body = new FormData();
      body.set("intent", "quote");
      for (const [name, value] of all) {
        if (name === "cardNumber") {
          const digits = String(value).replace(/[\s-]/g, "");
          if (/^\d{6,}$/.test(digits)) body.set("cardPrefix", digits.slice(0, CARD_PREFIX_MAX));
        } else if (isPriceField(name)) body.append(name, value);
      }
      fetcher.submit(body, { method: "post", action: url });
    }, LIVE_TOTAL_DEBOUNCE_MS);
  };
  const cancel = () => {
    clearTimeout(timer.current);
    setWaitingFor(null);
  };
  const data = fetcher.data;
  const quote = data && typeof data === "object" && "breakdown" in data ? data : null;
  return { quote, pending: waiting || fetcher.state === "submitting", schedule, cancel };
}
