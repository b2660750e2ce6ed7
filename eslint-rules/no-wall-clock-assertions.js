/**
 * no-wall-clock-assertions: a test may not assert how long something took on the real clock (issue 29).
 *
 * `expect(Date.now() - started).toBeLessThan(2_000)` passes on a quiet machine and fails on a busy one: it
 * measures the machine, not the portal. A time-out, a breaker, a debounce or an expiry is tested by its outcome
 * (the charge is pending, the breaker is open, the answer was a 413) with an injected clock (`now()` in
 * app/services/platform/clock.server.ts), fake timers (`vi.useFakeTimers()`), or a signal (a promise the stub
 * resolves). "It does not hang" is what the test's own time-out checks. Speed belongs to the bench.
 *
 * What it reports, in the arguments of an `expect(…)` call (also `expect.soft`, `expect.poll`) and of the
 * matchers chained on it (`.not.toBeLessThan(…)`):
 * 1. a duration: a subtraction whose two sides both read the real clock, e.g. `Date.now() - started`,
 *    `performance.now() - t0`, `process.hrtime.bigint() - start`, `after - before`, or `process.hrtime(start)`;
 *    directly or through a variable that holds one (`const elapsed = Date.now() - started; expect(elapsed)`);
 * 2. the clock against a deadline taken from it: the subject reads the clock and a matcher's argument does too,
 *    e.g. `expect(Date.now()).toBeLessThan(deadline)` with `const deadline = Date.now() + 10_000`.
 * A clock read is `Date.now()`, `performance.now()`, `process.hrtime()`, `process.hrtime.bigint()` or
 * `new Date()` with no argument; arithmetic on one is still the clock (`Date.now() + 10_000`, `Math.floor(…)`,
 * `Number(…)`, `.getTime()`, `new Date(…)` of it), and so is a variable assigned one (declared or later). A value
 * a function returns is not: `make({ expiresAt: new Date(Date.now() + DAY) })` is data.
 *
 * What it allows: the clock used to build data (`new Date(Date.now() + 86_400_000)` as an expiry, a signed
 * timestamp), and one reading compared with a value the code produced: `expect(time).toBeLessThanOrEqual(after)`
 * (a stamp lies in a window), `expect(expiresAt - Date.now()).toBeGreaterThan(13.9 * DAY)` (a lifetime). Those
 * read the clock once, so the machine's speed does not enter them in any realistic run.
 *
 * Why a lint rule and not a Vitest check over the test files: `npm run lint` already runs in `npm test` and CI,
 * it points at the line in the editor as the test is written, and ESLint's scope analysis follows a variable to
 * what was assigned to it, which a text search cannot do without flagging `Date.now()` used to build data.
 *
 * Limits (kept simple on purpose): values are followed through local variables only, not through object
 * properties, function results or other modules (`const { ms } = await timedCall()` is not seen); the portal's
 * own `now()` is an injected clock and never counts.
 */

const MESSAGE =
  "A wall-clock assertion ({{what}}): it measures how fast the machine is, and fails on a busy one. Assert the " +
  "outcome instead (the charge is pending, the breaker is open), with the injected clock (now()), fake timers or " +
  "a signal the stub resolves; the test's time-out already covers 'does not hang' (issue 29).";

/** `Date.now()`, `performance.now()`, `process.hrtime()`, `process.hrtime.bigint()`, `new Date()`. */
function isClockRead(node) {
  if (node.type === "NewExpression") {
    return node.callee.type === "Identifier" && node.callee.name === "Date" && node.arguments.length === 0;
  }
  if (node.type !== "CallExpression") return false;
  const callee = node.callee;
  if (callee.type !== "MemberExpression" || callee.computed || callee.property.type !== "Identifier") return false;
  const object = callee.object;
  const property = callee.property.name;
  if (object.type === "Identifier") {
    return (
      (object.name === "Date" && property === "now") ||
      (object.name === "performance" && property === "now") ||
      (object.name === "process" && property === "hrtime")
    );
  }
  // process.hrtime.bigint()
  return (
    property === "bigint" &&
    object.type === "MemberExpression" &&
    !object.computed &&
    object.object.type === "Identifier" &&
    object.object.name === "process" &&
    object.property.type === "Identifier" &&
    object.property.name === "hrtime"
  );
}

