/**
 * English (AU): the instalment runner's emails (issue 15; decision 035) — a declined instalment,
 * a schedule in arrears (to the contact and to the business). Spread into `enAU`.
 */
export const instalmentsEnAU = {
  "instalmentEmail.declined.subject": "The {seq} of {count} instalments to {business} was declined ({reference})",
  "instalmentEmail.declined.title": "An instalment was declined",
  "instalmentEmail.declined.lead":
    "We could not take the {seq} of {count} instalments ({amount}) of your payment schedule with {business}: {reason}",
  "instalmentEmail.declined.retry": "We will try again on {day}. Nothing more is charged before then.",
  "instalmentEmail.declined.action":
    "To pay it now another way, open the link below: you can pay this instalment with another card.",
  "instalmentEmail.arrears.subject": "Your payment schedule with {business} is in arrears ({reference})",
  "instalmentEmail.arrears.title": "Your payment schedule is in arrears",
  "instalmentEmail.arrears.lead":
    "The {seq} of {count} instalments ({amount}) of your payment schedule with {business} was declined on its last try: {reason}",
  "instalmentEmail.arrears.next":
    "It will not be tried again. Please pay it another way from the link below, or contact {business}. Later instalments are still charged on their days.",
  "instalmentEmail.business.subject": "Payment schedule {reference} is in arrears: {account}",
  "instalmentEmail.business.title": "A payment schedule is in arrears",
  "instalmentEmail.business.lead":
    "The {seq} of {count} instalments ({amount}) of payment schedule {reference} was declined on its last try ({tries} tries): {reason}",
  "instalmentEmail.business.next": "It will not be tried again. The contact was emailed a link to pay it another way.",
  "instalmentEmail.paidTwice.subject": "The {seq} of {count} instalments of {reference} was paid twice: {account}",
  "instalmentEmail.paidTwice.title": "An instalment was paid twice",
  "instalmentEmail.paidTwice.lead":
    "Payment {payment} ({amount}) for the {seq} of {count} instalments of payment schedule {reference} was settled by the payer's bank after another payment had already paid that instalment.",
  "instalmentEmail.paidTwice.leadCancelled":
    "Payment {payment} ({amount}) for the {seq} of {count} instalments of payment schedule {reference} was settled by the payer's bank after the schedule was cancelled.",
  "instalmentEmail.paidTwice.next":
    "The {amount} is kept as credit on account {account}. Please refund it to the payer or apply it to another invoice.",
  "instalmentEmail.fact.payment": "Payment",
  "instalmentEmail.button": "Pay it another way",
  "instalmentEmail.fallback": "If the button does not work, open this link:",
  "instalmentEmail.linkNote": "This link is for you: please do not forward it. It works until {day}.",
  "instalmentEmail.fact.instalment": "Instalment",
  "instalmentEmail.fact.instalmentValue": "{seq} of {count}, due {day}",
  "instalmentEmail.fact.amount": "Amount",
  "instalmentEmail.fact.schedule": "Payment schedule",
  "instalmentEmail.fact.account": "Account",
  "instalmentEmail.fact.contact": "Contact",
  "instalmentEmail.fact.nextTry": "Next try",
  "instalmentEmail.fact.paidSoFar": "Paid so far",
  "instalmentEmail.greeting": "Hello {name},",
  "instalmentEmail.greetingAnon": "Hello,",
  "instalmentEmail.questions": "Questions? Contact {business}.",
  "instalmentEmail.reason.declined": "the card was declined by its bank.",
  "instalmentEmail.reason.insufficient_funds": "there were not enough funds.",
  "instalmentEmail.reason.expired_card": "the card has expired.",
  "instalmentEmail.reason.invalid_card": "the card is no longer valid.",
  "instalmentEmail.reason.unavailable": "the payment service could not be reached.",
  "instalmentEmail.reason.agreement_not_active": "the PayTo agreement is not active.",
  "instalmentEmail.reason.limit_exceeded": "the amount is above the PayTo agreement's limit.",
  "instalmentEmail.reason.method": "the way to pay chosen for the schedule can no longer be used.",
  "instalmentEmail.reason.other": "the payment did not go through.",
} as const;
