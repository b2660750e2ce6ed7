/**
 * English (AU): the shell's and the error screens' messages. Spread into `enAU`, and the
 * browser's only built-in text: when the root loader could not answer (unknown host,
 * database down) there are no messages from the server, and these fill in.
 */
export const coreEnAU = {
  "shell.skip": "Skip to main content",
  "shell.signedInAs": "Signed in as {name}",
  "shell.changePassword": "Change password",
  "shell.signOut": "Sign out",
  "shell.menu": "Menu",
  "shell.yourLogin": "Your login",
  "shell.legal": "Legal",
  "shell.privacy": "Privacy policy",
  "shell.terms": "Terms and conditions",
  "shell.language": "Language",
  "shell.languageChange": "Change",
  "shell.preview.banner": "Preview of a draft brand — customers do not see it.",
  "shell.preview.manage": "Back to branding",
  "errors.notFound.title": "Page not found",
  // The meta description of a page on an unknown host (there is no business to name).
  "meta.noHost": "This customer portal is not available at this address.",
  "errors.notFound.text": "The page you're looking for doesn't exist or you do not have permission to access.",
  "errors.goHome": "Go home",
  "errors.goBack": "Go back",
  "errors.badRequest.title": "We couldn't use that request",
  "errors.badRequest.text": "Something in the address or form wasn't valid. Nothing was changed.",
  "errors.controlCharacters.text":
    "Something you sent contains invisible control characters (such as a null character), which no field accepts. Remove them and try again. Nothing was changed.",
  "errors.formLimits.text":
    "The form that was sent has more fields, longer lists or longer text than this page's form allows, so it wasn't used. Go back, reload the page and try again. Nothing was changed.",
  "errors.tooMany.title": "Too many attempts",
  "errors.tooMany.text": "Please wait 15 minutes and try again. Nothing was changed.",
  "errors.unavailable.title": "Temporarily unavailable",
  "errors.unavailable.text":
    "The portal can't reach its data right now. Please try again in a minute. If you were paying, look at your payments before paying again: a payment is never taken twice.",
  "errors.other.title": "Something went wrong",
  "errors.other.text": "We couldn't show this page. Nothing was charged or changed. Please try again in a moment.",
  "errors.code": "Error {status}",
  "noAccounts.title": "Accounts not found",
  "noAccounts.text": "We could not find any accounts joined to your login.",
  "errors.unknownHost.text": "There is no portal at this address. Please check the link you were given.",
  "loading.short": "Loading",
  "loading.text": "Preparing Account information",
} as const;
