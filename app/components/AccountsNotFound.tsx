import { Form } from "@remix-run/react";
import { secondaryButton } from "./Button.css";
import { StatusScreen } from "./StatusScreen";

/** Spec §2: the contact signed in, but no account is joined to their login. */
export function AccountsNotFound({ signOutAction = "/auth/signout" }: { signOutAction?: string }) {
  return (
    <StatusScreen
      title="Accounts not found"
      actions={
        <Form method="post" action={signOutAction} reloadDocument>
          <button type="submit" className={secondaryButton}>
            Sign out
          </button>
        </Form>
      }
    >
      <p>We could not find any accounts joined to your login.</p>
    </StatusScreen>
  );
}
