import { invalid } from "../platform/problems.server";
import type { ApiCaller, ApiScope } from "./api-keys.server";
import {
  answer,
  apiProblem,
  isRead,
  json,
  notAllowed,
  readJsonBody,
  requireCaller,
  withIdempotency,
  type CommitHook,
  type HandlerResult,
} from "./api.server";

/**
 * The three shapes of a back-office route (decision 067), so that a route module is its configuration:
 *
 * - `collectionRoute`: GET a page of a list (`limit`, `cursor` and named filters) and/or POST to it;
 * - `itemRoute`: GET one record (a 404 when the service finds none) and/or POST to it;
 * - `verbRoute`: POST `…/:id/:verb`, one handler per verb.
 *
 * Each answers through `answer`, in the order the API has always checked: the method (405, with the
 * route's methods in `Allow`), then the key (401/403), then the input (400), then the work, every POST
 * under `withIdempotency`.
 *
 * A route passes its configuration to the factory's `loader` and `action` from inside its own exported
 * functions rather than building them when the module loads: a call at load time would stay in the
 * browser bundle (decision 026), and there the services are empty modules.
 */

type Params = Record<string, string | undefined>;

/** What Remix (and the route tests) pass a loader or an action; `context` is not read. */
export type RouteArgs = { request: Request; params: Params; context?: unknown };

/** A POST: its scope, its body, and the work, run under the call's Idempotency-Key. */
export type Post = {
  scope: ApiScope;
  /** `"json"` (the default): a JSON object. `"none"`: an empty body or `{}`; any field is a 400. */
  body?: "json" | "none";
  /** A larger cap than the API's 64 KB, for an agreement's text. */
  maxBytes?: number;
  /** Checks the body before the Idempotency-Key is claimed: a problem thrown here claims nothing. */
  check?: (body: Record<string, unknown>) => void;
  run: (call: PostCall) => Promise<HandlerResult>;
};

export type PostCall = {
  caller: ApiCaller;
  params: Params;
  body: Record<string, unknown>;
  onCommit: CommitHook;
};

/** The query a list's service is given: the route's filters (null when absent), `limit` and `cursor`. */
export type ListQuery<Filter extends string> = Record<Filter, string | null> & {
  limit: number | null;
  cursor: string | null;
};

export type CollectionRoute<Filter extends string = never> = {
  list?: {
    scope: ApiScope;
    /** The query parameters passed on to the service as they are (besides `limit` and `cursor`). */
    filters: readonly Filter[];
    run: (businessId: string, query: ListQuery<Filter>) => Promise<unknown>;
  };
  post?: Post;
};

export type ItemRoute = {
  read?: {
    scope: ApiScope;
    run: (businessId: string, params: Params) => Promise<unknown>;
    /** The answer is `{ [as]: record }`; without it, the record itself. */
    as?: string;
    /** With it, a record the service does not find (null or undefined) is this 404. */
    notFound?: string;
  };
  post?: Post;
};

export type VerbCall = PostCall & { id: string };

export type VerbRoute = {
  scope: ApiScope;
  /** As `Post.body`: most verbs take no fields. */
  body: "json" | "none";
  /** The verbs in the order the 404 names them ("Use send, resend or cancel."). */
  verbs: Record<string, (call: VerbCall) => Promise<HandlerResult>>;
};

const LIMIT = /^\d{1,3}$/;

export const collectionRoute = {
  loader<Filter extends string>(route: CollectionRoute<Filter>, args?: RouteArgs) {
    const { list } = route;
    if (!list || !args) return notAllowed(methodsOf(list, route.post));
    const { request } = args;
    return answer(async () => {
      if (!isRead(request)) return notAllowed(methodsOf(list, route.post));
      const caller = await requireCaller(request, list.scope);
      const search = new URL(request.url).searchParams;
      const limit = search.get("limit");
      if (limit !== null && !LIMIT.test(limit)) throw invalid({ limit: "Use a whole number from 1 to 100." });
      const filters = Object.fromEntries(list.filters.map((name) => [name, search.get(name)]));
      const query = {
        ...filters,
        limit: limit === null ? null : Number(limit),
        cursor: search.get("cursor"),
      } as ListQuery<Filter>;
      return json(await list.run(caller.businessId, query));
    });
  },
  action<Filter extends string>(route: CollectionRoute<Filter>, args?: RouteArgs) {
    return postAction(route.post, methodsOf(route.list, route.post), args);
  },
};

