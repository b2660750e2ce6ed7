import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { formatDate } from "~/lib/format";
import { checkHealth } from "~/services/heartbeat.server";
import { requireHostBranding, serviceUnavailable } from "~/services/tenant.server";

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

export default function Heartbeat() {
  const { time, date } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Portal status</h1>
      <p>
        <strong>All systems working.</strong> The portal and its database answered at {time} on {date}.
      </p>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Status · ${data.businessName}` : "Temporarily unavailable" },
];
