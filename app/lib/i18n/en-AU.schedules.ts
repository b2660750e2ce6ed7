/**
 * English (AU): payment schedules' pages (issue 15; decision 034) — the proposal to review and
 * accept, a schedule's progress, the list, the customer-style home's section and the menu
 * entries. Spread into `enAU`.
 */
export const schedulesEnAU = {
  "switcher.schedules": "Payment schedules",

  "home.paymentSchedules": "Payment schedules",
  "home.paymentSchedules.none": "No payment schedules yet. One that {business} proposes to you will be listed here.",
  "home.paymentSchedules.all": "All payment schedules",
  // The list's scrolling table, named apart from its section (two regions with one name are one too many).
  "home.paymentSchedules.table": "Your payment schedules",

  "schedules.list.title": "Payment schedules",
  "schedules.list.intro": "Amounts you pay {business} in instalments: what is paid, what is left, and what comes next.",
  "schedules.list.none": "There are no payment schedules here yet.",
  "schedules.list.table": "Payment schedules",
  "schedules.list.left": "{remaining} of {total}",
  "schedules.list.older": "Older schedules",
  "schedules.list.newest": "Newest schedules",
  "schedules.list.pages": "Schedule pages",

  "schedules.state.proposed": "Waiting for you to accept",
  "schedules.state.active": "Active",
  "schedules.state.arrears": "In arrears",
  "schedules.state.completed": "Completed",
  "schedules.state.withdrawn": "Withdrawn",
  "schedules.state.cancelled": "Cancelled",
  "schedules.state.expired": "Expired",

  "schedules.view.paid": "Paid",
  "schedules.view.processing": "Being processed",
  "schedules.view.failed": "Failed",
  "schedules.view.retrying": "Declined: trying again",
  "schedules.view.due": "Due",
  "schedules.view.upcoming": "Upcoming",
  "schedules.view.cancelled": "Cancelled",
  "schedules.view.nextTry": "on {date}",

  "schedules.reference": "Reference",
  "schedules.description": "For",
  "schedules.account": "Account",
  "schedules.total": "Total",
  "schedules.invoices": "Invoices it pays",
  "schedules.invoice": "{number}: {amount}",
  "schedules.instalments": "Instalments",
  "schedules.instalment": "{seq} of {count}",
  "schedules.col.instalment": "Instalment",
  "schedules.col.due": "Due",
  "schedules.col.amount": "Amount",
  "schedules.col.state": "State",
  "schedules.col.left": "Left to pay",
  "schedules.col.next": "Next instalment",
  "schedules.receipt": "Receipt",
  "schedules.receipt.open": "See the receipt.",

  "schedules.accept.title": "Payment schedule {reference}",
  "schedules.lead": "{business} proposes that you pay",
  "schedules.lead.one": "on {date}.",
  "schedules.lead.many": "in {count} instalments, the first of {amount} on {date}.",
  "schedules.accept.signIn": "Sign in to accept",
  "schedules.accept.signInHint":
    "You choose a saved card or PayTo agreement after signing in: this link alone cannot use them.",
  "schedules.accept.by": "Accept by {date}.",
  "schedules.accept.jump": "Choose how to pay and accept",
  "schedules.accept.formTitle": "Accept the schedule",
  "schedules.accept.submit": "Accept the payment schedule",

  "schedules.fees.title": "Fees",
  "schedules.fees.intro":
    "A card payment carries the card surcharge on each instalment; PayTo carries none. There is no late fee or early-payment discount on a schedule.",
  "schedules.fees.way": "Way to pay",
  "schedules.fees.rate": "Surcharge",
  "schedules.fees.first": "On the first instalment",
  "schedules.fees.total": "In all",
  "schedules.fees.none": "No fee",
  "schedules.fees.cards": "Cards",
  "schedules.fees.otherCards": "Other cards",
  "schedules.fees.payTo": "PayTo agreement",

  "schedules.retry.title": "If a payment is declined",
  "schedules.retry.text":
    "A declined instalment is tried again {steps}. You are emailed each time, with a link to pay it another way. If the last try is declined too, the schedule is in arrears and {business} will contact you.",
  "schedules.retry.first": "{days} days later",
  "schedules.retry.next": "then {days} days after that",

  "schedules.authority.title": "Your authority",
  "schedules.authority.text":
    "I authorise {business} to charge the {count} instalments of payment schedule {reference} ({total} in all, from {first} to {last}), each on its day, to the card or PayTo agreement I choose here, or to one I choose later for the instalments still to come, with the card surcharge shown above when it is a card. If an instalment is declined, {business} may try it again {retries}.",
  "schedules.authority.one":
    "I authorise {business} to charge payment schedule {reference} ({total}, on {first}) to the card or PayTo agreement I choose here, or to one I choose later, with the card surcharge shown above when it is a card. If it is declined, {business} may try it again {retries}.",
  "schedules.authority.agree": "I give this authority and accept the payment schedule",

  "schedules.way.legend": "Pay the instalments with",
  "schedules.way.card": "{card}, expires {expiry} (surcharge {surcharge} in all)",
  "schedules.way.payto": "PayTo from {account} (no fee)",
  "schedules.way.none": "This account has no saved card or active PayTo agreement yet.",
  "schedules.way.addCard": "Add a card",
  "schedules.way.back": "Back to the payment schedule",
  "schedules.way.setUpPayTo": "Set up a PayTo agreement",
  "schedules.way.noAccess":
    "To add a card or a PayTo agreement, ask someone with full portal access on this account, or contact {business}.",
  "schedules.way.title": "Way to pay",
  "schedules.way.currentCard": "Instalments are charged to {card}.",
  "schedules.way.currentPayTo": "Instalments are paid by PayTo from {account}.",
  "schedules.way.noneChosen": "No way to pay is chosen.",
  "schedules.way.notActive": "It is not active at the moment: choose another way to pay.",
  "schedules.way.change": "Change the way to pay",
  "schedules.way.changeLegend": "Pay future instalments with",
  "schedules.way.changeSubmit": "Use this way to pay",

  "schedules.refusal.notFound": "This payment schedule can't be found. Nothing was changed.",
  "schedules.refusal.accepted": "This payment schedule was already accepted. Nothing was changed.",
  "schedules.refusal.withdrawn": "{business} has withdrawn this proposal. Nothing was changed.",
  "schedules.refusal.expired": "This proposal has expired. Nothing was changed.",
  "schedules.refusal.cancelled": "This payment schedule was cancelled. Nothing was changed.",
  "schedules.refusal.completed": "This payment schedule is complete. Nothing was changed.",
  "schedules.refusal.notActive": "The way to pay can only change while the schedule is active. Nothing was changed.",
  "schedules.refusal.method":
    "Choose one of this account's saved cards or active PayTo agreements. Nothing was changed.",
  "schedules.refusal.cardExpired": "That card has expired: choose another. Nothing was changed.",
  "schedules.refusal.agreementInactive": "That PayTo agreement is not active: choose another. Nothing was changed.",
  "schedules.refusal.payToOff": "PayTo is not available here: choose a card. Nothing was changed.",
  "schedules.refusal.payToLimit":
    "An instalment is more than that PayTo agreement lets one payment take: choose another way. Nothing was changed.",
  "schedules.refusal.authority": "Tick the box to give your authority. Nothing was changed.",

  "schedules.error.method": "Choose a saved card or an active PayTo agreement of this account.",
  "schedules.error.cardExpired": "This card has expired.",
  "schedules.error.agreementInactive": "This PayTo agreement is not active.",
  "schedules.error.payToOff": "PayTo is not available here.",
  "schedules.error.payToLimit": "An instalment is above this agreement's limit for one payment.",
  "schedules.error.authority": "Tick the box to give your authority.",

  "schedules.closed.refused": "Nothing was changed.",
  "schedules.closed.progress": "See the schedule's progress",
  "schedules.closed.accepted.title": "This payment schedule has been accepted",
  "schedules.closed.accepted.text":
    "Payment schedule {reference} was accepted on {date}. Sign in to see its progress, change the way to pay or pay an instalment early.",
  "schedules.closed.withdrawn.title": "This proposal was withdrawn",
  "schedules.closed.withdrawn.text": "{business} has withdrawn payment schedule {reference}. Nothing will be charged.",
  "schedules.closed.expired.title": "This proposal has expired",
  "schedules.closed.expired.text":
    "Payment schedule {reference} can no longer be accepted. Ask {business} for a new one if you still want to pay in instalments.",
  "schedules.closed.cancelled.title": "This payment schedule was cancelled",
  "schedules.closed.cancelled.text":
    "{business} has cancelled payment schedule {reference}. Nothing more will be charged.",
  "schedules.closed.completed.title": "This payment schedule is complete",
  "schedules.closed.completed.text": "Every instalment of payment schedule {reference} has been paid.",
  "schedules.closed.replaced.title": "This link was replaced by a newer one",
  "schedules.closed.replaced.text":
    "{business} has sent a newer email about payment schedule {reference}: use the link in that one.",
  "schedules.closed.linkWithdrawn.title": "This link was withdrawn",
  "schedules.closed.linkWithdrawn.text":
    "This link to payment schedule {reference} no longer works. Contact {business} if you need it.",

  "schedules.progress.title": "Payment schedule {reference}",
  "schedules.progress.lead": "Paid {paid} of {total}.",
  "schedules.progress.left": "{remaining} left to pay",
  "schedules.notice.accepted": "Thank you: the payment schedule is accepted. Each instalment is charged on its day.",
  "schedules.notice.changed": "Done: future instalments will be paid the new way.",
  "schedules.notice.paid": "Thank you: the instalment is paid.",
  "schedules.notice.submitted": "Your bank has the PayTo payment: the instalment is paid once it settles.",
  "schedules.pay.next": "Pay the next instalment now: {total}",
  "schedules.pay.failed": "Pay the {seq} instalment now: {total}",
  "schedules.pay.anotherWay": "Pay the {seq} instalment another way",
  "schedules.pay.anotherWay.lead":
    "The {seq} instalment, of {amount}, was declined. Pay it now with another card (it is not saved); the schedule's way to pay stays as it is.",
  "schedules.pay.subtotal": "Instalment",
  "schedules.pay.signIn": "Sign in to change the way to pay or use a saved card",
  "schedules.pay.error.closed": "This link can no longer take a payment for this schedule. Nothing was charged.",
  "schedules.pay.notPayable.paid": "This instalment is already paid. Nothing more was charged.",
  "schedules.pay.notPayable.processing":
    "A payment of this instalment is already being processed. Nothing more was charged.",
  "schedules.pay.notPayable.cancelled": "This instalment was cancelled. Nothing was charged.",
  "schedules.pay.notPayable.scheduleClosed": "This payment schedule no longer takes payments. Nothing was charged.",
  "schedules.pay.notPayable.notDue": "This instalment is not due yet. Nothing was charged.",
  "schedules.pay.notPayable.failed": "This instalment's tries are over: pay it from its page. Nothing was charged.",
  "schedules.notice.pending": "The payment is being confirmed with the card's bank: the receipt shows when it is done.",
  "schedules.pay.error.changed":
    "The instalment to pay is no longer the one this form was for. Check the amount below and pay again. Nothing was charged.",
  "schedules.pay.error.invalid": "The payment could not be made. Nothing was charged.",
} as const;
