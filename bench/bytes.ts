import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

/**
 * Bytes per route, from the production build alone: for every route in the Remix
 * manifest that renders a page, the JavaScript a browser downloads to run it (entry,
 * root, every parent route and the route itself, each with the shared chunks it
 * imports, counted once) and the CSS it links. Sizes are raw and gzip (zlib's default
 * level, as remix-serve's compression sends them), each file compressed on its own as
 * it is served.
 */
type ManifestRoute = {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: string;
  imports?: string[];
  css?: string[];
};
type Manifest = { entry: { module: string; imports: string[] }; routes: Record<string, ManifestRoute> };

export type Size = { raw: number; gzip: number };
/**
 * Whether a browser runs the route's JavaScript at all (decision 049, app/lib/client-runtime.ts):
 * "never" for a read-only route (`handle = STATIC_PAGE`: its documents carry no script, so nothing
 * is counted), "data" when its loader data decides (a payment link: only while it can be paid),
 * "always" otherwise.
 */
export type RouteRuntime = "always" | "data" | "never";
export type RouteBytes = {
  route: string;
  url: string;
  runtime: RouteRuntime;
  js: Size;
  appJs: Size;
  css: Size;
  files: number;
};
export type BytesResult = {
  /** The runtime floor: entry chunk + its imports (React, react-dom, Remix), what an empty route costs. */
  floor: Size;
  /** The root route's own code (shell, header, switcher), paid by every page on top of the floor. */
  root: Size;
  routes: RouteBytes[];
  /** `public/enhance.js`, the one file an enhanced page without React loads (decision 084). */
  enhance: Size;
};

const PUBLIC_DIR = "public";
const BUILD_DIR = "public/build";

function readManifest(): Manifest {
  const file = fs.readdirSync(BUILD_DIR).find((name) => /^manifest-[A-Z0-9]+\.js$/.test(name));
  if (!file) throw new Error(`No manifest-*.js in ${BUILD_DIR}: run the production build first`);
  const text = fs.readFileSync(path.join(BUILD_DIR, file), "utf8");
  const json = text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1);
  return JSON.parse(json) as Manifest;
}

/** The CSS bundle the server build links (cssBundleHref), found by its file name in the build. */
function cssBundleHref(): string | null {
  const server = fs.readFileSync("build/index.js", "utf8");
  const match = /\/build\/css-bundle-[A-Za-z0-9]+\.css/.exec(server);
  return match ? match[0] : null;
}

const sizeCache = new Map<string, Size>();
function sizeOf(href: string): Size {
  let size = sizeCache.get(href);
  if (!size) {
    const content = fs.readFileSync(path.join(PUBLIC_DIR, href));
    size = { raw: content.length, gzip: gzipSync(content).length };
    sizeCache.set(href, size);
  }
  return size;
}

const total = (hrefs: Iterable<string>): Size => {
  const sum = { raw: 0, gzip: 0 };
  for (const href of hrefs) {
    const size = sizeOf(href);
    sum.raw += size.raw;
    sum.gzip += size.gzip;
  }
  return sum;
};

function routeSource(id: string): string | null {
  const candidates = [".tsx", ".ts", ".jsx", ".js"].flatMap((ext) => [`app/${id}${ext}`, `app/${id}/route${ext}`]);
  const file = candidates.find((candidate) => fs.existsSync(candidate));
  return file ? fs.readFileSync(file, "utf8") : null;
}

/** A route renders a page when its module has a default export (resource routes have none). */
function isPageRoute(id: string): boolean {
  if (id === "root") return false;
  const source = routeSource(id);
  return source ? /\bexport\s+default\b/.test(source) : false;
}

/** Read from the route's `handle` in its source (see RouteRuntime). */
export function runtimeOf(source: string): RouteRuntime {
  // A page with the small shared conveniences only (ENHANCED_PAGE, decision 084) loads none of the
  // route's JavaScript either; `public/enhance.js` is counted once, on its own (BytesResult.enhance).
  if (/\bexport\s+const\s+handle\s*=\s*(STATIC_PAGE|ENHANCED_PAGE)\b/.test(source)) return "never";
  if (/\bexport\s+const\s+handle\b[^=]*=\s*\{[^}]*\bhydrate\s*:\s*\(/.test(source)) return "data";
  if (/\bexport\s+const\s+handle\b[^=]*=\s*\{[^}]*\bhydrate\s*:\s*false\b/.test(source)) return "never";
  return "always";
}

function urlOf(manifest: Manifest, route: ManifestRoute): string {
  const parts: string[] = [];
  for (
    let current: ManifestRoute | undefined = route;
    current;
    current = current.parentId ? manifest.routes[current.parentId] : undefined
  ) {
    if (current.path) parts.unshift(current.path);
  }
  return `/${parts.join("/")}`.replace(/\/+/g, "/");
}

export function measureBytes(): BytesResult {
  const manifest = readManifest();
  const floorFiles = new Set([manifest.entry.module, ...manifest.entry.imports]);
  const root = manifest.routes.root;
  if (!root) throw new Error("The manifest has no root route");
  const rootFiles = [root.module, ...(root.imports ?? [])].filter((href) => !floorFiles.has(href));
  const bundle = cssBundleHref();
  const routes: RouteBytes[] = [];
  for (const route of Object.values(manifest.routes)) {
    if (!isPageRoute(route.id)) continue;
    const js = new Set(floorFiles);
    const css = new Set(bundle ? [bundle] : []);
    for (
      let current: ManifestRoute | undefined = route;
      current;
      current = current.parentId ? manifest.routes[current.parentId] : undefined
    ) {
      js.add(current.module);
      for (const href of current.imports ?? []) js.add(href);
      for (const href of current.css ?? []) css.add(href);
    }
    const app = [...js].filter((href) => !floorFiles.has(href));
    const runtime = runtimeOf(routeSource(route.id) ?? "");
    // A read-only route's documents load none of its JavaScript: counting the manifest's would
    // report bytes no browser downloads (bench/read-only.ts checks the documents themselves).
    const none = { raw: 0, gzip: 0 };
    routes.push({
      route: route.id,
      url: urlOf(manifest, route),
      runtime,
      js: runtime === "never" ? none : total(js),
      appJs: runtime === "never" ? none : total(app),
      css: total(css),
      files: runtime === "never" ? 0 : js.size,
    });
  }
  routes.sort((a, b) => a.url.localeCompare(b.url));
  const enhance = fs.readFileSync(path.join(PUBLIC_DIR, "enhance.js"));
  return {
    floor: total(floorFiles),
    root: total(rootFiles),
    routes,
    enhance: { raw: enhance.length, gzip: gzipSync(enhance).length },
  };
}
