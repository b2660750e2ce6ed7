import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { formatDate } from "~/lib/format";
import { checkHealth, requireHostBranding, serviceUnavailable } from "./public.server";
import { useT } from "~/components/useT";
import { metaTranslator } from "~/lib/i18n";
import { metaDescription } from "~/lib/meta";
import { STATIC_PAGE } from "~/lib/client-runtime";

/** The /heartbeat page (spec §2): a person-readable health check, 503 when the database is down. */
export async function loader({ request }: LoaderFunctionArgs) {
  const branding = await requireHostBranding(request);
  const health = await checkHealth();
  if (!health.ok) throw serviceUnavailable();
  const timeZone = branding.timeZone;
  // Formatted here, once, so the server's and the browser's Intl data cannot disagree.
  const time = new Date(health.checkedAt).toLocaleTimeString("en-AU", {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
  return { time, date: formatDate(health.checkedAt, { timeZone }), businessName: branding.businessName };
}

/** Only shows: no script at all (decision 049). */
export const handle = STATIC_PAGE;

export default function Heartbeat() {
  const { time, date } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <>
      <h1>{t("heartbeat.title")}</h1>
      <p>
        <strong>{t("heartbeat.ok")}</strong> {t("heartbeat.text", { time, date })}
      </p>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.unavailable.title") }, metaDescription(matches, "meta.unavailable")];
  return [
    { title: `${t("heartbeat.metaTitle")} · ${data.businessName}` },
    metaDescription(matches, "meta.status", data.businessName),
  ];
};
