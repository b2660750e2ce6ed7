import { Form, Link } from "@remix-run/react";
import { button } from "~/components/Button.css";
import { formStyles } from "~/components/Form";
import { useT } from "~/components/useT";

/**
 * The confirm step before something is removed: a page of its own with a POST button and a
 * way back, so it works the same with and without JavaScript.
 */
export function ConfirmRemove({
  title,
  text,
  confirm,
  cancelTo,
}: {
  title: string;
  text: string;
  confirm: string;
  cancelTo: string;
}) {
  const t = useT();
  return (
    <>
      <h1>{title}</h1>
      <p>{text}</p>
      <Form method="post" className={formStyles.actions}>
        <button type="submit" className={button}>
          {confirm}
        </button>
        <Link to={cancelTo}>{t("pm.cancel")}</Link>
      </Form>
    </>
  );
}
