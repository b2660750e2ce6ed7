/**
 * English (AU): each page's meta description (issue 19). Search engines and link previews
 * show it under the title, so every page says in one sentence what it is for and names the
 * host's business ({business}). Under about 155 characters with the longest business name,
 * and never a token, reference or amount from an emailed link. Spread into `enAU`.
 */
export const metaEnAU = {
  "meta.host":
    "The {business} customer portal: your statements, invoices and payments, and the ways you pay, in one place.",
  "meta.notFound":
    "This page is not part of the {business} customer portal. Check the address, or start again from the home page.",
  "meta.unavailable": "The {business} customer portal is not available just now. Please try again in a few minutes.",
  "meta.linkInvalid":
    "This link from {business} is not valid, or it has expired. Ask {business} to send you a new one.",
  "meta.signin":
    "Sign in to the {business} customer portal to see your statements, pay invoices and manage how you pay.",
  "meta.forgot":
    "Forgotten your password? Ask for an email with a link to choose a new password for the {business} customer portal.",
  "meta.changePassword": "Change the password you use to sign in to the {business} customer portal.",
  "meta.resetPassword": "Choose a new password for the {business} customer portal, from the link in your email.",
  "meta.verify": "Confirm your email address to start using the {business} customer portal.",
  "meta.signinProblem":
    "Signing in to the {business} customer portal did not work. Try again, or ask {business} for help.",
  "meta.status": "Whether the {business} customer portal and its database are working right now.",
  "meta.dashboard":
    "Your account with {business} at a glance: what you owe, open and overdue invoices, and what to do next.",
  "meta.accounts": "Find and open the accounts you can see at {business}, with each account's balance.",
  "meta.account": "The details of your account with {business}: balance, terms, contacts and addresses.",
  "meta.statements":
    "Your account statement with {business}: every invoice, payment and credit, filterable by date and type.",
  "meta.invoices":
    "Your invoices and payments with {business}: what is open, overdue and paid, with amounts and due dates.",
  "meta.invoice": "An invoice from {business}: what it is for, what is still owing, and how to pay it.",
  "meta.invoiceLink": "An invoice {business} sent you: what it is for, what is still owing, and a way to pay it now.",
  "meta.invoiceLinkClosed":
    "This invoice link from {business} no longer works. Sign in to the portal to see your invoices.",
  "meta.pay": "Pay {business}: choose the invoices and amounts, then pay by card, bank account or PayTo.",
  "meta.paymentMethods": "The cards, bank accounts and PayTo agreements you have saved to pay {business}.",
  "meta.addCard": "Save a credit or debit card to pay {business} without typing its details each time.",
  "meta.editCard": "Update a card you have saved to pay {business}: its name and expiry date.",
  "meta.removeCard": "Remove a saved card from the ways you pay {business}.",
  "meta.addBank": "Save a bank account to pay {business} by direct debit.",
  "meta.removeBank": "Remove a saved bank account from the ways you pay {business}.",
  "meta.paytoNew":
    "Set up a PayTo agreement so {business} can take payments from your bank account, once you approve it in your bank.",
  "meta.paytoView":
    "A PayTo agreement between your bank account and {business}: its limits, its status and what you can change.",
  "meta.paytoCancel": "Cancel a PayTo agreement, so {business} can no longer take payments from your bank account.",
  "meta.home": "What {business} has asked you to pay, payments of an amount you choose, and your receipts.",
  "meta.adhoc": "Make a payment to {business} of an amount you choose, by card, bank account or PayTo.",
  "meta.adhocClosed": "This payment link from {business} no longer takes payments.",
  "meta.receipt": "Your receipt for a payment to {business}: what was paid, when, and how.",
  "meta.request": "A payment request from {business}: what it is for, what is left to pay, and a way to pay it now.",
  "meta.requestClosed": "This payment request from {business} is closed and takes no more payments.",
  "meta.requestInvoice": "An invoice in a payment request from {business}: its lines and what is still owing.",
  "meta.agreements": "The agreements {business} has offered you, and which you have accepted.",
  "meta.agreement": "Read an agreement {business} has offered you, download it, and accept it online.",
  "meta.agreementClosed": "This agreement from {business} can no longer be accepted here.",
  "meta.schedules": "Your payment schedules with {business}: what you have paid, and what is due next and when.",
  "meta.scheduleProgress": "The progress of a payment schedule with {business}: instalments paid, due and missed.",
  "meta.scheduleAccept":
    "A payment schedule proposed by {business}: its instalments, dates and amounts, to review and accept.",
  "meta.scheduleClosed": "This payment schedule with {business} is closed.",
  "meta.response": "A question from {business} that is waiting for your answer.",
  "meta.responseComplete": "Thank you: {business} has your answer.",
  "meta.responseClosed": "This question from {business} is closed and takes no more answers.",
  "meta.communication": "Choose which emails {business} sends you: statements, invoices, payment reminders and news.",
  "meta.unsubscribe": "Stop or restart one kind of email that {business} sends you.",
  "meta.credit":
    "Apply for a credit account with {business}, step by step: your business, its people, references and documents.",
  "meta.creditClosed": "Applications for a credit account with {business} are not open in this portal.",
  "meta.creditStep": "{step}: one step of your application for a credit account with {business}.",
  "meta.creditCheck": "Check every answer of your credit application to {business} before you send it.",
  "meta.creditSubmitted":
    "Your credit application has reached {business}. What happens next, and when you will hear back.",
  "meta.tradeReference": "Give a trade reference for a business that has applied for credit with {business}.",
  "meta.tradeReferenceClosed": "This trade reference request from {business} needs nothing more from you.",
  "meta.privacy": "How {business} collects, uses and protects your personal information in its customer portal.",
  "meta.terms": "The terms and conditions for using the {business} customer portal.",
  "meta.adminHome": "Manage the {business} portal as an admin: its branding and who its admins are.",
  "meta.admins": "Choose who may manage the {business} portal: add an admin by email address, or remove one.",
  "meta.branding":
    "Manage the brand of the {business} portal: edit a draft, preview it, publish it or restore an earlier one.",
  "meta.brandingPagePreview":
    "A page the {business} portal opens from an email, shown with the draft brand before it is published.",
  "meta.brandingPreview": "Try the draft brand of the {business} portal on its pages before it is published.",
  "meta.brandingShare": "Open a shared preview of a draft brand for the {business} portal, before it is published.",
} as const;