/** `process.hrtime(start)`: the difference from a previous reading. */
function isHrtimeDifference(node) {
  return isClockRead(node) && node.type === "CallExpression" && node.arguments.length > 0;
}

/** @type {import("eslint").Rule.RuleModule} */
export default {
  meta: {
    type: "problem",
    docs: {
      description: "Disallow test assertions on elapsed wall-clock time (Date.now() - started < N)",
    },
    schema: [],
    messages: { wallClock: MESSAGE },
  },

  create(context) {
    const sourceCode = context.sourceCode;
    const visitorKeys = sourceCode.visitorKeys;

    /** The variable an identifier (in an expression) refers to, found through its scopes. */
    function variableOf(identifier) {
      for (let scope = sourceCode.getScope(identifier); scope; scope = scope.upper) {
        const variable = scope.set.get(identifier.name);
        if (variable) return variable;
      }
      return null;
    }

    /** Every expression written to a variable: its initialiser and later assignments. */
    function writesOf(variable) {
      return variable.references.filter((reference) => reference.writeExpr).map((reference) => reference.writeExpr);
    }

    /** Calls `visit` on the node and every node inside it (functions in it included). */
    function walk(node, visit) {
      if (!node || typeof node.type !== "string") return;
      if (visit(node) === false) return;
      for (const key of visitorKeys[node.type] ?? []) {
        const child = node[key];
        if (Array.isArray(child)) for (const item of child) walk(item, visit);
        else walk(child, visit);
      }
    }

    // Memoised per variable; `undefined` while being computed, so `x = x + Date.now()` ends.
    const readsClock = new Map();
    const holdsDuration = new Map();

    function memo(cache, variable, compute) {
      if (cache.has(variable)) return cache.get(variable) ?? false;
      cache.set(variable, undefined);
      const result = writesOf(variable).some(compute);
      cache.set(variable, result);
      return result;
    }

    /** The expression under casts and `!` (TypeScript), which change no value. */
    function unwrap(node) {
      while (
        node.type === "TSNonNullExpression" ||
        node.type === "TSAsExpression" ||
        node.type === "TSSatisfiesExpression" ||
        node.type === "TSTypeAssertion"
      ) {
        node = node.expression;
      }
      return node;
    }

    /**
     * The expressions whose value a node's value is computed from, when only arithmetic stands between them:
     * `a + 1`, `-a`, `c ? a : b`, `Math.floor(a)`, `Number(a)`, `a.getTime()`, `a[0]`, `new Date(a)`. A call
     * to anything else (`make({ expiresAt: new Date(Date.now()) })`) is a new value, not the clock's.
     */
    function sources(node) {
      node = unwrap(node);
      switch (node.type) {
        case "BinaryExpression":
          return ["+", "-", "*", "/", "%", "**"].includes(node.operator) ? [node.left, node.right] : [];
        case "UnaryExpression":
          return node.operator === "-" || node.operator === "+" ? [node.argument] : [];
        case "ConditionalExpression":
          return [node.consequent, node.alternate];
        case "MemberExpression":
          return node.computed ? [node.object] : [];
        case "NewExpression":
          return node.callee.type === "Identifier" && node.callee.name === "Date" ? node.arguments : [];
        case "CallExpression": {
          const callee = node.callee;
          if (callee.type === "Identifier" && ["Number", "BigInt"].includes(callee.name)) return node.arguments;
          if (callee.type !== "MemberExpression" || callee.computed || callee.property.type !== "Identifier") return [];
          if (callee.object.type === "Identifier" && callee.object.name === "Math") return node.arguments;
          return ["getTime", "valueOf"].includes(callee.property.name) ? [callee.object] : [];
        }
        default:
          return [];
      }
    }

    /** Whether an expression's value comes from the real clock: a reading, or arithmetic on one. */
    function fromClock(node) {
      node = unwrap(node);
      if (isClockRead(node)) return true;
      if (node.type === "Identifier") {
        const variable = variableOf(node);
        return Boolean(variable) && memo(readsClock, variable, fromClock);
      }
      return sources(node).some(fromClock);
    }

    /** Whether an expression's value is a duration: a difference of two readings, or arithmetic on one. */
    function isDuration(node) {
      node = unwrap(node);
      if (isHrtimeDifference(node)) return true;
      if (node.type === "BinaryExpression" && node.operator === "-" && fromClock(node.left) && fromClock(node.right)) {
        return true;
      }
      if (node.type === "Identifier") {
        const variable = variableOf(node);
        return Boolean(variable) && memo(holdsDuration, variable, isDuration);
      }
      return sources(node).some(isDuration);
    }

    /** The first duration anywhere in an expect's argument (a node to name in the message), or null. */
    function findDuration(expression) {
      let found = null;
      walk(expression, (node) => {
        if (found) return false;
        if (
          isHrtimeDifference(node) ||
          (node.type === "BinaryExpression" && isDuration(node)) ||
          (node.type === "Identifier" && isRead(node) && isDuration(node))
        ) {
          found = node;
        }
        return !found;
      });
      return found;
    }

    /** An identifier used as a value (not a property name, a key or a declaration's name). */
    function isRead(node) {
      const parent = node.parent;
      if (!parent) return true;
      if (parent.type === "MemberExpression" && parent.property === node && !parent.computed) return false;
      if (parent.type === "Property" && parent.key === node && !parent.computed && !parent.shorthand) return false;
      if (parent.type === "VariableDeclarator" && parent.id === node) return false;
      return true;
    }

    /** `expect(…)`, `expect.soft(…)`, `expect.poll(…)`. */
    function isExpectCall(node) {
      const callee = node.callee;
      if (callee.type === "Identifier") return callee.name === "expect";
      return (
        callee.type === "MemberExpression" &&
        callee.object.type === "Identifier" &&
        callee.object.name === "expect" &&
        !callee.computed &&
        callee.property.type === "Identifier" &&
        (callee.property.name === "soft" || callee.property.name === "poll")
      );
    }

    /** The arguments of the matchers chained on an expect call: `.not.toBeLessThan(deadline)` → [deadline]. */
    function matcherArguments(expectCall) {
      const args = [];
      let current = expectCall;
      for (;;) {
        const parent = current.parent;
        if (parent?.type === "MemberExpression" && parent.object === current) current = parent;
        else if (parent?.type === "CallExpression" && parent.callee === current) {
          args.push(...parent.arguments);
          current = parent;
        } else return args;
      }
    }

    const describe = (node) => sourceCode.getText(node).replace(/\s+/g, " ").slice(0, 60);

    return {
      CallExpression(node) {
        if (!isExpectCall(node)) return;
        const matcherArgs = matcherArguments(node);
        for (const argument of [...node.arguments, ...matcherArgs]) {
          const duration = findDuration(argument);
          if (duration) {
            context.report({ node, messageId: "wallClock", data: { what: `a duration: ${describe(duration)}` } });
            return;
          }
        }
        const subject = node.arguments[0];
        if (subject && fromClock(subject)) {
          const deadline = matcherArgs.find((argument) => fromClock(argument));
          if (deadline) {
            context.report({
              node,
              messageId: "wallClock",
              data: { what: `the clock against a deadline from it: ${describe(deadline)}` },
            });
          }
        }
      },
    };
  },
};
