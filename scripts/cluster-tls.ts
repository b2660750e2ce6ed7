/**
 * The cluster's local certificate (decision 083): HAProxy terminates TLS with it, so browsers speak
 * HTTP/2 to `npm run cluster` (they speak h2 only over TLS). Self-signed, made with openssl on first
 * start and kept in the cluster's data folder; made again only when it is missing or unreadable, when
 * it expires within `renewWithinDays`, or when it does not name a host the cluster serves.
 *
 * Its names: localhost, `*.localhost`, every `.localhost` host given (the database's hosts), and
 * 127.0.0.1 and ::1. Each host is named as well as the wildcard because browsers (and Node) refuse a
 * wildcard directly under a top-level name: `*.localhost` covers acme.localhost for curl and openssl,
 * not for Chromium or Firefox.
 *
 * A deployment puts its own certificate where HAProxy reads this one (`crt`, docs/deployment.md).
 */
import { spawnSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export type ClusterCertificate = {
  /** Key and certificate in one PEM: what HAProxy's `bind … ssl crt` reads. Mode 600. */
  pemPath: string;
  /** The certificate alone: the file to trust in a browser, or to give a client as its CA. */
  certPath: string;
  /** The DNS names and addresses it covers. */
  names: string[];
  /** When it stops being valid. */
  validTo: Date;
  /** Made on this call (false: the one already in the folder was kept). */
  created: boolean;
};

/** Always named, whatever hosts the database holds. */
export const CERTIFICATE_BASE_NAMES = ["localhost", "*.localhost", "127.0.0.1", "::1"];
const PEM_FILE = "cluster.pem";
const CERT_FILE = "cluster.crt";

/**
 * The certificate in `dir`, made when missing, expiring or short of a name. `hostnames`: the hosts
 * the cluster serves (non-`.localhost` names are left out: this certificate is for loopback only).
 * `days`: the validity of a new one (default 365); `renewWithinDays`: a kept one is replaced when it
 * expires sooner than that (default 30).
 */
export function ensureClusterCertificate(
  dir: string,
  hostnames: string[],
  options: { days?: number; renewWithinDays?: number; openssl?: string; now?: Date } = {},
): ClusterCertificate {
  const days = options.days ?? 365;
  const renewWithinDays = options.renewWithinDays ?? 30;
  const now = options.now ?? new Date();
  const names = certificateNames(hostnames);
  const pemPath = path.join(dir, PEM_FILE);
  const certPath = path.join(dir, CERT_FILE);

  const kept = readCertificate(certPath);
  if (kept && fs.existsSync(pemPath)) {
    const covered = new Set(sanEntries(kept.subjectAltName ?? ""));
    const validTo = new Date(kept.validTo);
    const fresh = validTo.getTime() - now.getTime() > renewWithinDays * 86_400_000;
    if (fresh && names.every((name) => covered.has(name))) {
      return { pemPath, certPath, names: [...covered], validTo, created: false };
    }
  }

  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const configPath = path.join(dir, "openssl.cnf");
  const keyPath = path.join(dir, "cluster.key.tmp");
  const newCertPath = path.join(dir, "cluster.crt.tmp");
  fs.writeFileSync(configPath, opensslConfig(names));
  try {
    const made = spawnSync(
      options.openssl ?? "openssl",
      [
        "req",
        "-x509",
        "-new",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
        "-days",
        String(days),
        "-config",
        configPath,
        "-keyout",
        keyPath,
        "-out",
        newCertPath,
      ],
      { encoding: "utf8", timeout: 30_000 },
    );
    if (made.error)
      throw new Error(`openssl could not be run (${made.error.message}): install it (apt-get install openssl)`);
    if (made.status !== 0) throw new Error(`openssl could not make the cluster's certificate: ${made.stderr.trim()}`);
    const cert = fs.readFileSync(newCertPath, "utf8");
    const key = fs.readFileSync(keyPath, "utf8");
    // The PEM first under a temporary name, then renamed: HAProxy never reads half a file.
    fs.writeFileSync(`${pemPath}.tmp`, cert + key, { mode: 0o600 });
    fs.renameSync(`${pemPath}.tmp`, pemPath);
    fs.renameSync(newCertPath, certPath);
  } finally {
    for (const file of [configPath, keyPath, newCertPath]) fs.rmSync(file, { force: true });
  }
  const certificate = readCertificate(certPath);
  if (!certificate) throw new Error(`openssl wrote no readable certificate to ${certPath}`);
  return {
    pemPath,
    certPath,
    names: sanEntries(certificate.subjectAltName ?? ""),
    validTo: new Date(certificate.validTo),
    created: true,
  };
}

/** The names a certificate for these hosts carries, in order, each once. */
export function certificateNames(hostnames: string[]): string[] {
  const hosts = hostnames
    .map((name) => name.toLowerCase())
    .filter((name) => /^[a-z0-9-]+(\.[a-z0-9-]+)*\.localhost$/.test(name));
  return [...new Set([...CERTIFICATE_BASE_NAMES, ...hosts.sort()])];
}

function readCertificate(file: string): X509Certificate | null {
  try {
    return new X509Certificate(fs.readFileSync(file));
  } catch {
    return null;
  }
}

/** "DNS:a, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1" as names: IPv6 ::1 written short. */
function sanEntries(subjectAltName: string): string[] {
  return subjectAltName
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const value = entry.slice(entry.indexOf(":") + 1);
      return value === "0:0:0:0:0:0:0:1" ? "::1" : value;
    });
}

function opensslConfig(names: string[]) {
  const alt = names.map((name) => (/^[\d.]+$|:/.test(name) ? `IP:${name}` : `DNS:${name}`)).join(",");
  // No CA: a leaf trusted as itself (a browser's exception, or a client's `ca`), never an issuer.
  return `# Written by scripts/cluster-tls.ts for the cluster's self-signed certificate
[req]
distinguished_name = dn
prompt = no
x509_extensions = ext
[dn]
CN = localhost
O = Payments portal local cluster
[ext]
subjectAltName = ${alt}
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectKeyIdentifier = hash
`;
}
