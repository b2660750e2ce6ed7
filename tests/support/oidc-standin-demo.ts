import type { StandinClient, StandinUser } from "./oidc-standin";

/** The stand-in provider's client and users for the Harbour Energy demo host (CLI, e2e tests). */
export const HARBOUR_CLIENT: StandinClient = { clientId: "harbour-portal", clientSecret: "harbour-standin-secret" };

export const HARBOUR_USERS: StandinUser[] = [
  {
    sub: "auth0|harbour-mia",
    email: "mia@harbour.example",
    password: "Harbour!2026",
    givenName: "Mia",
    familyName: "Chen",
    emailVerified: true,
  },
  // Harbour's host admin (issue 16).
  {
    sub: "auth0|harbour-admin",
    email: "admin@harbour.example",
    password: "Harbour!2026",
    givenName: "Hana",
    familyName: "Admin",
    emailVerified: true,
  },
  // Signs in fine at the provider, but the portal must refuse the id token it gets.
  { sub: "auth0|harbour-tamper", email: "tamper@harbour.example", password: "Harbour!2026", tamper: "bad-signature" },
  // A valid Auth0 login that no portal contact is linked to.
  { sub: "auth0|harbour-stranger", email: "stranger@harbour.example", password: "Harbour!2026", emailVerified: true },
];
