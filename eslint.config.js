// ESLint 9 flat config. `npm run lint` runs it with --max-warnings 0; `npm test` runs that right after Prettier.
// Why ESLint (not Oxlint), the rules turned off and the local rule: docs/decisions/026-eslint-and-the-server-values-rule.md
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";
import noServerValuesInBrowser from "./eslint-rules/no-server-values-in-browser.js";
import noWallClockAssertions from "./eslint-rules/no-wall-clock-assertions.js";

const local = {
  rules: {
    "no-server-values-in-browser": noServerValuesInBrowser,
    "no-wall-clock-assertions": noWallClockAssertions,
  },
};

/** Casts on an action's reply: refused in app/ (the blocks that use this list say why). */
const NO_REPLY_CASTS = [
  "TSAsExpression > CallExpression[callee.name='useActionData']",
  "TSTypeAssertion > CallExpression[callee.name='useActionData']",
  "TSAsExpression > MemberExpression[property.name='data'][object.callee.name='useFetcher']",
  "TSAsExpression > MemberExpression[property.name='data'][object.name=/[fF]etcher$/]",
].map((selector) => ({
  selector,
  message:
    "Type a reply by its route's action (useActionData<typeof action>(), useFetcher<typeof action>()), not by a cast: give the action's replies a type (data<Reply>(…)) instead.",
}));

/** The clock itself and the e2e test clock that drives it. */
const CLOCK_MODULES = ["app/services/platform/clock.server.ts", "app/services/platform/test-clock.server.ts"];

const CLOCK_RULES = [
  {
    selector: "NewExpression[callee.name='Date'][arguments.length=0]",
    message: "Ask the portal's clock: now() from app/services/platform/clock.server.ts (decision 068).",
  },
  {
    selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
    message:
      "Ask the portal's clock: now().getTime() from app/services/platform/clock.server.ts (decision 068); a duration on the real clock says why in an eslint-disable-next-line comment.",
  },
];

/**
 * The services that answer HTTP (decision 070): page handlers (`*-page.server.ts`, `*-pages.server.ts`, the link
 * pages' shared answers), guards that end a request (sessions, tenants, account access, published legal text, the
 * test clock's switch) and the frames of the JSON APIs. Everything else in app/services returns a value or throws a
 * RequestProblem, and the route (or one of these) turns it into an answer.
 */
const ANSWERING_MODULES = [
  "app/services/**/*-page.server.ts",
  "app/services/**/*-pages.server.ts",
  "app/services/platform/http.server.ts",
  "app/services/platform/request-context.server.ts",
  "app/services/platform/form-limits.server.ts",
  "app/services/platform/test-clock.server.ts",
  "app/services/backoffice/api.server.ts",
  "app/services/backoffice/route-factories.server.ts",
  "app/services/auth/auth.server.ts",
  "app/services/auth/session.server.ts",
  "app/services/auth/sign-in.server.ts",
  "app/services/host/tenant.server.ts",
  "app/services/host/legal.server.ts",
  "app/services/accounts/account-access.server.ts",
];

const NO_HTTP_ANSWERS = [
  {
    selector: "NewExpression[callee.name='Response']",
    message:
      "A service returns a value or throws a RequestProblem; the route or an answering module (eslint.config.js ANSWERING_MODULES) builds the Response (decision 070).",
  },
  {
    selector: "CallExpression[callee.object.name='Response'][callee.property.name=/^(json|redirect|error)$/]",
    message:
      "A service returns a value or throws a RequestProblem; the route or an answering module (eslint.config.js ANSWERING_MODULES) builds the Response (decision 070).",
  },
];

const NO_REMIX_ANSWER_IMPORTS = {
  paths: [
    {
      name: "@remix-run/node",
      importNames: ["data", "json", "redirect", "redirectDocument", "replace"],
      message:
        "A service returns a value or throws a RequestProblem; the route or an answering module (eslint.config.js ANSWERING_MODULES) makes the answer (decision 070).",
    },
  ],
};

