import { Form } from "@remix-run/react";
import { secondaryButton } from "./Button.css";
import { StatusScreen } from "./StatusScreen";
import { useT } from "./useT";

/** Spec §2: the contact signed in, but no account is joined to their login. */
export function AccountsNotFound({ signOutAction = "/auth/signout" }: { signOutAction?: string }) {
  const t = useT();
  return (
    <StatusScreen
      title={t("noAccounts.title")}
      actions={
        <Form method="post" action={signOutAction} reloadDocument>
          <button type="submit" className={secondaryButton}>
            {t("shell.signOut")}
          </button>
        </Form>
      }
    >
      <p>{t("noAccounts.text")}</p>
    </StatusScreen>
  );
}
