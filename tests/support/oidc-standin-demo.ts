import type { StandinClient, StandinUser } from "./oidc-standin";

/** The stand-in provider's client and users for the Harbour Energy demo host. */
export const HARBOUR_CLIENT: StandinClient = { clientId: "harbour-portal", clientSecret: "harbour-standin-secret" };

export const HARBOUR_USERS: StandinUser[] = [
  { sub: "auth0|harbour-mia", email: "mia@harbour.example", password: "Harbour!2026", givenName: "Mia", familyName: "Chen", emailVerified: true },
  { sub: "auth0|harbour-tamper", email: "tamper@harbour.example", password: "Harbour!2026", emailVerified: true, tamper: "bad-signature" },
  { sub: "auth0|harbour-stranger", email: "stranger@harbour.example", password: "Harbour!2026", emailVerified: true },
];