export default tseslint.config(
  {
    ignores: [
      "build/",
      "public/build/",
      ".cache/",
      ".tmp/",
      "data/",
      "node_modules/",
      "bench/results/",
      "test-results/",
      "playwright-report/",
    ],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    files: ["**/*.{ts,tsx}"],
    rules: {
      // A scrollable table wrapper is a focusable, labelled region so keyboard users can scroll it
      // (axe's scrollable-region-focusable); jsx-a11y only allows tabpanel by default.
      "jsx-a11y/no-noninteractive-tabindex": [
        "error",
        { tags: [], roles: ["tabpanel", "region"], allowExpressionValues: true },
      ],
      // Tables that become stacked blocks on a phone (display: block/flex) lose their table
      // semantics in WebKit, so they state their roles explicitly (app/components/Table.css.ts).
      "jsx-a11y/no-redundant-roles": [
        "error",
        { nav: ["navigation"], table: ["table"], thead: ["rowgroup"], tbody: ["rowgroup"], tr: ["row"], td: ["cell"] },
      ],
      "jsx-a11y/no-interactive-element-to-noninteractive-role": [
        "error",
        { tr: ["none", "presentation", "row"], td: ["cell"], canvas: ["img"] },
      ],
    },
  },
  // Hooks live in app/. (Playwright's fixtures call a function named `use`, which is not React's.)
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    // rules-of-hooks and exhaustive-deps, plus the React Compiler's checks (purity, refs, setState in render or
    // in an effect…): none fires on this code today, and together they cost about 3 s of CPU.
    rules: {
      ...reactHooks.configs["recommended-latest"].rules,
      "react-hooks/exhaustive-deps": "error",
    },
  },
  {
    rules: {
      // `_name` marks a parameter or binding kept on purpose (a signature to match, a key left out of a rest).
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrorsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
          ignoreRestSiblings: true,
        },
      ],
      // We match control characters on purpose: to reject them in redirect targets and mail headers.
      "no-control-regex": "off",
      // conform copies zod regexes into HTML `pattern` attributes, which browsers compile with the `v` flag,
      // where a literal `-` in a character class must be escaped: `\-` there is not useless.
      "no-useless-escape": ["error", { allowRegexCharacters: ["-"] }],
    },
  },
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
    },
  },
  // A value from a `.server` module is undefined in the browser bundle (Remix empties those modules there).
  // Everything in app/ that is not server-only is browser code: it may not import a server module at all…
  {
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/services/**", "app/**/*.server.{ts,tsx}", "app/**/*.test.{ts,tsx}"],
    plugins: { local },
    rules: { "local/no-server-values-in-browser": ["error", { mode: "shared" }] },
  },
  // …except route modules and root.tsx, whose loader/action/headers Remix keeps out of the browser bundle:
  // there, a server value may be used by whatever only those exports reach.
  {
    files: ["app/root.tsx", "app/routes/*.{ts,tsx}", "app/routes/**/*+/*.{ts,tsx}"],
    ignores: ["app/**/*.test.{ts,tsx}", "app/**/*.server.{ts,tsx}"],
    rules: { "local/no-server-values-in-browser": ["error", { mode: "route" }] },
  },
  // Routes reach the services through their folder's front door (`./<feature>.server.ts`) and no other `.server`
  // path: Remix's classic compiler leaves, in the browser bundle, an empty module per `.server` path a route imports,
  // and each became a request of its own (decisions 054 and 065).
  {
    files: ["app/root.tsx", "app/routes/*.{ts,tsx}", "app/routes/**/*+/*.{ts,tsx}"],
    ignores: ["app/**/*.test.{ts,tsx}", "app/**/*.server.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["~/**/*.server", "../**/*.server", "./*/**/*.server"],
              message:
                "A route takes services from its folder's front door only (./<feature>.server.ts; add the name there): each other .server path costs the browser an empty module of its own (decisions 054 and 065).",
            },
          ],
        },
      ],
    },
  },
  // A form's reply is typed by its route's action (`useActionData<typeof action>()`, a fetcher's `data` likewise), never
  // asserted: a cast hides a reply the action no longer sends, and a component would read fields nobody writes.
  {
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/**/*.test.{ts,tsx}"],
    rules: { "no-restricted-syntax": ["error", ...NO_REPLY_CASTS] },
  },
  // In a route module the action is at hand, so a reply's type is `typeof action`, not a type named for it. (A shared
  // hook that posts to several pages' actions, such as PayForm's useLiveTotal, names the reply type in app/lib.)
  {
    files: ["app/root.tsx", "app/routes/*.{ts,tsx}", "app/routes/**/*+/*.{ts,tsx}"],
    ignores: ["app/**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-syntax": [
        "error",
        ...NO_REPLY_CASTS,
        {
          selector:
            "CallExpression[callee.name=/^use(ActionData|Fetcher)$/] > TSTypeParameterInstantiation > :not(TSTypeQuery)",
          message:
            "In a route module, type a reply by the action (useActionData<typeof action>(), useFetcher<typeof action>()), not by naming a type the action is not held to.",
        },
      ],
    },
  },
  // One clock (after the reply-cast blocks, which it includes): server code asks `now()` (app/services/platform/clock.server.ts) for the current time, so unit
  // tests (setClockForTesting) and the e2e test clock (decision 035) move all of it together. A place that must
  // stay on the real clock (a timeout, an age compared with the database's own now(), a credential's lifetime)
  // says why on an eslint-disable-next-line comment.
  //
  // Who answers HTTP (decision 070): a domain service returns values or throws a RequestProblem; only the edge
  // modules in ANSWERING_MODULES (page handlers, guards, the API frames) build a Response, a redirect or Remix's
  // data(). A later block's no-restricted-syntax replaces an earlier one's for the same file, so both blocks list
  // the reply casts and the clock rules.
  {
    files: ["app/services/**/*.{ts,tsx}", "db/**/*.ts"],
    ignores: ["**/*.test.{ts,tsx}", ...CLOCK_MODULES, ...ANSWERING_MODULES],
    rules: {
      "no-restricted-syntax": ["error", ...NO_REPLY_CASTS, ...CLOCK_RULES, ...NO_HTTP_ANSWERS],
      "no-restricted-imports": ["error", NO_REMIX_ANSWER_IMPORTS],
    },
  },
  {
    files: ANSWERING_MODULES,
    ignores: ["**/*.test.{ts,tsx}", ...CLOCK_MODULES],
    rules: { "no-restricted-syntax": ["error", ...NO_REPLY_CASTS, ...CLOCK_RULES] },
  },
  // Tests assert outcomes, never how long something took on the real clock (issue 29; CONVENTIONS "Tests"):
  // `expect(Date.now() - started).toBeLessThan(2_000)` measures the machine. What the rule catches and allows is
  // written at the top of eslint-rules/no-wall-clock-assertions.js.
  {
    files: ["**/*.test.{ts,tsx}", "tests/**/*.{ts,tsx}"],
    plugins: { local },
    rules: { "local/no-wall-clock-assertions": "error" },
  },
  // Last: turn off every stylistic rule Prettier owns.
  prettier,
);
