import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useT } from "~/components/useT";
import { metaTranslator } from "~/lib/i18n";
import { metaDescription } from "~/lib/meta";
import { requireHostAdminPage } from "./admin.server";
import * as styles from "./components/Admin.css";
import { ENHANCED_PAGE } from "~/lib/client-runtime";

/**
 * /admin (issue 32; decision 080): a host admin's home, listing what they may do here: the brand
 * (draft, preview, publish) and who else is an admin. Anyone else gets "Page not found" (404).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding } = await requireHostAdminPage(request);
  return { businessName: branding.businessName };
}

/** No React here: the form posts and the links navigate as HTML does; the small shared conveniences only (decision 084). */
export const handle = ENHANCED_PAGE;

export default function AdminHome() {
  const { businessName } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <>
      <h1>{t("adminHome.title")}</h1>
      <p>{t("adminHome.intro", { business: businessName })}</p>
      <ul className={styles.tasks}>
        <li className={styles.task}>
          <h2 className={styles.taskTitle}>
            <Link to="/admin/branding" className={styles.taskLink}>
              {t("adminHome.branding.title")}
            </Link>
          </h2>
          <p className={styles.taskBody}>{t("adminHome.branding.body")}</p>
        </li>
        <li className={styles.task}>
          <h2 className={styles.taskTitle}>
            <Link to="/admin/admins" className={styles.taskLink}>
              {t("adminHome.admins.title")}
            </Link>
          </h2>
          <p className={styles.taskBody}>{t("adminHome.admins.body")}</p>
        </li>
      </ul>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t("adminHome.title")} · ${data.businessName}` },
    metaDescription(matches, "meta.adminHome", data.businessName),
  ];
};
