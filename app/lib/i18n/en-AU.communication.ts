/**
 * English (AU): the preference centre `/communication` (signed in, or from a signed link in an
 * email), its one-click unsubscribe page, the menu entry and the line every email to a contact
 * carries (issue 17; decision 039). Spread into `enAU`.
 */
export const communicationEnAU = {
  "shell.communication": "Communication preferences",
  "communication.title": "Communication preferences",
  "communication.lead": "Choose which messages {business} sends you, and how. These choices are for {email}.",
  "communication.form": "Your choices",
  "communication.topic.statements": "Statements",
  "communication.topic.statements.hint": "Your account statement, usually once a month.",
  "communication.topic.invoices": "Invoices",
  "communication.topic.invoices.hint": "A copy of each new invoice.",
  "communication.topic.reminders": "Payment reminders",
  "communication.topic.reminders.hint": "A reminder when a payment {business} asked you for is due or overdue.",
  "communication.topic.marketing": "News and offers",
  "communication.topic.marketing.hint":
    "Occasional news and offers from {business}, only if you tick the box. You can stop them at any time.",
  "communication.channel.email": "By email",
  "communication.channel.post": "By post",
  "communication.postNote": "Statements and invoices by post go to the address {business} has for your account.",
  "communication.always.title": "Receipts: always sent",
  "communication.always.text":
    "Receipts, payment requests, payment schedules, agreements, questions {business} asks you to answer (such as confirming a delivery address) and emails about your login are always sent by email. Each is the record of a payment, or something you are asked to do, so they can't be turned off.",
  "communication.save": "Save preferences",
  "communication.saved": "Your preferences are saved.",
  "communication.unchanged": "Nothing changed: these were already your preferences.",
  "communication.error.summary": "There is a problem",
  "communication.error.unknown":
    "The form had a choice this page doesn't offer, so nothing was changed. Tick the boxes below and save again.",
  "communication.error.signInToOptIn":
    "A link in an email can't turn on {topic}, so nothing was changed. Sign in to choose them.",
  "communication.optIn.text":
    "You don't get {topic}. A link in an email can only turn them off: to get them, sign in and tick the box.",
  "communication.optIn.link": "Sign in to choose {topic}",
  "communication.history.title": "Recent changes",
  "communication.history.none": "No changes yet: these are the usual settings.",
  "communication.history.item": "{topic}, {channel}: {state}",
  "communication.history.on": "on",
  "communication.history.off": "off",
  "communication.history.when": "{when} · {how}",
  "communication.via.portal": "changed here, signed in",
  "communication.via.link": "changed from a link in an email",
  "communication.via.one-click": "unsubscribed with one click from an email",
  "communication.via.api": "recorded by {business}",
  "communication.signedOut.text":
    "To choose which messages {business} sends you, sign in, or open the link at the foot of any email from {business}.",
  "communication.signedOut.signIn": "Sign in",
  "communication.unverified.text":
    "Confirm your email address first: then you can choose which messages {business} sends to it.",
  "communication.unverified.action": "Confirm your email address",
  "communication.invalid.title": "This link isn't valid",
  "communication.invalid.text":
    "Nothing was changed. The link may be incomplete, or from an email more than a year old. Sign in to choose which messages {business} sends you, or use the link at the foot of a newer email.",
  "communication.about.statements": "statements by email",
  "communication.about.invoices": "invoices by email",
  "communication.about.reminders": "payment reminders",
  "communication.about.marketing": "news and offers",
  "communication.unsubscribe.title": "Unsubscribe from {topic}?",
  "communication.unsubscribe.lead": "{email} will no longer get {topic} from {business}.",
  "communication.unsubscribe.still": "Receipts and other messages about your payments are still sent.",
  "communication.unsubscribe.button": "Unsubscribe",
  "communication.unsubscribe.all": "Choose all your communication preferences",
  "communication.unsubscribed.title": "You're unsubscribed from {topic}",
  "communication.unsubscribed.lead": "{email} no longer gets {topic} from {business}.",
  "communication.unsubscribed.again": "Changed your mind?",
  "communication.resubscribe.button": "Subscribe again",
  "communication.resubscribed": "Done: you'll get {topic} again.",
  "communication.mail.manage": "Choose which emails you get from {business}: {link}",
} as const;
