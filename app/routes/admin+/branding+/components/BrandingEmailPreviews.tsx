import { EMAIL_PREVIEW_WIDTHS, EMAIL_PREVIEWS, emailPreviewPath, type EmailPreview } from "~/lib/email-previews";
import type { MessageKey } from "~/lib/i18n";
import { useT } from "~/components/useT";
import * as styles from "./BrandingEmailPreviews.css";

/**
 * The emails of a brand preview (issue 32, decision 081): each email a contact gets, as the draft
 * would make it, in frames at a phone's and a desktop mail client's width. Each frame loads the
 * email's HTML from /admin/branding/preview/email/<kind>, which this admin's session renders with
 * the draft and demo data of the business; it runs no script, so the frames need none either.
 */
export function BrandingEmailPreviews() {
  const t = useT();
  return (
    <section className={styles.section} aria-labelledby="brand-emails">
      <h2 id="brand-emails">{t("branding.emails.title")}</h2>
      <p>{t("branding.emails.intro")}</p>
      {EMAIL_PREVIEWS.map((kind) => (
        <EmailFrames key={kind} kind={kind} />
      ))}
    </section>
  );
}

function EmailFrames({ kind }: { kind: EmailPreview }) {
  const t = useT();
  const name = t(`branding.emails.kind.${kind}` as MessageKey);
  return (
    <div className={styles.email}>
      <h3 id={`brand-email-${kind}`}>{name}</h3>
      <div className={styles.frames}>
        {EMAIL_PREVIEW_WIDTHS.map((width) => {
          const caption = t("branding.emails.frameCaption", { width });
          const phone = width === 360;
          return (
            <figure key={width} className={styles.figure}>
              <figcaption className={styles.caption}>{caption}</figcaption>
              <div className={phone ? styles.phoneBox : styles.desktopBox}>
                <iframe
                  src={emailPreviewPath(kind)}
                  title={t("branding.emails.frameTitle", { email: name, caption })}
                  className={phone ? styles.phoneFrame : styles.desktopFrame}
                  width={width}
                  height={640}
                  loading="lazy"
                  // No scripts (the email has none, and its answer's policy allows none); same origin,
                  // so this admin's session draws the draft's logo; its links open outside the frame.
                  sandbox="allow-same-origin allow-popups allow-popups-to-escape-sandbox"
                  data-email={kind}
                  data-width={width}
                />
              </div>
            </figure>
          );
        })}
      </div>
    </div>
  );
}
