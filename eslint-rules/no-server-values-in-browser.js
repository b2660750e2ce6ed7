/**
 * no-server-values-in-browser: a value imported from a server-only module must not reach browser code.
 *
 * Remix's classic compiler builds the browser bundle from each route's browser-safe exports only
 * (`default`, `meta`, `links`, `handle`, `ErrorBoundary`, …) and replaces every `app/**\/*.server.*` module
 * with an empty one. A value imported from a `.server` module therefore exists on the server and is
 * `undefined` in the browser: a component that renders it shows one thing on the server and another after
 * hydration (or throws). The server-only exports (`loader`, `action`, `headers`) are dropped from the browser
 * bundle, and so is anything esbuild can tree-shake once they are gone.
 *
 * Two modes:
 * - "route" (default): route modules and app/root.tsx. The rule builds a graph of the module's top-level
 *   declarations and which top-level names each one references, then walks it from the browser roots (the
 *   browser-safe exports and the code that runs when the module loads). A `.server` value referenced from
 *   anything reached that way is reported, naming the import and the export that reaches it. References only
 *   reachable from `loader`, `action` or `headers` are fine; so are type-only references (`import type`,
 *   `typeof x` in a type).
 * - "shared": components, lib, themes, styles. These modules are browser code as a whole: any import from a
 *   server-only module is an error, used or not.
 *
 * See docs/decisions/026-eslint-and-the-server-values-rule.md for the approach and its limits.
 */

// The exports @remix-run/dev keeps in the browser bundle (compiler/js/plugins/routes.js, browserSafeRouteExports).
const BROWSER_EXPORTS = [
  "default",
  "meta",
  "links",
  "handle",
  "ErrorBoundary",
  "HydrateFallback",
  "Layout",
  "shouldRevalidate",
  "clientLoader",
  "clientAction",
];

// Parents that put an identifier in a type, where it names a type or `typeof` a value but is never evaluated.
const TYPE_CONTEXTS = new Set([
  "TSTypeAnnotation",
  "TSTypeQuery",
  "TSTypeReference",
  "TSTypeAliasDeclaration",
  "TSInterfaceDeclaration",
  "TSTypeParameterInstantiation",
  "TSTypeParameterDeclaration",
  "TSImportType",
  "TSDeclareFunction",
]);

const FUNCTION_TYPES = new Set(["FunctionExpression", "ArrowFunctionExpression", "FunctionDeclaration"]);

// Expressions esbuild may keep even when the variable they initialise is unused (it cannot prove them pure),
// so they run when the module loads in the browser.
const IMPURE_TYPES = new Set([
  "CallExpression",
  "NewExpression",
  "TaggedTemplateExpression",
  "MemberExpression",
  "AwaitExpression",
  "AssignmentExpression",
  "UpdateExpression",
  "SpreadElement",
  "ImportExpression",
  "ClassExpression",
]);

const TOP_LEVEL = "(module top-level code)";

/** Is this import source a server-only module? `~/services/…` counts: every service is server-only. */
export function isServerModule(source) {
  return /\.server(\.[cm]?[jt]sx?)?$/.test(source) || /\.server\//.test(source) || source.startsWith("~/services/");
}

function isInTypePosition(node) {
  for (let current = node.parent; current && current.type !== "Program"; current = current.parent) {
    if (TYPE_CONTEXTS.has(current.type)) return true;
  }
  return false;
}

