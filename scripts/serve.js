/**
 * `npm start`'s server: remix-serve with safe local defaults. It listens on 127.0.0.1
 * (remix-serve would otherwise bind every interface) and port 3000, unless HOST or PORT
 * say otherwise. Start-up (configuration check, migrations, first-run seed) happens in
 * the server build itself, so the same steps run under any process manager.
 */
process.env.HOST ??= "127.0.0.1";
process.env.PORT ??= "3000";
process.env.NODE_ENV ??= "production";
process.argv = [process.argv[0], "remix-serve", "./build/index.js"];
await import("@remix-run/serve/dist/cli.js");
