/**
 * English (AU): a home and a menu for every contact (issue 31; decision 073): the customer-style
 * menu's sections and the home's invoices, primary actions and empty state. Spread into `enAU`.
 */
export const contactHomeEnAU = {
  "shell.customer.invoices": "Invoices and payments",
  "shell.customer.requests": "Payment requests",
  "shell.customer.schedules": "Payment schedules",
  "home.empty.title": "Nothing to pay or accept right now",
  "home.empty.text":
    "When {business} sends you an invoice, a payment request, a payment schedule or an agreement, it is listed here and we email you. Questions about what you owe? Contact {business}.",
  "home.empty.adhoc": "Pay an amount you choose",
  "home.invoices": "Invoices to pay",
  "home.invoices.none": "Nothing is owing on your invoices.",
  "home.invoices.table": "Invoices you can pay",
  "home.invoices.number": "Invoice",
  "home.invoices.account": "Account",
  "home.invoices.due": "Due",
  "home.invoices.balance": "To pay",
  "home.invoices.overdue": "Overdue",
  "home.invoices.action": "Action",
  "home.invoices.pay": "Pay {amount}",
  "home.invoices.payLabel": "Pay {amount} for invoice {number}",
  "home.invoices.more": "The {count} due first are shown here.",
  "home.invoices.all": "All invoices and payments",
  "home.requests.action": "Action",
  "home.requests.pay": "Pay {amount}",
  "home.requests.payLabel": "Pay {amount} for request {reference}",
  "home.requests.view": "View",
  "home.requests.viewLabel": "View request {reference}",
  "home.schedules.review": "Review",
  "home.schedules.reviewLabel": "Review payment schedule {reference}",
  "home.schedules.action": "Action",
  "home.agreements.accept": "Review and accept",
  "home.agreements.acceptLabel": "Review and accept {title}",
};
