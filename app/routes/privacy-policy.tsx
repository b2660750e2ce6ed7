import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { RichText } from "~/components/RichText";
import { loadLegalPage } from "~/services/legal.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return loadLegalPage(request, "privacy_policy");
}

export default function PrivacyPolicy() {
  const { content } = useLoaderData<typeof loader>();
  return <RichText source={content} fallbackTitle="Privacy policy" />;
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Privacy policy · ${data.businessName}` : "Page not found" },
];
