import http from "node:http";
import { DOCUMENT_RUNS, FLOOR_PATH, type BenchDocument } from "./config";
import { request, signIn, type BenchResponse } from "./lib/http";
import { median, round } from "./lib/stats";

/**
 * Step 10, the PDF documents (issue 34): each document in DOCUMENTS fetched signed in as its login, one
 * after another — `warmUps` unmeasured (the process parses its fonts on its first document), then
 * `measured` timed. The time is the wall time from sending the request to its last byte, on 127.0.0.1
 * (the bench's own HTTP client, no compression asked for): the server's time plus a loopback round
 * trip, which is a fraction of a millisecond. Every fetch must be a 200 `application/pdf` whose body is a
 * PDF and whose file name is the document's, else the step throws: a fast error page is not a fast PDF.
 *
 * "Generating a PDF never blocks other requests for long": a document with `heartbeat` is then made
 * `beside` more times while /heartbeat (the floor) is fetched back to back on a connection of its own,
 * and every heartbeat answer that overlapped the document's request is kept: the slowest of them is how
 * long another request waited, at worst, while the file was being made. The same connection's heartbeats
 * alone, just before, give the figure to compare it with. These runs are not the timed ones: the
 * heartbeats take the event loop's turns the document yields, so it takes longer beside them.
 */
export type HeartbeatBeside = {
  /** /heartbeat alone, back to back on its connection, just before the runs beside the document (ms). */
  idle: { samples: number; medianMs: number; maxMs: number };
  /** Each run beside the document: its time, the heartbeat answers that overlapped it, the slowest of them. */
  runs: { documentMs: number; answers: number; slowestMs: number }[];
  /** The median of the runs' slowest answers: the budget's figure. */
  slowestMs: number;
  /** The slowest answer in any run. */
  worstMs: number;
};

export type DocumentResult = {
  document: string;
  host: string;
  path: string;
  /** 200 (anything else has thrown). */
  status: number;
  contentType: string;
  /** The file's size: the largest of the measured fetches (they may differ by a byte or two). */
  bytes: number;
  /** Statement lines the file lists (counted in the seeded database by bench/seed.ts). */
  lines?: number;
  warmUps: number;
  /** Each measured fetch, request to last byte (ms). */
  runsMs: number[];
  medianMs: number;
  maxMs: number;
  heartbeat?: HeartbeatBeside;
};

const ms = (value: number) => round(value, 1);

/** Why a fetch is not the document: a 400's words, a redirect's target (a lost session goes to sign-in). */
function notTheDocument(document: BenchDocument, response: BenchResponse): string | null {
  if (response.status !== 200) {
    const type = response.headers["content-type"] ?? "";
    const said = type.startsWith("text/plain") ? `: ${response.body.toString("utf8").slice(0, 200)}` : "";
    const location = response.headers.location ? ` to ${response.headers.location}` : "";
    return `HTTP ${response.status}${location}${said}, expected 200`;
  }
  const type = response.headers["content-type"]?.split(";")[0]?.trim();
  if (type !== "application/pdf") return `Content-Type ${type ?? "none"}, expected application/pdf`;
  if (!response.body.subarray(0, 5).equals(Buffer.from("%PDF-"))) return "the body is not a PDF";
  const disposition = response.headers["content-disposition"] ?? "";
  const missing = document.fileNameHas.filter((part) => !disposition.includes(part));
  if (missing.length) return `its file name (${disposition || "none"}) lacks ${missing.join(", ")}`;
  return null;
}

async function fetchDocument(document: BenchDocument, cookie: string) {
  const start = performance.now();
  const response = await request(document.host, document.path, { cookie });
  const end = performance.now();
  const wrong = notTheDocument(document, response);
  if (wrong) throw new Error(`GET ${document.path} on ${document.host}: ${wrong}`);
  return { response, start, end };
}

