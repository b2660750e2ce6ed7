import { Form, Link } from "@remix-run/react";
import type {
  Channel,
  ChangeVia,
  PreferencesPageData,
  PreferencesViewData,
  PreferenceTopic,
  UnsubscribePageData,
  UnsubscribeViewData,
} from "~/lib/communication";
import type { MessageKey } from "~/lib/i18n";
import * as buttonStyles from "./Button.css";
import * as styles from "./CommunicationPreferences.css";
import { ErrorSummary } from "./ErrorSummary";
import { FormMessage, formStyles } from "./Form";
import { StatusScreen } from "./StatusScreen";
import { useT } from "./useT";

/**
 * The preference centre (issue 17; decision 039), signed in or from a signed link: a group per
 * topic with a box per channel, receipts shown as always sent (and why), one Save button, and the
 * latest changes. A plain form: every box posts as ticked or not, the page redirects back with a
 * notice, and works the same without JavaScript. From a link, news and offers that are off show
 * how to sign in to choose them instead of a box: a link may turn them off, not on.
 */
const topicName = (topic: PreferenceTopic) => `communication.topic.${topic}` as MessageKey;
const topicHint = (topic: PreferenceTopic) => `communication.topic.${topic}.hint` as MessageKey;
const channelName = (channel: Channel) => `communication.channel.${channel}` as MessageKey;
const viaName = (via: ChangeVia) => `communication.via.${via}` as MessageKey;
/** The topic inside a sentence ("Unsubscribe from payment reminders?"). */
export const topicInSentence = (topic: PreferenceTopic) => `communication.about.${topic}` as MessageKey;

