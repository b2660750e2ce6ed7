import { Link, Text } from "@react-email/components";
import { emailColors, type EmailBrand } from "../platform/email-layout.server";

/**
 * The link of an emailed-link message written out below its button, for mail programs that hide
 * buttons, and a word on keeping it private: every request, schedule, agreement, response and
 * trade-reference email ends its body with this. `once` is for a link that takes one answer (a trade
 * reference); the others work until they expire.
 */
export function FallbackLink(props: { brand: EmailBrand; link: string; expires: string; once?: boolean }) {
  const c = emailColors(props.brand);
  return (
    <>
      <Text style={{ fontSize: "13px", lineHeight: "20px", color: c.mutedText, margin: "16px 0 4px" }}>
        If the button does not work, open this link:
      </Text>
      <Text style={{ fontSize: "13px", lineHeight: "20px", margin: 0, wordBreak: "break-all" }}>
        <Link href={props.link} style={{ color: c.link, textDecoration: "underline" }}>
          {props.link}
        </Link>
      </Text>
      {props.once ? (
        <Text style={{ fontSize: "13px", lineHeight: "20px", color: c.mutedText, margin: "12px 0 0" }}>
          This link is for you: please do not forward it. You can answer once, until {props.expires}.
        </Text>
      ) : (
        <Text style={{ fontSize: "13px", lineHeight: "20px", color: c.mutedText, margin: "12px 0 0" }}>
          This link is for you: please do not forward it. It works until {props.expires}.
        </Text>
      )}
    </>
  );
}
