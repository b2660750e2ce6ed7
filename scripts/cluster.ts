/**
 * `npm run cluster`: two (CLUSTER_PROCESSES) portal processes on one PostgreSQL behind HAProxy,
 * as a deployment runs them (decision 045). Needs `npm run build` first, a PostgreSQL
 * (CLUSTER_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/portal_cluster: created,
 * migrated and seeded when missing), HAProxy (/usr/sbin/haproxy, or HAPROXY) and openssl. HAProxy
 * terminates TLS on CLUSTER_TLS_PORT (default 8443) with a self-signed certificate made on first start
 * and kept in the data folder, and speaks HTTP/2 there (decision 083); plain HTTP/1.1 stays on
 * CLUSTER_PORT. Ctrl-C drains and stops every process.
 */
import path from "node:path";
import { startCluster } from "./cluster-lib";

const processes = Number(process.env.CLUSTER_PROCESSES ?? 2);
const proxyPort = Number(process.env.CLUSTER_PORT ?? 8080);
const tlsPort = Number(process.env.CLUSTER_TLS_PORT ?? 8443);
const basePort = Number(process.env.CLUSTER_BASE_PORT ?? proxyPort + 1);
const databaseUrl = process.env.CLUSTER_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/portal_cluster";

const cluster = await startCluster({
  processes,
  basePort,
  proxyPort,
  tlsPort,
  databaseUrl,
  // Kept between runs, so the session secret and the mail outbox survive a restart.
  dataDir: path.resolve(process.env.CLUSTER_DATA_DIR ?? ".tmp/cluster-data"),
  onOutput: (name, line) => process.stdout.write(`${name.padEnd(7)} | ${line}\n`),
}).catch((error: unknown) => {
  process.stderr.write(`The cluster did not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

const certificate = cluster.tls!.certificate;
process.stdout.write(
  [
    "",
    `HAProxy on ${cluster.tls!.url} (TLS: HTTP/2 and HTTP/1.1) and ${cluster.url} (plain HTTP/1.1)`,
    `in front of ${cluster.processes.length} portal processes:`,
    ...cluster.processes.map((p) => `  ${p.name}  ${p.url}  (pid ${p.pid})`),
    `Database: ${databaseUrl}`,
    "Open the demo brands through the proxy over HTTP/2 (browsers resolve *.localhost to this machine):",
    `  https://acme.localhost:${tlsPort}  https://kiwi.localhost:${tlsPort}  https://harbour.localhost:${tlsPort}`,
    `The certificate is self-signed (${certificate.created ? "made now" : "kept from an earlier start"}, valid until ${certificate.validTo.toISOString().slice(0, 10)}):`,
    '  the browser warns once per host; proceed, or trust this file (docs/deployment.md, "The local cluster\'s certificate"):',
    `  ${certificate.certPath}`,
    `Plain HTTP, for scripts and tools: http://acme.localhost:${proxyPort} (the same hosts)`,
    `Readiness: ${cluster.url}/ready (any Host); each process's own: http://127.0.0.1:<port>/ready`,
    `HAProxy's config and the logs: ${cluster.dir}`,
    "Ctrl-C drains and stops everything.",
    "",
  ].join("\n"),
);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    process.stdout.write("\nStopping: draining the processes, then HAProxy…\n");
    void cluster.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`${String(error)}\n`);
        process.exit(1);
      },
    );
  });
}