export function PreferencesForm({ data }: { data: PreferencesViewData }) {
  const t = useT();
  const business = data.businessName;
  const refusedTopic = (topic: PreferenceTopic) => data.error === "sign-in-to-opt-in" && data.refused.includes(topic);
  return (
    <div className={styles.page}>
      <h1>{t("communication.title")}</h1>
      <p className={styles.lead}>{t("communication.lead", { business, email: data.email })}</p>
      {data.error ? (
        <ErrorSummary id="preferences-errors" title={t("communication.error.summary")} answer={data}>
          {data.error === "unknown" ? (
            <li>
              <a href="#preferences">{t("communication.error.unknown")}</a>
            </li>
          ) : (
            data.refused.map((topic) => (
              <li key={topic}>
                <a href={`#topic-${topic}`}>
                  {t("communication.error.signInToOptIn", { topic: t(topicInSentence(topic)) })}
                </a>
              </li>
            ))
          )}
        </ErrorSummary>
      ) : data.notice ? (
        <FormMessage kind="notice">
          {t(data.notice === "saved" ? "communication.saved" : "communication.unchanged")}
        </FormMessage>
      ) : null}
      <Form method="post" id="preferences" aria-label={t("communication.form")}>
        <div className={styles.topics}>
          {data.topics.map(({ topic, channels }) => {
            const refused = refusedTopic(topic);
            const words = { topic: t(topicInSentence(topic)), business };
            return (
              <fieldset
                key={topic}
                id={`topic-${topic}`}
                className={styles.topic}
                aria-describedby={refused ? `topic-${topic}-hint topic-${topic}-error` : `topic-${topic}-hint`}
                aria-invalid={refused ? true : undefined}
              >
                <legend className={styles.topicName}>{t(topicName(topic))}</legend>
                <p id={`topic-${topic}-hint`} className={formStyles.hint}>
                  {t(topicHint(topic), { business })}
                </p>
                {refused ? (
                  <p id={`topic-${topic}-error`} className={formStyles.error}>
                    {t("communication.error.signInToOptIn", words)}
                  </p>
                ) : null}
                <div className={styles.channels}>
                  {channels.map(({ channel, enabled, signInToEnable }) => {
                    const id = `pref-${topic}-${channel}`;
                    if (signInToEnable) {
                      return (
                        <p key={channel} id={id} className={styles.optIn}>
                          {t("communication.optIn.text", words)}{" "}
                          <Link to={data.signInHref}>{t("communication.optIn.link", words)}</Link>
                        </p>
                      );
                    }
                    return (
                      <div key={channel} className={styles.channel}>
                        <input
                          type="checkbox"
                          id={id}
                          name="pref"
                          value={`${topic}.${channel}`}
                          defaultChecked={enabled}
                          className={formStyles.checkbox}
                        />
                        <label htmlFor={id}>{t(channelName(channel))}</label>
                      </div>
                    );
                  })}
                </div>
              </fieldset>
            );
          })}
          <section className={styles.always} aria-labelledby="always-title">
            <h2 id="always-title" className={styles.alwaysTitle}>
              {t("communication.always.title")}
            </h2>
            <p className={formStyles.hint}>{t("communication.always.text", { business })}</p>
          </section>
        </div>
        <p className={formStyles.hint}>{t("communication.postNote", { business })}</p>
        <div className={styles.actions}>
          <button type="submit" name="intent" value="save" className={buttonStyles.button}>
            {t("communication.save")}
          </button>
        </div>
      </Form>
      <h2 id="history">{t("communication.history.title")}</h2>
      {data.history.length ? (
        <ul className={styles.history} aria-labelledby="history">
          {data.history.map((change, index) => (
            <li key={index} className={styles.historyItem}>
              <span>
                {t("communication.history.item", {
                  topic: t(topicName(change.topic)),
                  channel: t(channelName(change.channel)).toLowerCase(),
                  state: t(change.enabled ? "communication.history.on" : "communication.history.off"),
                })}
              </span>
              <span className={styles.historyMeta}>
                {t("communication.history.when", { when: change.when, how: t(viaName(change.via), { business }) })}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p>{t("communication.history.none")}</p>
      )}
    </div>
  );
}

/** Signed out with no link: sign in, or use the link in an email. */
export function PreferencesSignedOut({ businessName, signInHref }: { businessName: string; signInHref: string }) {
  const t = useT();
  return (
    <StatusScreen
      title={t("communication.title")}
      actions={
        <Link to={signInHref} className={buttonStyles.button}>
          {t("communication.signedOut.signIn")}
        </Link>
      }
    >
      <p>{t("communication.signedOut.text", { business: businessName })}</p>
    </StatusScreen>
  );
}

/** Signed in with an email address never confirmed. */
export function PreferencesUnverified({ businessName }: { businessName: string }) {
  const t = useT();
  return (
    <StatusScreen
      title={t("communication.title")}
      actions={
        <Link to="/auth/verify" className={buttonStyles.button}>
          {t("communication.unverified.action")}
        </Link>
      }
    >
      <p>{t("communication.unverified.text", { business: businessName })}</p>
    </StatusScreen>
  );
}

/** A signed link that does not check out: one message for every reason, and nothing changed. */
export function PreferencesLinkInvalid({ businessName }: { businessName: string }) {
  const t = useT();
  return (
    <StatusScreen
      eyebrow={t("errors.code", { status: 404 })}
      title={t("communication.invalid.title")}
      actions={
        <Link
          to={`/auth/signin?${new URLSearchParams({ callbackUrl: "/communication" })}`}
          className={buttonStyles.button}
        >
          {t("communication.signedOut.signIn")}
        </Link>
      }
    >
      <p>{t("communication.invalid.text", { business: businessName })}</p>
    </StatusScreen>
  );
}

/**
 * The one-click unsubscribe link's page: opening it changes nothing (mail scanners open links);
 * one button does it. Once off, the page says so, with a button to subscribe again — or, for news
 * and offers, how to sign in to choose them again (a link may not turn them on); both ways, a link
 * to every preference.
 */
export function UnsubscribeConfirm({ data }: { data: UnsubscribeViewData }) {
  const t = useT();
  const words = { topic: t(topicInSentence(data.topic)), email: data.email, business: data.businessName };
  return (
    <div className={styles.page}>
      {data.enabled ? (
        <>
          <h1>{t("communication.unsubscribe.title", words)}</h1>
          {data.notice === "resubscribed" ? (
            <FormMessage kind="notice">{t("communication.resubscribed", words)}</FormMessage>
          ) : null}
          <p className={styles.lead}>{t("communication.unsubscribe.lead", words)}</p>
          <p className={styles.lead}>{t("communication.unsubscribe.still")}</p>
          <Form method="post" className={styles.actions}>
            <button type="submit" name="intent" value="unsubscribe" className={buttonStyles.button}>
              {t("communication.unsubscribe.button")}
            </button>
          </Form>
        </>
      ) : (
        <>
          <h1>{t("communication.unsubscribed.title", words)}</h1>
          {data.error ? (
            <FormMessage kind="error" id="unsubscribe-errors">
              {t("communication.error.signInToOptIn", words)}
            </FormMessage>
          ) : null}
          <p className={styles.lead}>{t("communication.unsubscribed.lead", words)}</p>
          <p className={styles.lead}>{t("communication.unsubscribe.still")}</p>
          {data.resubscribe ? (
            <Form method="post" className={styles.actions} aria-labelledby="again">
              <span id="again">{t("communication.unsubscribed.again")}</span>
              <button type="submit" name="intent" value="resubscribe" className={buttonStyles.secondaryButton}>
                {t("communication.resubscribe.button")}
              </button>
            </Form>
          ) : (
            <p className={styles.lead}>
              {t("communication.optIn.text", words)}{" "}
              <Link to={data.signInHref}>{t("communication.optIn.link", words)}</Link>
            </p>
          )}
        </>
      )}
      <p>
        <Link to={data.preferencesHref}>{t("communication.unsubscribe.all")}</Link>
      </p>
    </div>
  );
}

/** The preference page for whatever the loader found: the form, or why there is none. */
export function PreferencesPage({ data }: { data: PreferencesPageData }) {
  switch (data.kind) {
    case "signed-out":
      return <PreferencesSignedOut businessName={data.businessName} signInHref={data.signInHref} />;
    case "unverified":
      return <PreferencesUnverified businessName={data.businessName} />;
    case "invalid":
      return <PreferencesLinkInvalid businessName={data.businessName} />;
    default:
      return <PreferencesForm data={data} />;
  }
}

/** The unsubscribe page, or the one message for a link that does not check out. */
export function UnsubscribePage({ data }: { data: UnsubscribePageData }) {
  return data.kind === "invalid" ? (
    <PreferencesLinkInvalid businessName={data.businessName} />
  ) : (
    <UnsubscribeConfirm data={data} />
  );
}