async function heartbeat(host: string, agent: http.Agent) {
  const start = performance.now();
  const response = await request(host, FLOOR_PATH, { agent });
  if (response.status !== 200) throw new Error(`GET ${FLOOR_PATH} on ${host}: HTTP ${response.status}, expected 200`);
  return { start, end: performance.now() };
}

/** The document made once with /heartbeat fetched back to back beside it, on the poll's own connection. */
async function besideHeartbeat(document: BenchDocument, cookie: string, agent: http.Agent) {
  // The poll's connection open and answering before the document is asked for.
  await heartbeat(document.host, agent);
  const answers: { start: number; end: number }[] = [];
  let polling = true;
  let failure: unknown = null;
  const poll = (async () => {
    while (polling) answers.push(await heartbeat(document.host, agent));
  })().catch((error: unknown) => {
    failure = error;
  });
  const made = await fetchDocument(document, cookie).finally(async () => {
    polling = false;
    await poll;
  });
  if (failure) throw failure;
  // Every answer whose request was open at any moment while the document's was: the poll's first request
  // went out before the document's, so there is at least one.
  const during = answers.filter((answer) => answer.start < made.end && answer.end > made.start);
  if (during.length === 0) throw new Error(`${FLOOR_PATH} was not answered beside ${document.name}`);
  return {
    documentMs: ms(made.end - made.start),
    answers: during.length,
    slowestMs: ms(Math.max(...during.map((answer) => answer.end - answer.start))),
  };
}

async function measureHeartbeat(document: BenchDocument, cookie: string): Promise<HeartbeatBeside> {
  // keepAlive with one socket: every heartbeat on the same connection, never the document's.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const idle: number[] = [];
    for (let i = 0; i < DOCUMENT_RUNS.idleHeartbeats; i += 1) {
      const answer = await heartbeat(document.host, agent);
      idle.push(answer.end - answer.start);
    }
    const runs: HeartbeatBeside["runs"] = [];
    for (let i = 0; i < DOCUMENT_RUNS.beside; i += 1) runs.push(await besideHeartbeat(document, cookie, agent));
    return {
      idle: { samples: idle.length, medianMs: ms(median(idle)), maxMs: ms(Math.max(...idle)) },
      runs,
      slowestMs: ms(median(runs.map((run) => run.slowestMs))),
      worstMs: Math.max(...runs.map((run) => run.slowestMs)),
    };
  } finally {
    agent.destroy();
  }
}

export async function measureDocuments(documents: BenchDocument[]): Promise<DocumentResult[]> {
  const sessions = new Map<string, string>();
  const results: DocumentResult[] = [];
  for (const document of documents) {
    const key = `${document.login.email} on ${document.host}`;
    if (!sessions.has(key))
      sessions.set(key, await signIn(document.host, document.login.email, document.login.password));
    const cookie = sessions.get(key)!;
    for (let i = 0; i < DOCUMENT_RUNS.warmUps; i += 1) await fetchDocument(document, cookie);
    const runs: { ms: number; bytes: number; status: number; contentType: string }[] = [];
    for (let i = 0; i < DOCUMENT_RUNS.measured; i += 1) {
      const { response, start, end } = await fetchDocument(document, cookie);
      runs.push({
        ms: end - start,
        bytes: response.body.length,
        status: response.status,
        contentType: response.headers["content-type"] ?? "",
      });
    }
    const runsMs = runs.map((run) => ms(run.ms));
    results.push({
      document: document.name,
      host: document.host,
      path: document.path,
      status: runs[0]!.status,
      contentType: runs[0]!.contentType,
      bytes: Math.max(...runs.map((run) => run.bytes)),
      ...(document.lines === undefined ? {} : { lines: document.lines }),
      warmUps: DOCUMENT_RUNS.warmUps,
      runsMs,
      medianMs: ms(median(runsMs)),
      maxMs: Math.max(...runsMs),
      ...(document.heartbeat ? { heartbeat: await measureHeartbeat(document, cookie) } : {}),
    });
  }
  return results;
}