/** @type {import("eslint").Rule.RuleModule} */
export default {
  meta: {
    type: "problem",
    docs: {
      description: "Disallow browser code from using values imported from server-only (`.server`) modules",
    },
    schema: [
      {
        type: "object",
        properties: { mode: { enum: ["route", "shared"] } },
        additionalProperties: false,
      },
    ],
    messages: {
      sharedImport:
        "'{{source}}' is server-only: Remix replaces it with an empty module in the browser bundle, and this module is browser code. Move the value to app/lib, or pass it in from a loader.",
      browserUse:
        "'{{name}}' comes from the server-only module '{{source}}' but is used by browser code (reached from {{path}}); in the browser bundle it is undefined. Use it only in loader/action/headers, return it from the loader, or move it to app/lib.",
      browserReExport:
        "'{{source}}' is server-only: re-exporting '{{name}}' from it puts an undefined value in the browser bundle.",
    },
  },

  create(context) {
    const mode = context.options[0]?.mode ?? "route";
    const sourceCode = context.sourceCode;

    return {
      "Program:exit"(program) {
        if (mode === "shared") {
          checkShared(program);
        } else {
          checkRoute(program);
        }
      },
    };

    function checkShared(program) {
      for (const statement of program.body) {
        const source = statement.source?.value;
        if (typeof source !== "string" || !isServerModule(source)) continue;
        if (statement.importKind === "type" || statement.exportKind === "type") continue;
        if (statement.type === "ImportDeclaration") {
          const values = statement.specifiers.filter((s) => s.importKind !== "type");
          if (statement.specifiers.length > 0 && values.length === 0) continue; // `import { type A } from …`
          context.report({ node: values[0] ?? statement, messageId: "sharedImport", data: { source } });
        } else if (statement.type === "ExportNamedDeclaration" || statement.type === "ExportAllDeclaration") {
          context.report({ node: statement, messageId: "sharedImport", data: { source } });
        }
      }
    }

    function checkRoute(program) {
      const moduleScope = sourceCode.getScope(program).childScopes.find((scope) => scope.type === "module");
      if (!moduleScope) return;

      // 1. The server imports: variable → module it came from.
      const serverImports = new Map();
      for (const statement of program.body) {
        if (statement.type === "ImportDeclaration") {
          const source = statement.source.value;
          if (statement.importKind === "type" || !isServerModule(source)) continue;
          for (const specifier of statement.specifiers) {
            if (specifier.importKind === "type") continue;
            for (const variable of sourceCode.getDeclaredVariables(specifier)) serverImports.set(variable, source);
          }
        } else if (statement.type === "ExportNamedDeclaration" && statement.source && statement.exportKind !== "type") {
          // `export { x as meta } from "….server"`: the browser gets `undefined` for a browser-safe name.
          if (!isServerModule(statement.source.value)) continue;
          for (const specifier of statement.specifiers) {
            const exported = specifier.exported.name ?? specifier.exported.value;
            if (specifier.exportKind !== "type" && BROWSER_EXPORTS.includes(exported)) {
              context.report({
                node: specifier,
                messageId: "browserReExport",
                data: { source: statement.source.value, name: exported },
              });
            }
          }
        } else if (statement.type === "ExportAllDeclaration" && statement.exportKind !== "type") {
          if (isServerModule(statement.source.value)) {
            context.report({
              node: statement,
              messageId: "browserReExport",
              data: { source: statement.source.value, name: "*" },
            });
          }
        }
      }
      if (serverImports.size === 0) return;

      // 2. The graph. Nodes: top-level variables, export names ("export:meta") and TOP_LEVEL.
      /** @type {Map<unknown, Set<unknown>>} */
      const edges = new Map();
      const addEdge = (from, to) => {
        if (!edges.has(from)) edges.set(from, new Set());
        edges.get(from).add(to);
      };
      const exportNode = (name) => `export:${name}`;
      const variableOf = (identifier) => moduleScope.set.get(identifier.name);

      for (const statement of program.body) {
        if (statement.type === "ExportNamedDeclaration" && !statement.source) {
          if (statement.declaration) {
            for (const variable of sourceCode.getDeclaredVariables(statement.declaration)) {
              addEdge(exportNode(variable.name), variable);
            }
          }
        } else if (statement.type === "ExportDefaultDeclaration") {
          const declaration = statement.declaration;
          if (
            (declaration.type === "FunctionDeclaration" || declaration.type === "ClassDeclaration") &&
            declaration.id
          ) {
            addEdge(exportNode("default"), variableOf(declaration.id));
          }
        }
      }

      // Every value reference in the file to a module-scope variable becomes an edge from its owner(s).
      const referenceOwners = new Map(); // reference → owners (for reporting)
      const impureCache = new Map();
      for (const scope of sourceCode.scopeManager.scopes) {
        for (const reference of scope.references) {
          const variable = reference.resolved;
          if (!variable || variable.scope !== moduleScope) continue;
          if (reference.isValueReference === false) continue;
          // Declaring or assigning a variable does not use its value.
          if (reference.isWrite() && !reference.isRead()) continue;
          if (isInTypePosition(reference.identifier)) continue;
          const owners = ownersOf(reference.identifier, program, impureCache);
          for (const owner of owners) addEdge(owner, variable);
          referenceOwners.set(reference, owners);
        }
      }

      // 3. What the browser reaches, remembering how (for the message).
      const reachedFrom = new Map(); // node → previous node on the first path found (null for a root)
      const queue = [];
      for (const root of [...BROWSER_EXPORTS.map(exportNode), TOP_LEVEL]) {
        if (!reachedFrom.has(root)) {
          reachedFrom.set(root, null);
          queue.push(root);
        }
      }
      while (queue.length > 0) {
        const node = queue.shift();
        for (const next of edges.get(node) ?? []) {
          if (!reachedFrom.has(next)) {
            reachedFrom.set(next, node);
            queue.push(next);
          }
        }
      }

      // 4. Report each use of a server value whose owner the browser reaches.
      for (const [reference, owners] of referenceOwners) {
        const source = serverImports.get(reference.resolved);
        if (source === undefined) continue;
        const owner = owners.find((candidate) => reachedFrom.has(candidate));
        if (owner === undefined) continue;
        context.report({
          node: reference.identifier,
          messageId: "browserUse",
          data: { name: reference.identifier.name, source, path: describePath(owner, reachedFrom) },
        });
      }
    }

    /** The top-level node(s) a reference belongs to: whose code it is part of. */
    function ownersOf(identifier, program, impureCache) {
      const statement = topLevelStatementOf(identifier, program);
      if (!statement) return [TOP_LEVEL];
      return ownersInStatement(identifier, statement, impureCache);
    }

    function ownersInStatement(identifier, statement, impureCache) {
      switch (statement.type) {
        case "FunctionDeclaration":
        case "ClassDeclaration":
        case "TSDeclareFunction":
          return statement.id ? sourceCode.getDeclaredVariables(statement) : [TOP_LEVEL];
        case "TSEnumDeclaration":
          // An enum compiles to code that runs on load.
          return [TOP_LEVEL];
        case "VariableDeclaration": {
          const declarator = statement.declarations.find((d) => contains(d, identifier));
          if (!declarator) return [TOP_LEVEL];
          const owners = [...sourceCode.getDeclaredVariables(declarator)];
          if (declarator.init && isEvaluatedOnLoad(identifier, declarator.init)) {
            if (!impureCache.has(declarator)) impureCache.set(declarator, hasImpureCode(declarator.init));
            if (impureCache.get(declarator)) owners.push(TOP_LEVEL);
          }
          return owners;
        }
        case "ExportNamedDeclaration": {
          if (statement.declaration) return ownersInStatement(identifier, statement.declaration, impureCache);
          // `export { local as exported }`
          const specifier = statement.specifiers.find((s) => contains(s, identifier));
          if (!specifier) return [TOP_LEVEL];
          return [`export:${specifier.exported.name ?? specifier.exported.value}`];
        }
        case "ExportDefaultDeclaration": {
          const declaration = statement.declaration;
          if (
            (declaration.type === "FunctionDeclaration" || declaration.type === "ClassDeclaration") &&
            declaration.id
          ) {
            return sourceCode.getDeclaredVariables(declaration);
          }
          return ["export:default"];
        }
        default:
          // Expression statements, ifs, loops…: they run when the module loads, in the browser too.
          return [TOP_LEVEL];
      }
    }

    function topLevelStatementOf(node, program) {
      let current = node;
      while (current.parent && current.parent !== program) current = current.parent;
      return current.parent === program ? current : null;
    }

    function contains(outer, inner) {
      return outer.range[0] <= inner.range[0] && inner.range[1] <= outer.range[1];
    }

    /** True unless the identifier sits inside a function (or instance field) within `init`: that code runs later. */
    function isEvaluatedOnLoad(identifier, init) {
      for (let current = identifier; current && current !== init.parent; current = current.parent) {
        if (FUNCTION_TYPES.has(current.type)) return false;
        if (
          current.type === "PropertyDefinition" &&
          !current.static &&
          current.value &&
          contains(current.value, identifier)
        ) {
          return false;
        }
      }
      return true;
    }

    /** Does evaluating `init` (not counting function bodies) do anything esbuild must keep? */
    function hasImpureCode(init) {
      const visitorKeys = sourceCode.visitorKeys;
      const stack = [init];
      while (stack.length > 0) {
        const node = stack.pop();
        if (!node || typeof node.type !== "string") continue;
        if (FUNCTION_TYPES.has(node.type)) continue;
        if (IMPURE_TYPES.has(node.type)) return true;
        if (TYPE_CONTEXTS.has(node.type)) continue;
        for (const key of visitorKeys[node.type] ?? []) {
          const child = node[key];
          if (Array.isArray(child)) stack.push(...child);
          else if (child) stack.push(child);
        }
      }
      return false;
    }

    function describePath(owner, reachedFrom) {
      const names = [];
      for (let node = owner; node !== null && node !== undefined; node = reachedFrom.get(node)) {
        const previous = reachedFrom.get(node);
        // `export function meta` is the export `meta` and the variable `meta`: name it once.
        if (typeof previous === "string" && typeof node !== "string" && previous === `export:${node.name}`) continue;
        names.push(nodeName(node));
      }
      names.reverse();
      return names.join(" → ");
    }

    function nodeName(node) {
      if (node === TOP_LEVEL) return TOP_LEVEL;
      if (typeof node === "string") {
        const name = node.slice("export:".length);
        return name === "default" ? "the default export (the component)" : `the \`${name}\` export`;
      }
      return `\`${node.name}\``;
    }
  },
};
