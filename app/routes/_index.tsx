import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { getDb } from "~/services/database.server";
import { requireHostBranding } from "~/services/tenant.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const branding = await requireHostBranding(request);
  const db = await getDb();
  const business = await db
    .selectFrom("businesses")
    .select(["support_email as supportEmail"])
    .where("id", "=", branding.businessId)
    .executeTakeFirst();
  return {
    businessName: branding.businessName,
    businessLabel: branding.businessLabel,
    supportEmail: business?.supportEmail ?? null,
  };
}

export default function Home() {
  const { businessName, businessLabel, supportEmail } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>{businessLabel || `${businessName} customer portal`}</h1>
      <p>
        See your accounts, statements and invoices from {businessName}, keep your cards and bank accounts, and pay
        by card or PayTo — on any device, with or without JavaScript.
      </p>
      {supportEmail ? (
        <p>
          Questions about your account? Write to <a href={`mailto:${supportEmail}`}>{supportEmail}</a>.
        </p>
      ) : null}
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.businessName ?? "Page not found" }];
