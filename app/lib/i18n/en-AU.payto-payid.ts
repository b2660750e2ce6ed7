/** English (AU): the account's own PayID to pay into (issue 13). Spread into `enAU`. */
export const paytoPayIdEnAU = {
  "payid.title": "Pay from your bank with PayID",
  "payid.name": "Your bank will show the name: {name}",
  "payid.how":
    "In your banking app choose Pay someone → PayID, enter this, and put the invoice number in the description.",
  "payid.how.invoice":
    "In your banking app choose Pay someone → PayID, enter this, and put {number} in the description.",
  "payid.copy": "Copy PayID",
  "payid.copied": "Copied",
  "payid.copyRefused": "Your browser did not allow copying. Select the PayID above and copy it yourself.",
  "payid.unavailable": "Paying by PayID is not available right now. Please try again later, or pay by card.",
};
