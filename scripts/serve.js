/**
 * The portal's server, for `npm start`, `npm run serve`, `npm run dev`, the e2e journeys and
 * the benchmark: remix-serve's own set-up (compression, fingerprinted assets cached for a
 * year, public files for an hour, a one-line access log, Remix's request handler) with the
 * portal's front door (scripts/edge.js) in front of all of it. Listens on 127.0.0.1:3000
 * unless HOST or PORT say otherwise (remix-serve would bind every interface). Start-up
 * (configuration check, migrations, first-run seed) happens in the server build itself.
 */
import fs from "node:fs";
import path from "node:path";
import url from "node:url";
import { broadcastDevReady, installGlobals } from "@remix-run/node";
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";
import morgan from "morgan";
import { answerClientError, answerConnect, edgeGuard } from "./edge.js";

process.env.NODE_ENV ??= "production";
const host = process.env.HOST || "127.0.0.1";
const port = Number(process.env.PORT || 3000);
const mode = process.env.NODE_ENV;
const buildPath = path.resolve(process.argv[2] ?? "./build/index.js");
const versionPath = path.resolve(buildPath, "..", "version.txt");

async function importBuild() {
  const stat = fs.statSync(buildPath);
  // A query string busts the import cache when development rebuilds.
  return import(`${url.pathToFileURL(buildPath).href}?t=${stat.mtimeMs}`);
}

let build = await importBuild();
installGlobals({ nativeFetch: build.future.v3_singleFetch });

const app = express();
app.disable("x-powered-by");
app.use(edgeGuard);
app.use(compression());
app.use(build.publicPath, express.static(build.assetsBuildDirectory, { immutable: true, maxAge: "1y" }));
app.use(express.static("public", { maxAge: "1h" }));
// morgan's "tiny" line, with the path as the portal's request log writes it (no query string, an emailed
// link's token cut short: decision 031), which app/services/platform/request-log.server.ts sets on the request.
const LOG_PATH = Symbol.for("portal.log-path");
app.use(
  morgan((tokens, req, res) =>
    [
      tokens.method(req, res) ?? "-",
      req[LOG_PATH] ?? "-",
      tokens.status(req, res) ?? "-",
      tokens.res(req, res, "content-length") ?? "-",
      "-",
      tokens["response-time"](req, res) ?? "-",
      "ms",
    ].join(" "),
  ),
);
if (mode === "development") {
  // `remix dev --manual` rebuilds, then waits for the app server to say it has the new build.
  fs.watch(path.dirname(versionPath), (_event, file) => {
    if (file !== path.basename(versionPath)) return;
    importBuild().then(
      (next) => {
        build = next;
        void broadcastDevReady(build);
      },
      (error) => console.error("[serve] could not load the new build", error),
    );
  });
  app.all("*", (req, res, next) => createRequestHandler({ build, mode })(req, res, next));
} else {
  app.all("*", createRequestHandler({ build, mode }));
}

const server = app.listen(port, host, () => {
  console.log(`[serve] http://${host}:${port}`);
  if (mode === "development") void broadcastDevReady(build);
});
server.on("connect", answerConnect);
server.on("clientError", answerClientError);
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    // The build's own shutdown first (entry.server.tsx: the job queue finishes the jobs in hand),
    // at most 25 s, then the server closes.
    const stopping = Promise.resolve(build.entry?.module?.shutdown?.()).catch((error) =>
      console.error("[serve] shutdown failed", error),
    );
    const limit = new Promise((resolve) => setTimeout(resolve, 25_000).unref());
    void Promise.race([stopping, limit]).then(() => server.close(() => process.exit(0)));
  });
}
