import { X509Certificate } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { certificateNames, ensureClusterCertificate } from "../../scripts/cluster-tls";

/**
 * The cluster's local certificate (decision 083): made by openssl on first start, kept while it
 * names every host and has more than 30 days left, made again otherwise. HAProxy reads the key and
 * certificate from one PEM; the certificate alone is the file a browser or a client trusts.
 */
let dir = "";
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cluster-tls-test-"));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const fingerprint = (file: string) => new X509Certificate(fs.readFileSync(file)).fingerprint256;

describe("the cluster's self-signed certificate", () => {
  it("names localhost, *.localhost, each .localhost host and the loopback addresses, and nothing else", () => {
    const made = ensureClusterCertificate(dir, ["kiwi.localhost", "acme.localhost", "pay.example.com"]);
    expect(made.created).toBe(true);
    const cert = new X509Certificate(fs.readFileSync(made.certPath));
    // Browsers refuse `*.localhost` (a wildcard right under a top-level name): each host is named too.
    expect(cert.checkHost("acme.localhost")).toBe("acme.localhost");
    expect(cert.checkHost("kiwi.localhost")).toBe("kiwi.localhost");
    expect(cert.checkHost("localhost")).toBe("localhost");
    expect(cert.checkIP("127.0.0.1")).toBe("127.0.0.1");
    expect(cert.checkIP("::1")).toBe("::1");
    expect(cert.checkHost("pay.example.com")).toBeUndefined();
    expect(made.names).toEqual(["localhost", "*.localhost", "127.0.0.1", "::1", "acme.localhost", "kiwi.localhost"]);
    expect(cert.subject).toContain("CN=localhost");
    // A leaf, never an issuer: trusting it trusts no other certificate.
    expect(cert.ca).toBe(false);
    expect(made.validTo.getTime() - Date.now()).toBeGreaterThan(360 * 86_400_000);
  });

  it("writes the key and the certificate into one PEM for HAProxy, readable by its owner only", () => {
    const made = ensureClusterCertificate(dir, ["acme.localhost"]);
    const pem = fs.readFileSync(made.pemPath, "utf8");
    expect(pem).toContain("-----BEGIN CERTIFICATE-----");
    expect(pem).toContain("PRIVATE KEY-----");
    expect(fs.statSync(made.pemPath).mode & 0o077).toBe(0);
    // The certificate file carries no key: it is the one to hand out.
    expect(fs.readFileSync(made.certPath, "utf8")).not.toContain("PRIVATE KEY");
    expect(new X509Certificate(pem).fingerprint256).toBe(fingerprint(made.certPath));
    // Nothing else is left in the folder (the openssl configuration, the key on its own).
    expect(fs.readdirSync(dir).sort()).toEqual(["cluster.crt", "cluster.pem"]);
  });

  it("keeps the certificate between starts, so a browser's exception or trust still holds", () => {
    const first = fingerprint(ensureClusterCertificate(dir, ["acme.localhost", "kiwi.localhost"]).certPath);
    const again = ensureClusterCertificate(dir, ["kiwi.localhost"]);
    expect(again.created).toBe(false);
    expect(fingerprint(again.certPath)).toBe(first);
  });

  it("makes a new one when a host is missing from it, when it nears its end, or when its PEM is gone", () => {
    const first = fingerprint(ensureClusterCertificate(dir, ["acme.localhost"]).certPath);
    const withHost = ensureClusterCertificate(dir, ["acme.localhost", "harbour.localhost"]);
    expect(withHost.created).toBe(true);
    expect(withHost.names).toContain("harbour.localhost");
    expect(fingerprint(withHost.certPath)).not.toBe(first);

    const nearTheEnd = new Date(withHost.validTo.getTime() - 10 * 86_400_000);
    const renewed = ensureClusterCertificate(dir, ["acme.localhost"], { now: nearTheEnd });
    expect(renewed.created).toBe(true);
    // 31 days before its end it is still kept.
    const monthBefore = new Date(renewed.validTo.getTime() - 31 * 86_400_000);
    expect(ensureClusterCertificate(dir, ["acme.localhost"], { now: monthBefore }).created).toBe(false);

    fs.rmSync(renewed.pemPath);
    expect(ensureClusterCertificate(dir, ["acme.localhost"]).created).toBe(true);
  });

  it("says so when openssl cannot be run", () => {
    expect(() => ensureClusterCertificate(dir, [], { openssl: path.join(dir, "no-openssl-here") })).toThrow(
      /openssl could not be run/,
    );
  });

  it("lists each name once, the hosts sorted, and only loopback names", () => {
    expect(certificateNames(["b.localhost", "A.localhost", "b.localhost", "localhost", "x.example"])).toEqual([
      "localhost",
      "*.localhost",
      "127.0.0.1",
      "::1",
      "a.localhost",
      "b.localhost",
    ]);
  });
});
