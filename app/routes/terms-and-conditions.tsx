import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { RichText } from "~/components/RichText";
import { loadLegalPage } from "~/services/legal.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return loadLegalPage(request, "terms_and_conditions");
}

export default function TermsAndConditions() {
  const { content } = useLoaderData<typeof loader>();
  return <RichText source={content} fallbackTitle="Terms and conditions" />;
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Terms and conditions · ${data.businessName}` : "Page not found" },
];