export const itemRoute = {
  loader(route: ItemRoute, args?: RouteArgs) {
    const { read } = route;
    if (!read || !args) return notAllowed(methodsOf(read, route.post));
    const { request, params } = args;
    return answer(async () => {
      if (!isRead(request)) return notAllowed(methodsOf(read, route.post));
      const caller = await requireCaller(request, read.scope);
      const found = await read.run(caller.businessId, params);
      if (read.notFound !== undefined && (found === null || found === undefined)) {
        return apiProblem(404, "not_found", read.notFound);
      }
      return json(read.as === undefined ? found : { [read.as]: found });
    });
  },
  action(route: ItemRoute, args?: RouteArgs) {
    return postAction(route.post, methodsOf(route.read, route.post), args);
  },
};

export const verbRoute = {
  /** GET and the like: an unknown verb is a 404 before the method is refused. */
  loader(route: VerbRoute, args: { params: Params }) {
    if (!verbOf(route, args.params.verb)) return unknownVerb(route);
    return notAllowed(["POST"]);
  },
  action(route: VerbRoute, { request, params }: RouteArgs) {
    return answer(async () => {
      const verb = verbOf(route, params.verb);
      if (!verb) return unknownVerb(route);
      if (request.method !== "POST") return notAllowed(["POST"]);
      const caller = await requireCaller(request, route.scope);
      const body = await readBody(request, route.body);
      const id = params.id ?? "";
      return withIdempotency(request, caller, body.raw, (onCommit) =>
        route.verbs[verb]!({ caller, params, body: body.value, onCommit, id }),
      );
    });
  },
};

/** `"send": true` on a create, checked before anything is made. */
export function checkSendFlag(body: Record<string, unknown>) {
  if (body.send !== undefined && typeof body.send !== "boolean") throw invalid({ send: "Give true or false." });
}

function postAction(post: Post | undefined, allowed: string[], args: RouteArgs | undefined) {
  if (!post || !args) return notAllowed(allowed);
  const { request, params } = args;
  return answer(async () => {
    if (request.method !== "POST") return notAllowed(allowed);
    const caller = await requireCaller(request, post.scope);
    const body = await readBody(request, post.body ?? "json", post.maxBytes);
    post.check?.(body.value);
    return withIdempotency(request, caller, body.raw, (onCommit) =>
      post.run({ caller, params, body: body.value, onCommit }),
    );
  });
}

/** The methods a route answers, for `Allow`: GET when it reads, POST when it takes posts. */
const methodsOf = (read: object | undefined, post: Post | undefined) => [
  ...(read ? ["GET"] : []),
  ...(post ? ["POST"] : []),
];

async function readBody(request: Request, kind: "json" | "none", maxBytes?: number) {
  if (kind === "json") return readJsonBody(request, maxBytes === undefined ? {} : { maxBytes });
  // An empty body is fine; anything sent must be a JSON object with no fields.
  const body = await readJsonBody(request, { optional: true });
  const unknown = Object.keys(body.value);
  if (unknown.length) {
    throw invalid(
      Object.fromEntries(
        unknown.slice(0, 10).map((name) => [name.slice(0, 60), "This field is not part of the call."]),
      ),
    );
  }
  return body;
}

/** Only the table's own verbs: `toString` or `__proto__` in the URL is a 404 like any other word. */
const verbOf = (route: VerbRoute, verb: string | undefined) =>
  verb !== undefined && Object.hasOwn(route.verbs, verb) ? verb : undefined;

/** The 404 for a verb the route does not have, naming those it has: "Use send, resend or cancel." */
function unknownVerb(route: VerbRoute) {
  const names = Object.keys(route.verbs);
  const list = names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}` : names[0];
  return apiProblem(404, "not_found", `Use ${list}.`);
}
