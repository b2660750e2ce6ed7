import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { button } from "~/components/Button.css";
import { StatusScreen } from "~/components/StatusScreen";
import { signInErrorMessage } from "~/lib/auth-errors";
import { requireHostBranding } from "~/services/tenant.server";

/** The sign-in error page (spec §2 /error): the provider could not be loaded or used. */
export async function loader({ request }: LoaderFunctionArgs) {
  const branding = await requireHostBranding(request);
  const code = new URL(request.url).searchParams.get("error") ?? "Configuration";
  return { message: signInErrorMessage(code), businessName: branding.businessName };
}

export default function SignInErrorPage() {
  const { message } = useLoaderData<typeof loader>();
  return (
    <StatusScreen
      eyebrow="Sign-in problem"
      title="We couldn't sign you in"
      actions={
        <Link to="/auth/signin" className={button}>
          Back to sign in
        </Link>
      }
    >
      <p>{message}</p>
    </StatusScreen>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Sign-in problem · ${data.businessName}` : "Sign-in problem" },
];
