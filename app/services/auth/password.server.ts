import { hash, verify } from "@node-rs/argon2";

/**
 * Password hashing with argon2id at the library's defaults (m=19456 KiB, t=2, p=1: the
 * OWASP-recommended minimum). Any characters are accepted; the hash covers the exact
 * UTF-8 bytes after Unicode NFC normalisation, so the same password typed on two
 * keyboards matches.
 */
export function hashPassword(password: string): Promise<string> {
  return hash(password.normalize("NFC"));
}

// A real hash of a random string: verifying against it costs what a real check costs,
// so "no such email" and "wrong password" take the same time.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(password: string, passwordHash: string | null): Promise<boolean> {
  const target = passwordHash ?? (await (dummyHash ??= hash(`dummy-${Math.random()}`)));
  let ok = false;
  try {
    ok = await verify(target, password.normalize("NFC"));
  } catch {
    ok = false;
  }
  return ok && passwordHash !== null;
}
