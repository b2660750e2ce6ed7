/**
 * English (Australia): the portal's default language (spec §3, §9) and the list of every
 * message key. Other languages must have exactly these keys (checked by the type of
 * `Messages` and by a unit test).
 */
export const enAU = {
  "shell.skip": "Skip to main content",
  "shell.signedInAs": "Signed in as {name}",
  "shell.changePassword": "Change password",
  "shell.signOut": "Sign out",
  "shell.yourLogin": "Your login",
  "shell.legal": "Legal",
  "shell.privacy": "Privacy policy",
  "shell.terms": "Terms and conditions",
  "shell.language": "Language",
  "shell.languageChange": "Change",
  "switcher.account": "Account",
  "switcher.switch": "Switch",
  "switcher.menu": "Account menu",
  "switcher.dashboard": "Dashboard",
  "switcher.details": "Details",
  "switcher.statements": "Statements",
  "switcher.find": "Find an account",
  "dashboard.title": "Dashboard",
  "dashboard.welcome": "Welcome, {name}",
  "dashboard.welcomeAnon": "Welcome",
  "dashboard.branch": "a branch account",
  "dashboard.summary": "Account summary",
  "dashboard.balance": "Balance owing",
  "dashboard.openInvoices.one": "1 open invoice",
  "dashboard.openInvoices.other": "{count} open invoices",
  "dashboard.overdue": "Overdue",
  "dashboard.overdue.none": "Nothing overdue",
  "dashboard.overdue.one": "1 invoice past its due date",
  "dashboard.overdue.other": "{count} invoices past their due date",
  "dashboard.nextDue": "Next due",
  "dashboard.nextDue.none": "Nothing coming due",
  "dashboard.on": "on {date}",
  "dashboard.lastPayment": "Last payment",
  "dashboard.lastPayment.none": "No payments yet",
  "dashboard.seeStatement": "See the statement",
} as const;

export type MessageKey = keyof typeof enAU;
export type Messages = Record<MessageKey, string>;
